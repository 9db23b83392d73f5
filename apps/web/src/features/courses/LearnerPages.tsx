import { Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { ApiAnswer, ListRow } from '../../api/call-types';
import { errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { usePagedQuery } from '../../api/use-paged-query';
import { useRouteTitle } from '../../app/route-title';
import { DataTable, type DataTableColumn } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { cutDescription, rupees } from './shared';

type UserCourse = ApiAnswer<'get-user-courses'>['assigned'][number];

function CourseCard({ course }: { course: UserCourse }) {
  const window =
    course.start_date && course.end_date
      ? `${dayjs(course.start_date).format('DD MMM YYYY')} – ${dayjs(course.end_date).format('DD MMM YYYY')}`
      : null;
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={course.name}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {course.name}
        </Title>
        {course.description ? (
          <Text size="sm" c="dimmed" lineClamp={2}>
            {course.description}
          </Text>
        ) : null}
        {window ? <Text size="xs">{window}</Text> : null}
        <Group gap="xs" wrap="nowrap">
          <Progress value={course.percentage} flex={1} aria-label={`${course.name} progress`} />
          <Text size="sm">{course.percentage}% completed</Text>
        </Group>
        {course.available ? (
          <Button
            component={Link}
            to={`/course/${course.slug}`}
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            aria-label={`Play ${course.name}`}
          >
            Play
          </Button>
        ) : (
          <Badge color="gray" variant="light">
            Not available now
          </Badge>
        )}
      </Stack>
    </Card>
  );
}

function Section({ title, list }: { title: string; list: UserCourse[] }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={2} size="h4">
        {title}
      </Title>
      {list.length ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {list.map((c) => (
            <CourseCard key={c.id} course={c} />
          ))}
        </SimpleGrid>
      ) : (
        <EmptyState />
      )}
    </Stack>
  );
}

/** /user/courses/list: Assigned, Completed and Enrolled, each card with the real percentage. */
export function UserCoursesPage() {
  const title = useRouteTitle();
  const q = useApiQuery('get-user-courses');
  return (
    <Stack gap="lg">
      <PageHeader title={title} description="Your recorded courses and how far you got." />
      {q.isLoading ? <LoadingLines /> : null}
      {q.error ? <ErrorAlert message={errorText(q.error)} /> : null}
      {q.data ? (
        <>
          <Section title="Assigned" list={q.data.assigned} />
          <Section title="Completed" list={q.data.completed} />
          <Section title="Enrolled" list={q.data.enrolled} />
        </>
      ) : null}
    </Stack>
  );
}

type CatalogueCourse = ListRow<'course-list'>;

/** /course-list: the public courses. */
export function CourseCataloguePage() {
  const title = useRouteTitle();
  const { list, query } = usePagedQuery('course-list');
  const columns: DataTableColumn<CatalogueCourse>[] = [
    { accessor: 'name', title: 'Course Name', sortable: true },
    {
      accessor: 'amount',
      title: 'Course Amount',
      sortable: true,
      render: (c) => (c.is_paid ? rupees(c.amount) : 'Free'),
    },
    { accessor: 'description', title: 'Description', render: (c) => cutDescription(c.description) },
  ];
  return (
    <Stack gap="md">
      <PageHeader title={title} />
      <DataTable
        label="Courses"
        records={query.data?.list}
        loading={query.isLoading}
        error={query.error}
        columns={columns}
        paged={{ list, total: query.data?.total, capped: query.data?.total_capped, searchable: true }}
      />
    </Stack>
  );
}
