import { notifications } from '@mantine/notifications';
import { type RefObject, useEffect, useState } from 'react';
import type { RtcClientLike } from './rtc-client';

/** Our microphone, camera and screen share in the room: what the toolbar's buttons say. */
export function useMediaControls(client: RefObject<RtcClientLike | null>) {
  const [audioOn, setAudioOn] = useState(true);
  const [videoOn, setVideoOn] = useState(true);
  const [sharing, setSharing] = useState<MediaStream | null>(null);

  const toggleShare = async () => {
    if (sharing) {
      for (const t of sharing.getTracks()) t.stop();
      setSharing(null);
      await client.current?.replaceVideoTrack(null);
      return;
    }
    try {
      const screen = await navigator.mediaDevices.getDisplayMedia({ video: true });
      const track = screen.getVideoTracks()[0] ?? null;
      if (track)
        track.onended = () => {
          setSharing(null);
          void client.current?.replaceVideoTrack(null);
        };
      setSharing(screen);
      await client.current?.replaceVideoTrack(track);
    } catch {
      notifications.show({ color: 'red', message: 'The screen could not be shared.' });
    }
  };

  return {
    audioOn,
    videoOn,
    sharing,
    toggleAudio: () => setAudioOn((v) => !v),
    toggleVideo: () => setVideoOn((v) => !v),
    toggleShare,
    /** the host muted us: the button follows */
    mutedByHost: (kind: 'audio' | 'video') => {
      if (kind === 'audio') setAudioOn(false);
      else setVideoOn(false);
    },
    /** leaving: the shared screen is let go */
    stopSharing: () => {
      for (const t of sharing?.getTracks() ?? []) t.stop();
    },
  };
}

/**
 * Our stream to the peers: a stream opened after joining, or another camera or microphone, gets
 * its new tracks sent; and our own tracks stay as the buttons say (also after a device change).
 */
export function useSendLocalTracks(
  client: RefObject<RtcClientLike | null>,
  stream: MediaStream | null,
  audioOn: boolean,
  videoOn: boolean,
) {
  useEffect(() => {
    client.current?.setLocalStream(stream);
  }, [client, stream]);

  useEffect(() => {
    for (const t of stream?.getAudioTracks() ?? []) t.enabled = audioOn;
    for (const t of stream?.getVideoTracks() ?? []) t.enabled = videoOn;
  }, [stream, audioOn, videoOn]);
}
