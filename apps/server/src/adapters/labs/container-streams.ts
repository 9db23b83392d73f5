import { Transform, type TransformCallback } from 'node:stream';

/**
 * The streams of the container engine's exec API, held to what the browser reads and what the lab
 * may keep.
 */

/**
 * Without a TTY the engine frames stdout and stderr (8-byte headers: stream, 0, 0, 0, length). This
 * answers stdout's bytes as a stream that respects backpressure, unlike dockerode's demuxStream, which
 * writes on whatever the reader does and so buffers a desktop's updates without limit when the browser
 * stops reading. Piped (`raw.pipe(new StdoutFrames())`), a reader that stops stops the engine's socket.
 */
export class StdoutFrames extends Transform {
  private pending: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    let b = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (b.length >= 8) {
      const length = b.readUInt32BE(4);
      if (b.length < 8 + length) break;
      if (b[0] === 1) this.push(b.subarray(8, 8 + length));
      b = b.subarray(8 + length);
    }
    this.pending = b;
    done();
  }
}

/** A session name safe in a command line and for tmux (`u42`), else the shared `lab`. */
const sessionName = (session?: string) => (session && /^[a-z0-9_-]{1,32}$/i.test(session) ? session : 'lab');

/**
 * The terminal's command: the person's own tmux session, created or attached (`-A`), so a reload of
 * the page gets the same shell and what runs in it back; a plain login shell on an image without tmux.
 * The status line is off: the browser's terminal looks like a plain shell.
 */
export function shellCommand(session?: string): string[] {
  return [
    'sh',
    '-c',
    'if command -v tmux >/dev/null 2>&1; then exec tmux -u new-session -A -s "$1" \\; set-option status off; fi; exec bash -l',
    'trainlab-shell',
    sessionName(session),
  ];
}

/** the variable that marks the processes one terminal socket opened (its exec's own process) */
export const SHELL_MARK = 'TRAINLAB_SHELL';

/**
 * The engine does not end an exec's process when its stream closes: each closed terminal would leave
 * its client (or its login shell) behind, counted against the lab's process limit. Run in the lab, this
 * hangs up the exec's own process (its parent is outside the lab: PPid 0) that carries the socket's
 * mark; the tmux server and the shell in it stay for the next attach (they inherit the mark, but their
 * parent is in the lab).
 */
export function hangUpCommand(mark: string): string[] {
  return [
    'sh',
    '-c',
    `for p in /proc/[0-9]*; do
  grep -q '^PPid:[[:space:]]*0$' "$p/status" 2>/dev/null || continue
  tr '\\0' '\\n' < "$p/environ" 2>/dev/null | grep -qx "${SHELL_MARK}=$1" && kill -HUP "\${p#/proc/}"
done; exit 0`,
    'trainlab-hangup',
    mark,
  ];
}
