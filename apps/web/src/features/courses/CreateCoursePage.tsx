import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useRouteTitle } from '../../app/route-title';
import { PageHeader } from '../../ui/PageHeader';
import { TopicForm } from './TopicForm';

/** /create-course: add a topic (spec 02 §2); success goes to /all-courses. */
export function CreateCoursePage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        description="Add a topic: choose or add a course and a module, then upload the video."
      />
      <TopicForm onDone={() => navigate('/all-courses')} />
    </Stack>
  );
}
