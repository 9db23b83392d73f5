import { Badge, Button, Group, Modal, NumberInput, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileDescription, IconMail, IconSettings, IconUsers } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorText } from '../../api/client';
import { apiDownload } from '../../api/upload';
import { useApiQuery } from '../../api/use-api';
import { useApiForm } from '../../api/use-api-form';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { FormActions } from '../../ui/FormActions';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { SessionBundleSection } from './SessionBundle';
import {
  BackLink,
  formatDateTime,
  JoinBadge,
  minutesLabel,
  type TrainingRow,
  type TrainingUserRow,
  useRowAction,
} from './shared';

/** /completed-trainings: ended trainings with their users and details, plus certificate settings. */
export function CompletedTrainingsPage() {
  const title = useRouteTitle();
  const { list, query: q } = usePagedQuery('completed-trainings');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const columns: DataTableColumn<TrainingRow>[] = [
    { accessor: 'name', title: 'Name', sortable: true },
    { accessor: 'start_date', title: 'Start Date', sortable: true, render: (t) => formatDateTime(t.start_date) },
    { accessor: 'end_date', title: 'End Date', sortable: true, render: (t) => formatDateTime(t.end_date) },
    { accessor: 'total_participants', title: 'Total Participants', sortable: true, textAlign: 'right' },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (t) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <RowLink
            to={`/completed-training-users/${t.slug}`}
            label={`Users of ${t.name}`}
            icon={<IconUsers size={14} aria-hidden />}
          >
            Users
          </RowLink>
          <RowLink
            to={`/training-details/${t.slug}`}
            label={`Details of ${t.name}`}
            icon={<IconFileDescription size={14} aria-hidden />}
            secondary
          >
            Details
          </RowLink>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Trainings that have ended."
        actions={
          <Button
            variant="light"
            leftSection={<IconSettings size={16} aria-hidden />}
            onClick={() => setSettingsOpen(true)}
          >
            Certificate settings
          </Button>
        }
      />
      <DataTable
        label="Completed trainings"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
      <Modal opened={settingsOpen} onClose={() => setSettingsOpen(false)} title="Certificate settings" size="md">
        {settingsOpen ? <CertificateSettingsForm onDone={() => setSettingsOpen(false)} /> : null}
      </Modal>
    </Stack>
  );
}

function CertificateSettingsForm({ onDone }: { onDone: () => void }) {
  const q = useApiQuery('get-certificate-settings');
  const client = useQueryClient();
  const { form, onSubmit, otherError, submitting } = useApiForm<
    {
      issuer_name: string;
      signatory_name: string;
      signatory_title: string;
      min_attendance_percent: number | string;
      min_post_score_percent: number | string;
    },
    'update-certificate-settings'
  >({
    path: 'update-certificate-settings',
    initialValues: {
      issuer_name: '',
      signatory_name: '',
      signatory_title: '',
      min_attendance_percent: 0,
      min_post_score_percent: 0,
    },
    onSuccess: async (data) => {
      notifications.show({ color: 'green', message: data.message });
      await client.invalidateQueries({ queryKey: ['get-certificate-settings'] });
      onDone();
    },
  });
  const loaded = q.data?.success;
  // biome-ignore lint/correctness/useExhaustiveDependencies: fill the form once when the record arrives
  useEffect(() => {
    if (loaded) form.setValues(loaded);
  }, [loaded]);

  if (q.isLoading) return <LoadingLines lines={4} />;
  if (q.error) return <ErrorAlert message={errorText(q.error)} />;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <ErrorAlert message={otherError} />
        <TextInput label="Issuer Name" withAsterisk {...form.getInputProps('issuer_name')} />
        <TextInput label="Signatory Name" withAsterisk {...form.getInputProps('signatory_name')} />
        <TextInput label="Signatory Title" withAsterisk {...form.getInputProps('signatory_title')} />
        <NumberInput
          label="Minimum Attendance (%)"
          description="0 means no attendance rule."
          min={0}
          max={100}
          allowDecimal={false}
          {...form.getInputProps('min_attendance_percent')}
        />
        <NumberInput
          label="Minimum Post-assessment Score (%)"
          description="0 means no score rule; applies to trainings that have a post-assessment."
          min={0}
          max={100}
          allowDecimal={false}
          {...form.getInputProps('min_post_score_percent')}
        />
        <FormActions onCancel={onDone} submitting={submitting} />
      </Stack>
    </form>
  );
}

