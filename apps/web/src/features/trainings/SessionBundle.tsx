import { Anchor, Badge, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { sessionBundleRow } from '@trainlab/contract';
import { Link } from 'react-router';
import type { z } from 'zod';
import { usePagedQuery } from '../../api/use-paged-query';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';

type BundleRow = z.infer<typeof sessionBundleRow>;

const percent = (v: number | null) => (v === null ? 'Not taken' : `${v} %`);

function GainBadge({ gain }: { gain: number | null }) {
  if (gain === null) return <Text size="sm">—</Text>;
  const color = gain > 0 ? 'green' : gain < 0 ? 'red' : 'gray';
  return (
    <Badge color={color} variant="light">
      {gain > 0 ? `+${gain}` : gain} points
    </Badge>
  );
}

const columns: DataTableColumn<BundleRow>[] = [
  { accessor: 'first_name', title: 'Learner', sortable: true, render: (r) => r.name },
  { accessor: 'email', title: 'E-mail', sortable: true, render: (r) => r.email },
  { accessor: 'minutes', title: 'Attended (min)', sortable: true, textAlign: 'right', render: (r) => r.minutes },
  { accessor: 'pre_percent', title: 'Pre-test', textAlign: 'right', render: (r) => percent(r.pre_percent) },
  { accessor: 'post_percent', title: 'Post-test', textAlign: 'right', render: (r) => percent(r.post_percent) },
  { accessor: 'gain', title: 'Gain', render: (r) => <GainBadge gain={r.gain} /> },
];

/**
 * The session bundle of a completed training (issue 14): each learner's attended minutes, pre and
 * post percent and gain, and the training's recordings, in one place.
 */
export function SessionBundleSection({ slug }: { slug: string }) {
  const { list, query } = usePagedQuery('get-session-bundle', { slug }, { prefix: 'bundle_' });
  const data = query.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="session-bundle-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="session-bundle-title">
          Session bundle
        </Title>
        <Text size="sm" c="dimmed">
          Attendance measured in the live conference, the pre- and post-test scores and the gain (post − pre).
        </Text>
        <DataTable
          label="Session bundle"
          searchLabel="Search the session bundle"
          records={data?.list}
          columns={columns}
          loading={query.isLoading}
          error={query.error}
          idAccessor="user_id"
          paged={{ list, total: data?.total, capped: data?.total_capped, searchable: true }}
        />
        <Title order={3} size="h5">
          Recordings
        </Title>
        {data && data.recordings.length === 0 ? (
          <Text size="sm">No recordings of this training.</Text>
        ) : (
          <List size="sm" aria-label="Recordings">
            {(data?.recordings ?? []).map((r) => (
              <List.Item key={r.topic_id}>
                <Anchor component={Link} to={r.page}>
                  {r.topic}
                </Anchor>
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Paper>
  );
}
