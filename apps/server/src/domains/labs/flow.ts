/**
 * Flow control for the lab relays (terminal, desktop, RDP, the over-the-shoulder view). A browser
 * that stops reading must stop the lab, not grow our memory: what the lab sends goes to the browser
 * through `toBrowser`, which counts the bytes the WebSocket has not yet handed to the kernel and
 * pauses the lab's stream past HIGH_WATER, resuming it below LOW_WATER. A paused SSH channel stops
 * granting window, a paused engine exec or TCP socket stops reading, and the lab's writer blocks
 * (`yes` waits on its terminal). The other way, `fromBrowser` pauses the browser's socket while the
 * lab does not take its input. So each socket holds at most about HIGH_WATER plus the streams' own
 * buffers, whatever either side does.
 */

/** bytes queued towards the browser before the lab is paused */
export const HIGH_WATER = 1024 * 1024;
/** and below which it resumes */
export const LOW_WATER = 256 * 1024;

/** What a source needs: a stream that can stop and start reading. */
export interface Pausable {
  pause(): unknown;
  resume(): unknown;
}

/** The parts of a `ws` WebSocket this needs (send's callback runs once the bytes left our memory). */
export interface FlowSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: Buffer | string, done?: (err?: Error) => void): void;
  pause?(): void;
  resume?(): void;
}

export interface ToBrowser {
  (chunk: Buffer | string): void;
  /** bytes sent and not yet written out (for tests and logs) */
  readonly pending: number;
  readonly paused: boolean;
}

/** Sends the lab's output to the browser, pausing `source` while too much waits to be written. */
export function toBrowser(socket: FlowSocket, source: Pausable, high = HIGH_WATER, low = LOW_WATER): ToBrowser {
  let pending = 0;
  let paused = false;
  const send = ((chunk: Buffer | string) => {
    if (socket.readyState !== socket.OPEN) {
      // a closing or closed socket stops the lab too: were the relay's teardown late, a source that
      // keeps producing would otherwise be read and dropped in a loop that never yields
      if (socket.readyState > socket.OPEN && !paused) {
        paused = true;
        source.pause();
      }
      return;
    }
    const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    pending += size;
    socket.send(chunk, () => {
      pending -= size;
      if (paused && pending <= low) {
        paused = false;
        source.resume();
      }
    });
    if (!paused && pending > high) {
      paused = true;
      source.pause();
    }
  }) as ToBrowser;
  Object.defineProperties(send, {
    pending: { get: () => pending },
    paused: { get: () => paused },
  });
  return send;
}

/** What a sink needs: write() answers false when its buffer is full, then 'drain'. */
export interface Sink {
  write(chunk: Buffer | string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Writes the browser's input to the lab; while the lab does not take it, the browser's socket stops
 * being read (TCP then holds the browser back).
 */
export function fromBrowser(socket: FlowSocket, sink: Sink) {
  let waiting = false;
  return (chunk: Buffer | string) => {
    if (sink.write(chunk) || waiting || !socket.pause) return;
    waiting = true;
    socket.pause();
    sink.once('drain', () => {
      waiting = false;
      socket.resume?.();
    });
  };
}
