import { Button, Modal, Stack, TextInput } from '@mantine/core';
import type { meetingUrlResponse } from '@trainlab/contract';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { apiPost, errorText } from '../../api/client';
import { useApiForm } from '../../api/use-api-form';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { WaitingForHostModal } from '../../ui/WaitingForHostModal';
import { ConferenceRoom, GUEST_FRAME_HEIGHT } from './ConferenceRoom';
import { JitsiFrame } from './JitsiFrame';

type MeetingUrl = z.infer<typeof meetingUrlResponse>;

/** /public/conference/{meetingId}: a guest joins a started public training with a name (spec 02 §4). */
export function GuestConferencePage() {
  const { meetingId = '' } = useParams();
  const navigate = useNavigate();
  const [status, setStatus] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [joined, setJoined] = useState<(MeetingUrl & { first_name: string; last_name: string }) | null>(null);

  const check = useCallback(async () => {
    setChecking(true);
    try {
      const res = await apiPost('get-meeting-status', { meeting_id: meetingId });
      setStatus(res.status);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setChecking(false);
    }
  }, [meetingId]);

  useEffect(() => {
    void check();
  }, [check]);

  const { form, onSubmit, otherError, submitting } = useApiForm<
    { first_name: string; last_name: string },
    'get-meeting-url'
  >({
    path: 'get-meeting-url',
    initialValues: { first_name: '', last_name: '' },
    validate: {
      first_name: (v) => (v.trim() ? null : 'The first name field is required.'),
      last_name: (v) => (v.trim() ? null : 'The last name field is required.'),
    },
    toBody: (v) => ({ ...v, meeting_id: meetingId }),
    onSuccess: (data, v) => setJoined({ ...data, first_name: v.first_name, last_name: v.last_name }),
  });

  let body: React.ReactNode;
  if (error) body = <ErrorAlert message={error} />;
  else if (status === null) body = <Loading />;
  else if (joined && joined.provider === 'jitsi')
    body = (
      <JitsiFrame
        domain={joined.domain ?? ''}
        room={joined.room}
        jwt={joined.jwt}
        displayName={`${joined.first_name} ${joined.last_name}`}
        height={GUEST_FRAME_HEIGHT}
        onLeft={() => navigate('/')}
      />
    );
  else if (joined)
    body = (
      <ConferenceRoom
        slug={joined.slug ?? meetingId}
        title={joined.name}
        wsUrl={joined.ws_url ?? `${location.origin.replace(/^http/, 'ws')}/ws/conference`}
        iceServers={joined.ice_servers}
        ticket={joined.ticket}
        freshTicket={async () =>
          (
            await apiPost('get-meeting-url', {
              first_name: joined.first_name,
              last_name: joined.last_name,
              meeting_id: meetingId,
            })
          ).ticket ?? ''
        }
        guest
        frameHeight={GUEST_FRAME_HEIGHT}
        onExit={() => navigate('/')}
      />
    );
  else body = null;

  return (
    <>
      <PageHeader title="Conference" />
      {body}
      <WaitingForHostModal
        opened={status === 0 && !error}
        retryLabel="Try Again"
        onClose={() => navigate('/')}
        onRetry={() => void check()}
        retrying={checking}
      />
      <Modal opened={status === 1 && !joined && !error} onClose={() => navigate('/')} title="Join as a guest" centered>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <ErrorAlert message={otherError} />
            <TextInput label="First Name" required {...form.getInputProps('first_name')} />
            <TextInput label="Last Name" required {...form.getInputProps('last_name')} />
            <Button type="submit" loading={submitting}>
              Join
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
