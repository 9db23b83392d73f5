import { Stack } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { BackLink } from '../../ui/BackLink';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { CaptionsPanel } from './CaptionsPanel';
import { TopicForm } from './TopicForm';
import { TranscriptPanel } from './TranscriptPanel';

/** /edit-course/{topic slug}: edit a topic; the video is optional. */
export function EditCoursePage() {
  const title = useRouteTitle();
  const navigate = useNavigate();
  const { slug = '' } = useParams();
  const details = useApiQuery('get-topic-details', { slug });
  const course = useApiQuery(
    'get-course-details',
    // asked only once the topic is loaded (enabled), so its course's slug is there
    { slug: details.data?.success.course_slug as string },
    { enabled: !!details.data },
  );
  const topic = details.data?.success;
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        actions={topic ? <BackLink to={`/course-view/${topic.course_slug}`}>Course topics</BackLink> : null}
      />
      {details.error ? <ErrorAlert message="The topic could not be loaded." /> : null}
      {topic && course.data ? (
        <>
          <TopicForm
            topic={{ ...topic, course_id: course.data.success.id }}
            onDone={() => navigate(`/course-view/${topic.course_slug}`)}
          />
          <CaptionsPanel slug={topic.tslug} tracks={topic.caption_tracks} />
          <TranscriptPanel slug={topic.tslug} transcript={topic.transcript} tracks={topic.caption_tracks} />
        </>
      ) : details.error ? null : (
        <LoadingLines />
      )}
    </Stack>
  );
}
