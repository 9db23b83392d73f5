import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { formatDuration, type TopicRow, VideoStatusBadge } from './shared';

/** /course-view/{slug}: Course Topics with Course, Module, Topic, Edit and Delete. */
export function CourseViewPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const client = useQueryClient();
  const { list, query } = usePagedQuery('get-course-module-topic-list', { slug });
  const anyProcessing = query.data?.list.some((t) => t.video_status === 'processing');
  // while a video is processing the list refreshes itself
  useEffect(() => {
    if (!anyProcessing) return;
    const timer = window.setInterval(() => void query.refetch(), 3000);
    return () => window.clearInterval(timer);
  }, [anyProcessing, query]);
  const act = async (path: 'retry-topic-video' | 'delete-topic', t: TopicRow) => {
    try {
      const res = await apiPost(path, { slug: t.tslug });
      notifications.show({ color: path === 'delete-topic' ? 'red' : 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['get-course-module-topic-list'] });
    } catch (err) {
      notifications.show({ color: 'red', message: errorText(err) });
    }
  };
  const columns: DataTableColumn<TopicRow>[] = [
    { accessor: 'course', title: 'Course' },
    { accessor: 'module', title: 'Module', sortable: true },
    { accessor: 'topic', title: 'Topic', sortable: true },
    { accessor: 'duration', title: 'Duration', render: (t) => formatDuration(t.duration) },
    {
      accessor: 'video_status',
      title: 'Video',
      render: (t) => (
        <Stack gap={2}>
          <VideoStatusBadge status={t.video_status} error={t.video_error} />
          {t.video_status === 'failed' ? (
            <Text size="xs" c="red">
              {t.video_error}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      accessor: 'actions',
      title: 'Edit / Delete',
      textAlign: 'right',
      render: (t) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {t.video_status === 'failed' ? (
            <Tooltip label="Retry processing">
              <ActionIcon
                variant="subtle"
                aria-label={`Retry processing ${t.topic}`}
                onClick={() => void act('retry-topic-video', t)}
              >
                <IconRefresh size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" component={Link} to={`/edit-course/${t.tslug}`} aria-label={`Edit ${t.topic}`}>
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${t.topic}`}
              onClick={() =>
                confirmAction({
                  title: 'Delete topic',
                  message: `Delete the topic "${t.topic}" and its video?`,
                  danger: true,
                  onConfirm: () => void act('delete-topic', t),
                })
              }
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Course Topics"
        actions={<BackLink to="/all-courses">All courses</BackLink>}
      />
      <DataTable
        label="Course Topics"
        idAccessor="topic_id"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        columns={columns}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}
