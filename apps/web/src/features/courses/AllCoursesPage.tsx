import { ActionIcon, Group, Stack, Tooltip } from '@mantine/core';
import { IconEdit, IconList, IconPlayerPlay, IconPlus, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';
import { type CourseItem, cutDescription, rupees } from './shared';

/** /all-courses: the tenant's courses with start, edit, assign users and users list (spec 02 §2). */
export function AllCoursesPage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('get-courses');
  const columns: DataTableColumn<CourseItem>[] = [
    { accessor: 'name', title: 'Course Name', sortable: true },
    { accessor: 'amount', title: 'Course Amount', sortable: true, render: (c) => rupees(c.amount) },
    { accessor: 'description', title: 'Description', render: (c) => cutDescription(c.description) },
    {
      accessor: 'actions',
      title: 'Action',
      textAlign: 'right',
      render: (c) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Start">
            <ActionIcon
              variant="subtle"
              color="green"
              component={Link}
              to={`/course/${c.slug}`}
              aria-label={`Start ${c.name}`}
            >
              <IconPlayerPlay size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" component={Link} to={`/course-view/${c.slug}`} aria-label={`Edit ${c.name}`}>
              <IconEdit size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Assign users">
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/course/assign-to-users/${c.slug}`}
              aria-label={`Assign users to ${c.name}`}
            >
              <IconUserPlus size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Users list">
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/course/assign-users-list/${c.slug}`}
              aria-label={`Users of ${c.name}`}
            >
              <IconList size={18} aria-hidden />
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
        description="Recorded courses of your organization: play, edit, assign and follow learners."
        actions={
          <Tooltip label="Create course">
            <ActionIcon component={Link} to="/create-course" size="lg" aria-label="Create course">
              <IconPlus size={20} aria-hidden />
            </ActionIcon>
          </Tooltip>
        }
      />
      <DataTable
        label="All courses"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        columns={columns}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}
