import { Badge, Button, Group, Rating, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconLogin2 } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type learnerTopicList, TOPIC_STATUS, TOPIC_STATUS_LABELS } from '@trainlab/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { DataTable } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { WaitingForHostModal } from '../../ui/WaitingForHostModal';
import { conferencePath, formatDateTime } from './format';

type LearnerTopic = z.infer<typeof learnerTopicList>['list'][number];
const PATH = 'get-user-training-details';
const STATUS_COLORS = ['gray', 'green', 'blue'] as const;

export function TopicStatusBadge({ status }: { status: number }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status] ?? 'gray'}>
      {TOPIC_STATUS_LABELS[status] ?? String(status)}
    </Badge>
  );
}

/** /user/training-details/:slug — the trainee page: topics, join, rating (spec 02 §2, §4). */
export function TrainingDetailsPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const client = useQueryClient();
  const query = useApiQuery(PATH, { slug });
  const [waitingTopic, setWaitingTopic] = useState<number | null>(null);
  const [joiningId, setJoiningId] = useState<number | null>(null);
  const [ratingId, setRatingId] = useState<number | null>(null);
  const [retryError, setRetryError] = useState<string | null>(null);

  /** Asks for the topic's current status; when Starting, records attendance and opens the meeting. */
  async function join(topicId: number, fromDialog = false) {
    setJoiningId(topicId);
    setRetryError(null);
    try {
      const fresh = await query.refetch();
      if (fresh.error) throw fresh.error;
      const topic = fresh.data?.list.find((t) => t.id === topicId);
      if (topic?.status !== TOPIC_STATUS.starting) {
        setWaitingTopic(topicId);
        return;
      }
      await apiPost('add-training-attendance', { id: topicId });
      setWaitingTopic(null);
      window.open(conferencePath(slug), '_blank');
      await client.invalidateQueries({ queryKey: [PATH] });
    } catch (error) {
      if (fromDialog) setRetryError(errorText(error));
      else notifications.show({ color: 'red', message: errorText(error) });
    } finally {
      setJoiningId(null);
    }
  }

  async function rate(topicId: number, rating: number) {
    setRatingId(topicId);
    try {
      const res = await apiPost('add-training-rating', { rating, id: topicId });
      notifications.show({ color: 'green', message: res.message });
      await client.invalidateQueries({ queryKey: [PATH] });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    } finally {
      setRatingId(null);
    }
  }

  return (
    <>
      <PageHeader
        title={title}
        description={query.data ? `Topics of ${query.data.name}` : undefined}
        actions={
          <>
            <Button component={Link} to={`/assessment?slug=${encodeURIComponent(slug)}`} variant="light">
              Tests
            </Button>
            <Button
              component={Link}
              to="/my-trainings"
              variant="default"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
            >
              Back
            </Button>
          </>
        }
      />
      <DataTable<LearnerTopic>
        label="Training topics"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        columns={[
          { accessor: 'session_topic', title: 'Topic' },
          { accessor: 'start_time', title: 'Start', render: (t) => formatDateTime(t.start_time) },
          { accessor: 'end_time', title: 'End', render: (t) => formatDateTime(t.end_time) },
          { accessor: 'status', title: 'Status', width: 130, render: (t) => <TopicStatusBadge status={t.status} /> },
          {
            accessor: 'ustart_time',
            title: 'My attendance',
            render: (t) => (
              <Stack gap={0}>
                <Text size="sm">Joined: {formatDateTime(t.ustart_time)}</Text>
                <Text size="sm" c="dimmed">
                  Left: {formatDateTime(t.uend_time)}
                </Text>
              </Stack>
            ),
          },
          {
            accessor: 'urating',
            title: 'Rating',
            render: (t) => (
              <Rating
                // stars a learner can set are a radio group; read-only stars one picture with a name
                role={t.status !== TOPIC_STATUS.completed || ratingId === t.id ? 'img' : 'radiogroup'}
                value={t.urating ?? 0}
                readOnly={t.status !== TOPIC_STATUS.completed || ratingId === t.id}
                onChange={(value) => void rate(t.id, value)}
                aria-label={`Rate ${t.session_topic}`}
                title={
                  t.status === TOPIC_STATUS.completed ? 'Rate this topic' : 'Rating opens when the topic is completed'
                }
              />
            ),
          },
          {
            accessor: 'actions',
            title: 'Action',
            textAlign: 'right',
            render: (t) => (
              <Group justify="flex-end" wrap="nowrap">
                <Button
                  size="xs"
                  leftSection={<IconLogin2 size={14} aria-hidden />}
                  disabled={t.status === TOPIC_STATUS.completed}
                  loading={joiningId === t.id}
                  onClick={() => void join(t.id)}
                  aria-label={`Join ${t.session_topic}`}
                >
                  Join
                </Button>
              </Group>
            ),
          },
        ]}
      />
      <WaitingForHostModal
        opened={waitingTopic !== null}
        onClose={() => {
          setWaitingTopic(null);
          setRetryError(null);
        }}
        onRetry={() => {
          if (waitingTopic !== null) void join(waitingTopic, true);
        }}
        retrying={joiningId !== null}
        error={retryError}
      />
    </>
  );
}
