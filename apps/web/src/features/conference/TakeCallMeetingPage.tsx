import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { apiPost, errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import type { MeetingLink } from './ConferencePage';
import { ConferenceRoom, FRAME_HEIGHT } from './ConferenceRoom';
import { JitsiFrame } from './JitsiFrame';

/**
 * /take-call-meeting/{id}: a take call's own meeting room (issue 13 "Start"): the managers of its
 * training moderate, the trainers it was sent to join. Leaving goes back to the list it came from.
 */
export function TakeCallMeetingPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const [link, setLink] = useState<MeetingLink | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setLink(await apiPost('get-take-call-meeting-link', { id }));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  const exit = () => navigate(link?.isModerator === 1 ? '/take-calls' : '/trainer-take-calls');

  let body: React.ReactNode;
  if (error) body = <ErrorAlert message={error} />;
  else if (!link) body = <Loading />;
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
      <ConferenceRoom
        room="take-call"
        slug={link.slug}
        title="the take call"
        wsUrl={link.ws_url ?? `${location.origin.replace(/^http/, 'ws')}/ws/conference`}
        iceServers={link.ice_servers}
        token={session?.token}
        onExit={exit}
      />
    );

  return (
    <>
      <PageHeader title="Take call meeting" />
      {body}
    </>
  );
}
