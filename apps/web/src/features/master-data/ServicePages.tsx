import '@mantine/dates/styles.css';
import { Button, Grid, Group, NativeSelect, Paper, Stack, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { MSG, SERVICE_OPTION_LABELS, SERVICE_OPTIONS } from '@trainlab/contract';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { BackLink, IconAction, money, required, type Service } from './shared';

const LIST = '/service/list';

interface ServiceValues extends Record<string, unknown> {
  service: string;
  price: string;
  valid_date: string | null;
}

const SERVICE_DATA = [
  { value: '', label: 'Select Service' },
  ...SERVICE_OPTIONS.map((s) => ({ value: s, label: SERVICE_OPTION_LABELS[s] })),
];

export const serviceLabel = (s: string) => SERVICE_OPTION_LABELS[s as Service['service']] ?? s;

function ServiceForm({ service }: { service?: Service }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm<ServiceValues, 'update-service' | 'create-service'>({
    path: service ? 'update-service' : 'create-service',
    initialValues: {
      service: service?.service ?? '',
      price: service ? String(service.price) : '',
      valid_date: service?.valid_date ? service.valid_date.slice(0, 10) : null,
    },
    validate: { service: required('service'), price: required('price') },
    toBody: (v) => ({
      ...(service ? { id: service.id } : {}),
      service: v.service,
      price: v.price.trim(),
      valid_date: v.valid_date || null,
    }),
    onSuccess: async (data) => {
      // the spec shows 'Service create successfully!' on both add and update
      notifications.show({ color: 'green', message: data.message || MSG.serviceCreated });
      await client.invalidateQueries({ queryKey: ['service-list'] });
      await client.invalidateQueries({ queryKey: ['get-service'] });
      navigate(LIST);
    },
  });
  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <ErrorAlert message={otherError} />
      <form onSubmit={onSubmit} noValidate aria-label="Service">
        <Stack gap="md">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NativeSelect label="Service" withAsterisk data={SERVICE_DATA} {...form.getInputProps('service')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Price" withAsterisk inputMode="decimal" {...form.getInputProps('price')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <DateInput
                label="Valid date"
                placeholder="Optional"
                valueFormat="DD MMM YYYY"
                clearable
                {...form.getInputProps('valid_date')}
              />
            </Grid.Col>
          </Grid>
          <Group justify="flex-end">
            <Button variant="default" component={Link} to={LIST}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting}>
              {service ? 'Update' : 'Submit'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** /service/create */
export function ServiceCreatePage() {
  const title = useRouteTitle();
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to={LIST}>Back to list</BackLink>} />
      <ServiceForm />
    </Stack>
  );
}

/** /service/edit/:id: the id is sent with the update. */
export function ServiceEditPage() {
  const title = useRouteTitle();
  const { id = '' } = useParams();
  const q = useApiQuery('get-service', { id: Number(id) });
  return (
    <Stack gap="md">
      <PageHeader title={title} actions={<BackLink to={LIST}>Back to list</BackLink>} />
      {q.isLoading ? <Loading /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? <ServiceForm key={q.data.success.id} service={q.data.success} /> : null}
    </Stack>
  );
}

/** /service/list: Sr.No, Service, Price and an edit action; an add icon leads to create. */
export function ServiceListPage() {
  const title = useRouteTitle();
  const q = useApiQuery('service-list');
  const columns: DataTableColumn<Service>[] = [
    { accessor: 'service', title: 'Service', render: (s) => serviceLabel(s.service) },
    { accessor: 'price', title: 'Price', render: (s) => money(s.price) },
    {
      accessor: 'valid_date',
      title: 'Valid date',
      render: (s) => (s.valid_date ? new Date(s.valid_date).toLocaleDateString() : '—'),
    },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (s) => (
        <Group justify="flex-end">
          <IconAction label={`Edit ${serviceLabel(s.service)}`} to={`/service/edit/${s.id}`}>
            <IconEdit size={16} aria-hidden />
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
          <Button component={Link} to="/service/create" leftSection={<IconPlus size={16} aria-hidden />}>
            Add Service
          </Button>
        }
      />
      <DataTable label="Services" records={q.data?.list} columns={columns} loading={q.isLoading} error={q.error} />
    </Stack>
  );
}
