import RFB from '@novnc/novnc';
import { VM_DISPLAY } from '@trainlab/contract';
import { useEffect, useRef, useState } from 'react';
import { labProtocols } from './remote';

export type WatchState = 'connecting' | 'connected' | 'closed';

/** A socket address on this server from the view-only path the listing gave. */
const viewUrl = (path: string) =>
  `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${path}`;

/**
 * One learner's lab desktop, view-only (the server drops a watcher's input as well), scaled to
 * its box. Keys and clicks stay on the page: the box never takes focus.
 */
export function WatchDesktop({
  path,
  token,
  label,
  onState,
}: {
  path: string;
  token: string;
  label: string;
  onState?: (state: WatchState) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<WatchState>('connecting');
  // biome-ignore lint/correctness/useExhaustiveDependencies: one connection per address
  useEffect(() => {
    if (!host.current) return;
    setState('connecting');
    const rfb = new RFB(host.current, viewUrl(path), { wsProtocols: labProtocols('vnc', token), shared: true });
    rfb.viewOnly = true;
    rfb.scaleViewport = true;
    rfb.resizeSession = false;
    rfb.focusOnClick = false;
    rfb.background = '#1a1b1e';
    const connected = () => {
      setState('connected');
      onState?.('connected');
    };
    const closed = () => {
      setState('closed');
      onState?.('closed');
    };
    rfb.addEventListener('connect', connected);
    rfb.addEventListener('disconnect', closed);
    return () => {
      rfb.removeEventListener('connect', connected);
      rfb.removeEventListener('disconnect', closed);
      rfb.disconnect();
    };
  }, [path, token]);
  return (
    <div
      ref={host}
      role="img"
      aria-label={label}
      aria-busy={state === 'connecting'}
      data-state={state}
      data-testid="lab-watch-desktop"
      style={{
        width: '100%',
        aspectRatio: `${VM_DISPLAY.width} / ${VM_DISPLAY.height}`,
        background: '#1a1b1e',
        overflow: 'hidden',
        pointerEvents: 'none',
      }}
    />
  );
}
