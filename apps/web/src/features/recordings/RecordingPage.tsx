import { Anchor, Paper, Stack, Text } from '@mantine/core';
import { MSG } from '@trainlab/contract';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError, errorText } from '../../api/client';
import { getToken } from '../../api/session';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';

/** A recording URL that plays as it is (not one of ours, which needs a signed token). */
const isExternal = (url: string | undefined): url is string => !!url && !url.startsWith('/api/recording-file/');

/**
 * /recording/:id (the topic id, base64): asks /get-recording for a signed, short-lived URL and plays
 * it with <video> (or <audio> for audio-only recordings); 'Recording Not Available' otherwise.
 */
export function RecordingPage() {
  const title = useRouteTitle();
  const { id = '' } = useParams();
  const state = (useLocation().state ?? null) as { url?: string; topic?: string } | null;
  // a link from the details table with an external recording_url plays directly
  const external = isExternal(state?.url) ? state.url : undefined;
  // recordings are for signed-in viewers: without a session the server would answer 401 anyway
  const signedIn = !!getToken();
  const query = useApiQuery('get-recording', { id }, { enabled: !external && id !== '' && signedIn });

  const rec = query.data?.success;
  const heading = rec ? `${title}: ${rec.topic.session_topic}` : state?.topic ? `${title}: ${state.topic}` : title;
  const signInNeeded = !signedIn || (query.error instanceof ApiError && query.error.status === 401);
  const notAvailable = signInNeeded || (query.error instanceof ApiError && query.error.status === 404);
  const url = external ?? rec?.url;
  const audioOnly = rec?.mime?.startsWith('audio/') ?? false;

  let body: React.ReactNode;
  if (url) {
    body = (
      <Paper withBorder radius="md" p="xs">
        {audioOnly ? (
          // biome-ignore lint/a11y/useMediaCaption: recordings of live sessions have no caption track
          <audio src={url} controls preload="metadata" style={{ width: '100%' }} aria-label="Recording" />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: recordings of live sessions have no caption track
          <video
            src={url}
            controls
            preload="metadata"
            style={{ width: '100%', maxHeight: '70vh', background: 'black' }}
            aria-label="Recording"
          />
        )}
        {rec ? (
          <Text size="sm" c="dimmed" mt="xs">
            {rec.training.name}
          </Text>
        ) : null}
      </Paper>
    );
  } else if (id === '' || notAvailable) {
    body = (
      <EmptyState
        message={MSG.recordingNotAvailable}
        hint={
          signInNeeded ? (
            <>
              <Anchor component={Link} to="/login">
                Sign in
              </Anchor>{' '}
              to watch the recordings of your trainings.
            </>
          ) : undefined
        }
      />
    );
  } else if (query.error) {
    body = <ErrorAlert message={errorText(query.error)} />;
  } else {
    body = <Loading label="Loading recording…" />;
  }

  return (
    <Stack gap="md">
      <PageHeader title={heading} />
      {body}
    </Stack>
  );
}