/**
 * /completed-training-users/:slug 'Completed Training User': join, minutes and certificate rights,
 * then the session bundle (attendance, pre/post gain and recordings).
 */
export function CompletedTrainingUsersPage() {
  const { slug = '' } = useParams();
  const { list, query: q } = usePagedQuery('lp/get-training-users', { slug });
  const { run, busyKey } = useRowAction(['lp/get-training-users']);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const downloadAll = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      await apiDownload('download-training-certificates', { slug }, `${slug}-certificates.zip`);
    } catch (error) {
      setDownloadError(errorText(error));
    } finally {
      setDownloading(false);
    }
  };

  const columns: DataTableColumn<TrainingUserRow>[] = [
    { accessor: 'email', title: 'User Name', sortable: true, render: (u) => u.user_name },
    { accessor: 'first_name', title: 'Name', sortable: true, render: (u) => u.name },
    { accessor: 'join', title: 'Join Status', width: 130, render: (u) => <JoinBadge join={u.join} /> },
    { accessor: 'min', title: 'Min', sortable: true, textAlign: 'right', render: (u) => minutesLabel(u.min) },
    {
      accessor: 'send_email_certificate',
      title: 'Certificate Send',
      render: (u) => (
        <Group gap="xs" wrap="nowrap">
          <Badge color={u.send_email_certificate ? 'green' : 'gray'} variant="light">
            {u.send_email_certificate ? 'Yes' : 'No'}
          </Badge>
          <Tooltip label="Send the certificate by e-mail">
            <Button
              size="compact-xs"
              variant="outline"
              leftSection={<IconMail size={12} aria-hidden />}
              loading={busyKey === `${u.id}-send`}
              aria-label={`Send certificate to ${u.name}`}
              onClick={() =>
                void run(`${u.id}-send`, 'lpu/send-certificate-email', { t_id: u.training_id, u_id: u.user_id })
              }
            >
              Send
            </Button>
          </Tooltip>
        </Group>
      ),
    },
    {
      accessor: 'is_download_certificate',
      title: 'Certificate',
      render: (u) => (
        <Group gap="xs" wrap="nowrap">
          <Switch
            checked={u.is_download_certificate === 1}
            disabled={busyKey === `${u.id}-cert`}
            aria-label={`Certificate download for ${u.name}`}
            onChange={() => void run(`${u.id}-cert`, 'lpu/download-certificate-access', { id: u.id })}
          />
          <Text size="sm" fw={600} aria-hidden>
            {u.is_download_certificate === 1 ? 'YES' : 'NO'}
          </Text>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title="Completed Training User"
        actions={
          <>
            <BackLink to="/completed-trainings">Back to completed trainings</BackLink>
            <Button variant="default" component={Link} to={`/training-details/${slug}`}>
              Training details
            </Button>
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={downloading}
              onClick={downloadAll}
            >
              Download all certificates (ZIP)
            </Button>
          </>
        }
      />
      <ErrorAlert message={downloadError} />
      <DataTable
        label="Completed training users"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        paged={{ list, total: q.data?.total, capped: q.data?.total_capped, searchable: true }}
      />
      <Text size="xs" c="dimmed">
        Min shows whole hours when the attended time is above 60 minutes, otherwise 0.
      </Text>
      <SessionBundleSection slug={slug} />
    </Stack>
  );
}
