import { Alert, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { VM_DISPLAY } from '@trainlab/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { focusPage, isLeaveKey, LEAVE_HINT } from './leave-keys';
import { Guacamole, RDP_CLOSE_REASONS, rdpTunnel } from './rdp-tunnel';
import type { RemoteViewProps } from './remote';

type Client = InstanceType<typeof Guacamole.Client>;
const CONNECTED = 3;

/**
 * A Windows lab's desktop: guacamole-common-js through our /ws/labs/rdp/{name} (guacd behind it).
 * 1296×765 scaled to the window; keyboard on the focused screen (Shift+Escape leaves it); the
 * clipboard both ways through a text box, as browsers only let a page read the clipboard on paste.
 */
export default function RdpView({ name, token, onClosed }: RemoteViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const client = useRef<Client | null>(null);
  const hintId = useId();
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [outgoing, setOutgoing] = useState('');
  const [incoming, setIncoming] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: one connection per mount
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const tunnel = rdpTunnel(name, token);
    const guac = new Guacamole.Client(tunnel);
    client.current = guac;
    const display = guac.getDisplay();
    const screen = display.getElement();
    el.appendChild(screen);

    const scaleToFit = () => {
      const scale = Math.min(el.clientWidth / VM_DISPLAY.width, el.clientHeight / VM_DISPLAY.height);
      if (scale > 0) display.scale(scale);
    };
    const observer = new ResizeObserver(scaleToFit);
    observer.observe(el);
    display.onresize = scaleToFit;

    guac.onstatechange = (state: number) => {
      setConnected(state === CONNECTED);
      if (state === CONNECTED) scaleToFit();
    };
    // a refused or dropped socket reaches the tunnel; an error of the remote side, the client
    const failed = (status: { code: number }) => {
      const reason = RDP_CLOSE_REASONS[status.code] ?? 'The remote desktop closed.';
      setError(reason);
      onClosed(reason);
    };
    tunnel.onerror = failed;
    guac.onerror = failed;
    // what is copied on the remote desktop arrives as a text stream
    guac.onclipboard = (stream, mimetype) => {
      if (!/^text\//.test(mimetype)) return;
      const reader = new Guacamole.StringReader(stream);
      let text = '';
      reader.ontext = (part: string) => {
        text += part;
      };
      reader.onend = () => setIncoming(text);
    };

    const mouse = new Guacamole.Mouse(screen);
    mouse.onEach(['mousedown', 'mouseup', 'mousemove'], (e) => {
      el.focus();
      guac.sendMouseState((e as unknown as { state: InstanceType<typeof Guacamole.Mouse.State> }).state, true);
    });
    // caught on the way down, before the keyboard handler sends the keys to the remote machine
    const leave = (e: KeyboardEvent) => {
      if (!isLeaveKey(e)) return;
      e.preventDefault();
      e.stopPropagation();
      focusPage();
    };
    el.addEventListener('keydown', leave, true);
    const keyboard = new Guacamole.Keyboard(el);
    keyboard.onkeydown = (keysym: number) => {
      guac.sendKeyEvent(1, keysym);
      return false;
    };
    keyboard.onkeyup = (keysym: number) => guac.sendKeyEvent(0, keysym);

    guac.connect('');
    return () => {
      el.removeEventListener('keydown', leave, true);
      keyboard.onkeydown = null;
      keyboard.onkeyup = null;
      keyboard.reset();
      observer.disconnect();
      tunnel.onerror = null;
      guac.onerror = null;
      guac.onstatechange = null;
      guac.disconnect();
      client.current = null;
      screen.remove();
    };
  }, [name, token]);

  const sendClipboard = () => {
    const guac = client.current;
    if (!guac || !outgoing) return;
    const writer = new Guacamole.StringWriter(guac.createClipboardStream('text/plain'));
    writer.sendText(outgoing);
    writer.sendEnd();
  };

  return (
    <Stack gap="xs">
      <Text id={hintId} size="xs">
        {LEAVE_HINT} {connected ? '' : 'Connecting to the remote desktop…'}
      </Text>
      {error ? (
        <Alert color="red" title="Remote desktop">
          {error}
        </Alert>
      ) : null}
      <div
        ref={host}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the remote desktop takes the keyboard when focused
        tabIndex={0}
        aria-describedby={hintId}
        data-testid="lab-rdp"
        data-connected={connected ? 'true' : 'false'}
        role="application"
        aria-label="Remote desktop (Windows)"
        style={{
          width: '100%',
          aspectRatio: `${VM_DISPLAY.width} / ${VM_DISPLAY.height}`,
          maxHeight: '80vh',
          overflow: 'hidden',
          background: '#1a1b1e',
          outlineOffset: 2,
        }}
      />
      <Group align="flex-end" grow>
        <Textarea
          label="Clipboard to the remote desktop"
          description="Paste text here, then send it; paste it on the remote desktop with Ctrl+V."
          autosize
          minRows={1}
          maxRows={4}
          value={outgoing}
          onChange={(e) => setOutgoing(e.currentTarget.value)}
        />
        <Textarea label="Copied on the remote desktop" autosize minRows={1} maxRows={4} readOnly value={incoming} />
      </Group>
      <Group>
        <Button variant="light" onClick={sendClipboard} disabled={!connected || !outgoing}>
          Send to the remote clipboard
        </Button>
      </Group>
    </Stack>
  );
}
