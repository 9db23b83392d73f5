import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { MSG, type meetingLinkResponse } from '@trainlab/contract';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { apiPost, errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { WaitingForHostModal } from '../../ui/WaitingForHostModal';
import { LabWatch } from '../labs/lab-watch';
import { ConferenceRoom, FRAME_HEIGHT } from './ConferenceRoom';
import { JitsiFrame } from './JitsiFrame';

export type MeetingLink = z.infer<typeof meetingLinkResponse>;

export const endMeetingPath = (slug: string) => `/end-meeting/${encodeURIComponent(slug)}`;

/**
 * /conference/{slug}: the live conference of a training (spec 01 §2). Moderators confirm the start
 * of a training that is not started; learners wait for the host; a second tab is refused.
 */
export function ConferencePage() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const [link, setLink] = useState<MeetingLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (start = false) => {
      setBusy(true);
      try {
        const next = await apiPost('get-meeting-link', start ? { slug, start: 1 } : { slug });
        setError(null);
        setLink(next);
        setAsking(next.isModerator === 1 && next.status === 0 && !start);
        setWaiting(next.isModerator !== 1 && next.status === 0);
      } catch (e) {
        setError(errorText(e));
      } finally {
        setBusy(false);
      }
    },
    [slug],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const title = 'Conference';
  const exit = () => navigate(endMeetingPath(slug));

  let body: React.ReactNode;
  if (error) body = <ErrorAlert message={error} />;
  else if (!link) body = <Loading />;
  else if (link.status === 0 && link.isModerator !== 1)
    // the waiting dialog has the retry button; once it is closed the page offers it instead
    body = (
      <Stack align="flex-start">
        <Text>{MSG.waitingForHost}</Text>
        {waiting ? null : (
          <Button onClick={() => void load()} loading={busy}>
            Join Again
          </Button>
        )}
      </Stack>
    );
  else if (link.provider === 'jitsi')
    body = (
      <JitsiFrame
        domain={link.domain ?? ''}
        room={link.room}
        jwt={link.jwt}
        displayName={session ? `${session.first_name} ${session.last_name}` : undefined}
        height={FRAME_HEIGHT}
        onLeft={exit}
      />
    );
  else
    body = (
      <Stack gap="sm">
        {link.isModerator === 1 && link.status === 0 && !asking ? (
          <Alert color="yellow">
            <Group justify="space-between" gap="sm">
              <Text size="sm">The training is not started: learners wait until you start it.</Text>
              <Button size="xs" onClick={() => setAsking(true)}>
                Start Training
              </Button>
            </Group>
          </Alert>
        ) : null}
        <ConferenceRoom
          slug={link.slug}
          title={link.name}
          wsUrl={link.ws_url ?? `${location.origin.replace(/^http/, 'ws')}/ws/conference`}
          iceServers={link.ice_servers}
          token={session?.token}
          onExit={exit}
        />
      </Stack>
    );

  return (
    <>
      <PageHeader title={title} />
      {body}
      {link ? <LabWatch slug={link.slug} moderator={link.isModerator === 1 && !error} /> : null}
      <Modal opened={asking} onClose={() => setAsking(false)} title="Start Training" centered>
        <Stack>
          <Text>{MSG.confirmStartTraining}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              No
            </Button>
            <Button onClick={() => void load(true)} loading={busy}>
              Yes
            </Button>
          </Group>
        </Stack>
      </Modal>
      <WaitingForHostModal
        opened={waiting}
        retryLabel="Join Again"
        onClose={() => setWaiting(false)}
        onRetry={() => void load()}
      />
    </>
  );
}
