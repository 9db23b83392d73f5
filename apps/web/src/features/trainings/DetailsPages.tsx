import { Badge, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { formatInr } from '../../ui/money';
import { PageHeader } from '../../ui/PageHeader';
import { RowLink } from '../../ui/RowLink';
import { encodeId } from '../../ui/url-id';
import { BackLink, formatDateTime, PublicBadge, type SyllabusTopic, TopicStatusBadge } from './shared';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** /training-details/:slug: the training and its syllabus, with 'Play recording' links. */
export function TrainingDetailsPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const details = useApiQuery('get-training-details', { slug });
  const topics = useApiQuery('get-training-syllabus', { slug });
  const t = details.data?.success;

  const columns: DataTableColumn<SyllabusTopic>[] = [
    { accessor: 'session_topic', title: 'Topic' },
    { accessor: 'start_time', title: 'Start', render: (s) => formatDateTime(s.start_time) },
    { accessor: 'end_time', title: 'End', render: (s) => formatDateTime(s.end_time) },
    { accessor: 'no_of_min', title: 'Minutes', textAlign: 'right' },
    { accessor: 'status', title: 'Status', width: 130, render: (s) => <TopicStatusBadge status={s.status} /> },
    {
      accessor: 'recording_url',
      title: 'Recording',
      textAlign: 'right',
      render: (s) =>
        s.recording_url ? (
          <RowLink
            to={`/recording/${encodeId(s.id)}`}
            label={`Play recording of ${s.session_topic}`}
            icon={<IconPlayerPlay size={14} aria-hidden />}
            state={{ url: s.recording_url, topic: s.session_topic }}
          >
            Play recording
          </RowLink>
        ) : (
          <Text size="xs" c="dimmed">
            No recording
          </Text>
        ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t ? t.name : title}
        actions={<BackLink to="/completed-trainings">Back to trainings</BackLink>}
      />
      {details.isLoading ? (
        <LoadingLines lines={4} />
      ) : details.error ? (
        <ErrorAlert message={errorText(details.error)} />
      ) : t ? (
        <Paper withBorder radius="md" p="md">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
            <Fact label="Start Date">{formatDateTime(t.start_date)}</Fact>
            <Fact label="End Date">{formatDateTime(t.end_date)}</Fact>
            <Fact label="Total Day">{t.total_training_day}</Fact>
            <Fact label="Participants">{`${t.total_participants} / ${t.number_of_participants}`}</Fact>
            <Fact label="Meeting ID">{t.link}</Fact>
            <Fact label="Available">
              <PublicBadge value={t.is_public} />
            </Fact>
            <Fact label="Assessments">
              <Group gap={4}>
                {t.pre_assessment ? <Badge variant="light">Pre</Badge> : null}
                {t.post_assessment ? <Badge variant="light">Post</Badge> : null}
                {!t.pre_assessment && !t.post_assessment ? 'None' : null}
              </Group>
            </Fact>
            <Fact label="Cost">{formatInr(t.cost)}</Fact>
          </SimpleGrid>
          {t.description ? (
            <Stack gap={2} mt="md">
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                Description
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {t.description}
              </Text>
            </Stack>
          ) : null}
          {t.requirements.length ? (
            <Stack gap={2} mt="md">
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                Requirements
              </Text>
              <List size="sm">
                {t.requirements.map((r) => (
                  <List.Item key={r}>{r}</List.Item>
                ))}
              </List>
            </Stack>
          ) : null}
        </Paper>
      ) : (
        <EmptyState />
      )}
      <Title order={2} size="h4">
        Syllabus
      </Title>
      <DataTable
        label="Syllabus topics"
        records={topics.data?.list}
        columns={columns}
        loading={topics.isLoading}
        error={topics.error}
      />
    </Stack>
  );
}
