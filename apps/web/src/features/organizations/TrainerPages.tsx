import { Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { trainerRecord } from '@trainlab/contract';
import { ORG_MSG } from '@trainlab/contract';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import {
  EditPersonLink,
  EMPTY_PERSON,
  PERSON_VALIDATE,
  PersonForm,
  type PersonValues,
  personBody,
  usePersonUpdate,
} from './PersonForm';
import { ActiveBadge } from './shared';

type Trainer = z.infer<typeof trainerRecord>;
const BACK = { to: '/trainer/list', label: 'Back to trainers' };

/** /trainer/register: create a trainer; success toasts 'Trainer register successfully!' and opens the list. */
export function TrainerRegisterPage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const client = useQueryClient();
  const api = useApiForm<PersonValues, 'trainer-register'>({
    path: 'trainer-register',
    initialValues: EMPTY_PERSON,
    validate: PERSON_VALIDATE,
    toBody: personBody,
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message || ORG_MSG.trainerRegistered });
      await client.invalidateQueries({ queryKey: ['trainer-list'] });
      navigate('/trainer/list');
    },
  });
  return (
    <Stack gap="md">
      <PageHeader title={title} description="The trainer gets a mail to set a password." />
      <PersonForm api={api} submitLabel="Register" back={BACK} />
    </Stack>
  );
}

/** /trainer/list: all trainers with Edit. */
export function TrainerListPage() {
  const title = useRouteTitle();
  const { list, query: q } = usePagedQuery('trainer-list');
  const columns: DataTableColumn<Trainer>[] = [
    { accessor: 'first_name', title: 'First Name', sortable: true },
    { accessor: 'last_name', title: 'Last Name', sortable: true },
    { accessor: 'email', title: 'Email', sortable: true },
    { accessor: 'mobile_no', title: 'Mobile No', render: (t) => t.mobile_no ?? '—' },
    { accessor: 'status', title: 'Status', render: (t) => <ActiveBadge status={t.status} /> },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (t) => <EditPersonLink to={`/trainer/update/${t.id}`} person={t} />,
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <>
            <Button component={Link} to="/admin/trainer-bank-details" variant="default">
              Bank details
            </Button>
            <Button component={Link} to="/trainer/register" leftSection={<IconPlus size={16} aria-hidden />}>
              Register Trainer
            </Button>
          </>
        }
      />
      <DataTable
        label="Trainers"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}

function UpdateTrainerForm({ trainer }: { trainer: Trainer }) {
  const api = usePersonUpdate({
    path: 'update-trainer',
    person: trainer,
    key: { id: trainer.id },
    invalidates: ['trainer-list', 'get-trainer'],
    goTo: '/trainer/list',
  });
  return <PersonForm api={api} submitLabel="Update" back={BACK} />;
}

/** /trainer/update/:id: edit a trainer. */
export function TrainerUpdatePage() {
  const title = useRouteTitle();
  const { id = '' } = useParams();
  const q = useApiQuery('get-trainer', { id: Number(id) });
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      {q.isLoading ? <Loading /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? <UpdateTrainerForm key={q.data.success.id} trainer={q.data.success} /> : null}
    </Stack>
  );
}
