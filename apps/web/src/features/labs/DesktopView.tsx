import RFB from '@novnc/novnc';
import { VM_DISPLAY } from '@trainlab/contract';
import { useEffect, useId, useRef } from 'react';
import { focusPage, isLeaveKey, LEAVE_HINT } from './leave-keys';
import { labProtocols, labSocketUrl } from './remote';

/** noVNC bound to the lab's desktop through our WebSocket proxy; 1296×765 scaled to the window. */
export default function DesktopView({ name, token, onClosed }: { name: string; token: string; onClosed: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const hintId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one connection per mount
  useEffect(() => {
    if (!host.current) return;
    const rfb = new RFB(host.current, labSocketUrl('vnc', name), {
      wsProtocols: labProtocols('vnc', token),
      shared: true,
    });
    rfb.scaleViewport = true;
    rfb.resizeSession = false;
    rfb.focusOnClick = true;
    rfb.background = '#1a1b1e';
    const closed = () => onClosed();
    rfb.addEventListener('disconnect', closed);
    // caught on the way down, before noVNC sends the keys to the remote machine
    const leave = (e: KeyboardEvent) => {
      if (!isLeaveKey(e)) return;
      e.preventDefault();
      e.stopPropagation();
      focusPage();
    };
    const el = host.current;
    el.addEventListener('keydown', leave, true);
    return () => {
      el.removeEventListener('keydown', leave, true);
      rfb.removeEventListener('disconnect', closed);
      rfb.disconnect();
    };
  }, [name, token]);
  return (
    <>
      <p id={hintId} style={{ margin: '0 0 4px', fontSize: 12 }}>
        {LEAVE_HINT}
      </p>
      <div
        ref={host}
        aria-describedby={hintId}
        data-testid="lab-desktop"
        role="application"
        aria-label="Remote desktop"
        style={{
          width: '100%',
          aspectRatio: `${VM_DISPLAY.width} / ${VM_DISPLAY.height}`,
          // the whole remote screen in view under the page's header and tabs (noVNC scales to this box)
          maxHeight: 'calc(100dvh - 260px)',
          minHeight: 240,
          marginInline: 'auto',
          background: '#1a1b1e',
        }}
      />
    </>
  );
}
