import { notifications } from '@mantine/notifications';
import { type RefObject, useState } from 'react';
import { confirmAction } from '../../ui/confirm';
import type { RtcClientLike } from './rtc-client';

/** A participant's hand, and the host's controls over the room (mute all, end for all, recording). */
export function useModeration({
  client,
  announce,
  setServerRecording,
}: {
  client: RefObject<RtcClientLike | null>;
  announce: (text: string) => void;
  setServerRecording: (on: boolean) => void;
}) {
  const [handRaised, setHandRaised] = useState(false);

  const toggleHand = () => {
    const raised = !handRaised;
    setHandRaised(raised);
    client.current?.send({ type: 'hand', raised });
    announce(raised ? 'Your hand is raised.' : 'Your hand is lowered.');
  };

  const muteAll = (kind: 'audio' | 'video') => {
    client.current?.send({ type: 'mute-all', kind });
    notifications.show({
      message: kind === 'audio' ? "Everyone's audio is muted." : "Everyone's video is muted.",
    });
  };

  const endAll = () =>
    confirmAction({
      title: 'End meeting for all',
      message: 'Are you sure want to end the meeting for all?',
      danger: true,
      onConfirm: () => client.current?.send({ type: 'end-all' }),
    });

  /** SFU rooms: the server records; the room hears of it */
  const serverRecordingChange = (on: boolean) => {
    setServerRecording(on);
    client.current?.send({ type: 'recording', on });
    announce(on ? 'Recording started on the server.' : 'Recording stopped.');
  };

  /** mesh rooms: our browser records; the room hears of it */
  const recordingChange = (on: boolean) => {
    client.current?.send({ type: 'recording', on });
    announce(on ? 'Recording started.' : 'Recording stopped.');
  };

  return { handRaised, toggleHand, muteAll, endAll, serverRecordingChange, recordingChange };
}
