import { Badge, Button, Group, Modal, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { MSG } from '@trainlab/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ApiRequest } from '../../api/call-types';
import { apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { confirmAction } from '../../ui/confirm';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { CourseDetails } from './CourseDetails';
import { IconAction, money, type TrainingCourseWithModules } from './shared';

type DeletePath = 'delete-training-course' | 'delete-training-module' | 'delete-training-topic';

/** /admin/training-course-list: courses with View (modules and topics) and Delete. */
export function TrainingCourseListPage() {
  const title = useRouteTitle();
  const client = useQueryClient();
  const q = useApiQuery('training-course-list');
  const [viewing, setViewing] = useState<TrainingCourseWithModules | null>(null);

  const reload = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['training-course-list'] }),
      client.invalidateQueries({ queryKey: ['get-all-training-course-list'] }),
      client.invalidateQueries({ queryKey: ['training-module-list'] }),
    ]);

  const run = async (path: DeletePath, body: ApiRequest<DeletePath>, color: string, fallback: string) => {
    try {
      const res = await apiPost(path, body);
      notifications.show({ color, message: res.message || fallback });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    }
    await reload();
  };

  const deleteCourse = (c: TrainingCourseWithModules) =>
    confirmAction({
      title: 'Delete course',
      message: `Delete "${c.name}" with its modules and topics?`,
      danger: true,
      onConfirm: () => run('delete-training-course', { course_id: c.id }, 'red', MSG.courseDeleted),
    });

  const deletePart = (kind: 'module' | 'topic', id: number, name: string) =>
    confirmAction({
      title: kind === 'module' ? 'Delete module' : 'Delete topic',
      message: kind === 'module' ? `Delete module "${name}" with its topics?` : `Delete topic "${name}"?`,
      danger: true,
      onConfirm: () => {
        setViewing(null);
        return run(
          kind === 'module' ? 'delete-training-module' : 'delete-training-topic',
          kind === 'module' ? { module_id: id } : { topic_id: id },
          'green',
          MSG.recordDeleted,
        );
      },
    });

  const columns: DataTableColumn<TrainingCourseWithModules>[] = [
    { accessor: 'name', title: 'Course' },
    { accessor: 'category_name', title: 'Category' },
    { accessor: 'level', title: 'Level' },
    { accessor: 'duration', title: 'Duration', render: (c) => `${c.duration} ${c.duration_type}` },
    { accessor: 'price', title: 'Price', textAlign: 'right', render: (c) => money(c.price) },
    {
      accessor: 'modules',
      title: 'Modules',
      textAlign: 'center',
      render: (c) => (
        <Badge variant="light" color="gray">
          {c.modules.length}
        </Badge>
      ),
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
          <IconAction label={`Delete ${c.name}`} color="red" onClick={() => deleteCourse(c)}>
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
          <Button component={Link} to="/admin/create-training-course" leftSection={<IconPlus size={16} aria-hidden />}>
            Add
          </Button>
        }
      />
      <DataTable
        label="Training courses"
        records={q.data?.list}
        columns={columns}
        loading={q.isLoading}
        error={q.error}
        searchOn={['name', 'category_name', 'level']}
      />
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name} size="lg">
        {viewing ? <CourseDetails course={viewing} onDelete={deletePart} /> : null}
      </Modal>
    </Stack>
  );
}
