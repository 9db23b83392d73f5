import { useCallback, useRef, useState } from 'react';

export interface Announcement {
  id: number;
  text: string;
}

/** How many recent announcements stay in the live region (older ones have been read). */
const KEEP = 5;

/**
 * The room's spoken news (who joined, hands, chat, recording, the speaker): `announce` appends a
 * line to a polite log region, which a screen reader reads as lines are added, one after another.
 */
export function useAnnouncer() {
  const [news, setNews] = useState<Announcement[]>([]);
  const next = useRef(0);
  const announce = useCallback((text: string) => {
    next.current += 1;
    const id = next.current;
    setNews((lines) => [...lines, { id, text }].slice(-KEEP));
  }, []);
  return { news, announce };
}
