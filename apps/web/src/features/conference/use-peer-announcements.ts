import { useEffect, useRef, useState } from 'react';

/**
 * What a screen reader should hear about the room, in words: who joined and who left. The text goes
 * into a polite live region (the room renders it); tiles and lists change silently otherwise.
 */
export function usePeerAnnouncements(peers: readonly { id: string; name: string }[]): string {
  const known = useRef<Map<string, string> | null>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    const now = new Map(peers.map((p) => [p.id, p.name]));
    const before = known.current;
    known.current = now;
    if (!before) return; // the room as found on joining is read from the participants list
    const joined = [...now].filter(([id]) => !before.has(id)).map(([, name]) => `${name} joined.`);
    const left = [...before].filter(([id]) => !now.has(id)).map(([, name]) => `${name} left.`);
    const said = [...joined, ...left].join(' ');
    if (said) setText(said);
  }, [peers]);
  return text;
}
