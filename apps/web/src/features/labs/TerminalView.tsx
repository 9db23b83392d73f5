import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useId, useRef, useState } from 'react';
import { Loading } from '../../ui/Loading';
import { focusPage, isLeaveKey, LEAVE_HINT } from './leave-keys';
import { CLOSE_REASONS, labProtocols, labSocketUrl, type RemoteViewProps } from './remote';
import { TERMINAL_OPTIONS } from './terminal-options';

/** xterm.js bound to the lab's SSH shell through our WebSocket. */
export default function TerminalView({ name, token, onClosed }: RemoteViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const hintId = useId();
  // until the shell's first bytes arrive (a few seconds while the lab boots), say what is happening
  const [waiting, setWaiting] = useState(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one connection per mount
  useEffect(() => {
    if (!host.current) return;
    const term = new Terminal(TERMINAL_OPTIONS);
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current);
    fit.fit();
    const ws = new WebSocket(
      labSocketUrl('terminal', name, `?cols=${term.cols}&rows=${term.rows}`),
      labProtocols('terminal', token),
    );
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (e) => {
      setWaiting(false);
      term.write(typeof e.data === 'string' ? e.data : new Uint8Array(e.data as ArrayBuffer));
    };
    ws.onclose = (e) => onClosed(CLOSE_REASONS[e.code] ?? null);
    const input = term.onData((data) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'data', data }));
    });
    const resize = () => {
      fit.fit();
      if (ws.readyState === WebSocket.OPEN)
        ws.send(JSON.stringify({ type: 'resize', cols: term.cols, rows: term.rows }));
    };
    window.addEventListener('resize', resize);
    // xterm keeps Tab for the shell: Shift+Escape is the way back to the page
    term.attachCustomKeyEventHandler((e) => {
      if (!isLeaveKey(e)) return true;
      term.blur();
      focusPage();
      return false;
    });
    term.focus();
    return () => {
      window.removeEventListener('resize', resize);
      input.dispose();
      ws.onclose = null;
      ws.close();
      term.dispose();
    };
  }, [name, token]);
  return (
    <>
      <p id={hintId} style={{ margin: '0 0 4px', fontSize: 12 }}>
        {LEAVE_HINT}
      </p>
      {waiting ? <Loading label="Opening the lab’s shell: this takes a few seconds…" /> : null}
      <div
        ref={host}
        data-testid="lab-terminal"
        aria-describedby={hintId}
        style={{ height: 420, width: '100%', background: '#000' }}
      />
    </>
  );
}
