import { type RefObject, useEffect } from 'react';
import type { RtcClientLike } from './rtc-client';
import { SpeakerAnnouncer } from './speaker-announcer';
import { usePeerAnnouncements } from './use-peer-announcements';

/** How often the peers' audio levels are read for the speaker announcement. */
const SPEAKER_POLL_MS = 500;

/**
 * What the room reads out besides chat and hands: who is speaking, from the peers' audio levels,
 * announced sparingly (speaker-announcer.ts), and who joined or left.
 */
export function useRoomAnnouncements({
  client,
  inRoom,
  peers,
  announce,
  nameOf,
}: {
  client: RefObject<RtcClientLike | null>;
  inRoom: boolean;
  peers: readonly { id: string; name: string }[];
  announce: (text: string) => void;
  nameOf: (id: string) => string;
}) {
  useEffect(() => {
    if (!inRoom) return;
    const speaker = new SpeakerAnnouncer();
    let busy = false;
    const timer = setInterval(() => {
      const c = client.current;
      if (busy || !c?.audioLevels) return;
      busy = true;
      void c
        .audioLevels()
        .then((levels) => {
          const id = speaker.sample(levels, Date.now());
          if (id) announce(`${nameOf(id)} is speaking.`);
        })
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, SPEAKER_POLL_MS);
    return () => clearInterval(timer);
  }, [client, inRoom, announce, nameOf]);

  const peerNews = usePeerAnnouncements(peers);
  useEffect(() => {
    if (peerNews) announce(peerNews);
  }, [peerNews, announce]);
}
