import { Button, Group, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { trainerReference } from '@trainlab/contract';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { formatDate } from '../learner/format';
import { AddRecordPage, UpdateRecordPage } from './RecordPages';
import { DeleteButton, FormCard, OwnSkillSelect, useRemove, useSaved } from './shared';

type Reference = z.infer<typeof trainerReference>;
const LIST = '/trainer/reference/list';
const today = () => new Date().toISOString().slice(0, 10);

/** /trainer/reference/list */
export function ReferenceListPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('trainer-reference-list');
  const remove = useRemove('delete-trainer-reference', 'trainer-reference-list');
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to="/trainer/reference/add" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Reference
          </Button>
        }
      />
      <DataTable
        label="References"
        serial
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
        columns={[
          { accessor: 'name', title: 'Skill', sortable: true },
          { accessor: 'company_name', title: 'Company', sortable: true },
          { accessor: 'company_description', title: 'Description' },
          {
            accessor: 'training_conducted_date',
            title: 'Conducted On',
            sortable: true,
            render: (r) => formatDate(r.training_conducted_date),
          },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (r) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <RowLink to={`/trainer/reference/update/${r.id}`} label={`Edit ${r.company_name}`}>
                  Edit
                </RowLink>
                <DeleteButton label={`Delete ${r.company_name}`} onClick={() => remove(r.id, r.company_name)} />
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

interface Values extends Record<string, unknown> {
  skill_id: string | null;
  company_name: string;
  company_description: string;
  training_conducted_date: string;
}

function ReferenceForm({ current }: { current?: Reference }) {
  const saved = useSaved('trainer-reference-list', LIST);
  const api = useApiForm<Values, 'update-trainer-reference' | 'add-trainer-reference'>({
    path: current ? 'update-trainer-reference' : 'add-trainer-reference',
    initialValues: {
      skill_id: current ? String(current.skill_id) : null,
      company_name: current?.company_name ?? '',
      company_description: current?.company_description ?? '',
      training_conducted_date: current?.training_conducted_date ?? '',
    },
    validate: {
      skill_id: (v) => (v ? null : 'The skill id field is required.'),
      company_name: (v) => (v.trim() ? null : 'The company name field is required.'),
      company_description: (v) => (v.trim() ? null : 'The company description field is required.'),
      training_conducted_date: (v) => (v ? null : 'The training conducted date field is required.'),
    },
    toBody: (v) => (current ? { ...v, id: current.id } : v),
    onSuccess: saved,
  });
  const { form } = api;
  return (
    <FormCard label="Reference" {...api} back={LIST}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <OwnSkillSelect {...form.getInputProps('skill_id')} />
        <TextInput label="Company Name" withAsterisk {...form.getInputProps('company_name')} />
        <TextInput
          label="Training Conducted Date"
          type="date"
          withAsterisk
          max={today()}
          {...form.getInputProps('training_conducted_date')}
        />
      </SimpleGrid>
      <Textarea
        label="Company Description"
        withAsterisk
        autosize
        minRows={3}
        {...form.getInputProps('company_description')}
      />
    </FormCard>
  );
}

/** /trainer/reference/add */
export function ReferenceAddPage() {
  return <AddRecordPage form={<ReferenceForm />} />;
}

/** /trainer/reference/update/:id */
export function ReferenceUpdatePage() {
  return (
    <UpdateRecordPage
      get="get-trainer-reference"
      id={Number(useParams().id)}
      form={(r) => <ReferenceForm key={r.id} current={r} />}
    />
  );
}
