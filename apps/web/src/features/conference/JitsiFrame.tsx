import { Alert, Box } from '@mantine/core';
import { MSG } from '@trainlab/contract';
import { useEffect, useRef, useState } from 'react';

interface JitsiApi {
  dispose: () => void;
  addListener: (event: string, fn: () => void) => void;
}
type JitsiCtor = new (domain: string, options: Record<string, unknown>) => JitsiApi;

declare global {
  interface Window {
    JitsiMeetExternalAPI?: JitsiCtor;
  }
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
    if (existing && window.JitsiMeetExternalAPI) return resolve();
    const s = existing ?? document.createElement('script');
    s.src = src;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error('not loaded'));
    if (!existing) document.body.appendChild(s);
  });
}

/** MEETING_PROVIDER=jitsi: the room on the Jitsi server through its IFrame API. */
export function JitsiFrame(props: {
  domain: string;
  room: string;
  jwt?: string;
  displayName?: string;
  height: number;
  onLeft: () => void;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const { domain, room, jwt, displayName, height, onLeft } = props;
  const leftRef = useRef(onLeft);
  leftRef.current = onLeft;

  useEffect(() => {
    let api: JitsiApi | null = null;
    let cancelled = false;
    loadScript(`https://${domain}/external_api.js`)
      .then(() => {
        if (cancelled) return;
        const Ctor = window.JitsiMeetExternalAPI;
        if (!Ctor || !holder.current) throw new Error('not loaded');
        api = new Ctor(domain, {
          roomName: room,
          jwt,
          parentNode: holder.current,
          width: '100%',
          height,
          userInfo: displayName ? { displayName } : undefined,
        });
        api.addListener('readyToClose', () => leftRef.current());
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      api?.dispose();
    };
  }, [domain, room, jwt, displayName, height]);

  if (failed)
    return (
      <Alert color="yellow" role="alert">
        {MSG.waitMeetingNotLoaded}
      </Alert>
    );
  return <Box ref={holder} maw={1100} mx="auto" h={height} data-testid="cf-jitsi" />;
}
