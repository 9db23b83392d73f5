import { Button, Divider, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { ImportPanel } from '../../ui/ImportPanel';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { CertificationForm, certificationValues, EMPTY_CERTIFICATION } from './CertificationForm';
import { BackLink, type Certification, IconAction, money } from './shared';

const LIST = '/certification/list';

function useBackToList() {
  const navigate = useNavigate();
  const client = useQueryClient();
  return async (message: string) => {
    notifications.show({ color: 'green', message });
    await client.invalidateQueries({ queryKey: ['certification-list'] });
    await client.invalidateQueries({ queryKey: ['get-certification'] });
    navigate(LIST);
  };
}

/** /certification/create: the Excel import and the create form. */
export function CertificationCreatePage() {
  const title = useRouteTitle();
  const backToList = useBackToList();
  const navigate = useNavigate();
  const client = useQueryClient();
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Group gap="md">
            <BackLink to="/all-courses">Back</BackLink>
            <BackLink to={LIST}>Back to list</BackLink>
          </Group>
        }
      />
      <ImportPanel
        title="Import certifications from Excel"
        path="upload-certification-master"
        templateType="certification"
        onImported={async () => {
          // ImportPanel has already shown the server's toast
          await client.invalidateQueries({ queryKey: ['certification-list'] });
          navigate(LIST);
        }}
      />
      <CertificationForm
        path="create-certification"
        initialValues={EMPTY_CERTIFICATION}
        submitLabel="Create Certification"
        onSuccess={(data) => backToList(data.message || MSG.recordAdded)}
      />
    </Stack>
  );
}

/** /certification/edit/:id: the same form, prefilled. */
export function CertificationEditPage() {
  const title = useRouteTitle();
  const { id = '' } = useParams();
  const backToList = useBackToList();
  const q = useApiQuery('get-certification', { id: Number(id) });
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to={LIST}>Back to list</BackLink>} />
      {q.isLoading ? <Loading /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? (
        <CertificationForm
          key={q.data.success.id}
          path="update-certification"
          id={q.data.success.id}
          initialValues={certificationValues(q.data.success)}
          submitLabel="Update Certification"
          onSuccess={(data) => backToList(data.message || MSG.recordUpdated)}
        />
      ) : null}
    </Stack>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {children === null || children === undefined || children === '' ? '—' : children}
      </Text>
    </Stack>
  );
}

function CertificationDetails({ c }: { c: Certification }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Detail label="Level">{c.level}</Detail>
        <Detail label="Certification Type">{c.certification_type}</Detail>
        <Detail label="Product">{c.product_name}</Detail>
        <Detail label="Role">{c.role_name}</Detail>
        <Detail label="Exam">{c.exam_name}</Detail>
        <Detail label="Certification Role">{c.certification_role}</Detail>
        <Detail label="Duration">{c.duration}</Detail>
        <Detail label="Recommended Experience">{c.recommended_experience}</Detail>
        <Detail label="Cost ($)">{money(c.cost_doller)}</Detail>
        <Detail label="Cost (₹)">{money(c.cost_inr)}</Detail>
        <Detail label="Exam Link">{c.exam_link}</Detail>
        <Detail label="Product Link">{c.product_link}</Detail>
      </SimpleGrid>
      <Divider />
      <Detail label="Description">{c.certification_description}</Detail>
      <Detail label="Prerequisites">{c.certification_prerequisites}</Detail>
      <Detail label="Details">{c.certification_details}</Detail>
      <Detail label="Remark">{c.remark}</Detail>
    </Stack>
  );
}

/** /certification/list: searchable table with View, Edit and Delete. */
export function CertificationListPage() {
  const title = useRouteTitle();
  const client = useQueryClient();
  const { list, query: q } = usePagedQuery('certification-list', {}, { sort: 'name' });
  const [viewing, setViewing] = useState<Certification | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);

  const remove = (c: Certification) =>
    confirmAction({
      title: 'Delete certification',
      message: `Delete "${c.name}"? This cannot be undone.`,
      danger: true,
      onConfirm: async () => {
        setDeleting(c.id);
        try {
          const res = await apiPost('delete-certification', { id: c.id });
          notifications.show({ color: 'green', message: res.message || MSG.recordDeleted });
          await client.invalidateQueries({ queryKey: ['certification-list'] });
        } catch (error) {
          notifications.show({ color: 'red', message: errorText(error) });
        } finally {
          setDeleting(null);
        }
      },
    });

  const columns: DataTableColumn<Certification>[] = [
    { accessor: 'name', title: 'Name', sortable: true },
    { accessor: 'certification_type', title: 'Type', render: (c) => c.certification_type ?? '—' },
    { accessor: 'product_name', title: 'Product', render: (c) => c.product_name ?? '—' },
    { accessor: 'level', title: 'Level', sortable: true },
    {
      accessor: 'cost',
      title: 'Cost',
      render: (c) => `$${money(c.cost_doller)} / ₹${money(c.cost_inr)}`,
    },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (c) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <IconAction label={`View ${c.name}`} onClick={() => setViewing(c)}>
            <IconEye size={16} aria-hidden />
          </IconAction>
          <IconAction label={`Edit ${c.name}`} to={`/certification/edit/${c.id}`}>
            <IconEdit size={16} aria-hidden />
          </IconAction>
          <IconAction label={`Delete ${c.name}`} color="red" loading={deleting === c.id} onClick={() => remove(c)}>
            <IconTrash size={16} aria-hidden />
          </IconAction>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={
          <Button component={Link} to="/certification/create" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Certification
          </Button>
        }
      />
      <DataTable
        label="Certifications"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name} size="lg">
        {viewing ? <CertificationDetails c={viewing} /> : null}
      </Modal>
    </Stack>
  );
}
