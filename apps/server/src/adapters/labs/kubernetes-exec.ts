import { Duplex, PassThrough, Writable } from 'node:stream';
import { Exec, type KubeConfig } from '@kubernetes/client-node';
// not in the package's index; its own module (the package has no exports map)
import { WebSocketHandler } from '@kubernetes/client-node/dist/web-socket-handler.js';
import type { LabStream } from '../../platform/ports/labs';

/** the channel protocol's stream numbers (v4/v5.channel.k8s.io): stdin and the terminal's size */
const STDIN = 0;
const RESIZE = 4;

type Socket = Awaited<ReturnType<Exec['exec']>>;

/**
 * A command in the lab's container through the API server's exec (the client's Exec, over its
 * WebSocket channel protocol) as one byte stream: reads are the command's stdout (a terminal's
 * screen, a desktop's RFB), writes go to its stdin. Both ways keep flow control: a reader that
 * stops reading pauses the WebSocket (the API server, then the lab, wait), and a write completes
 * only when the socket has taken it.
 */
export class ExecStream extends Duplex {
  private socket: Socket | null = null;
  private paused = false;
  /** handed to the client so that the exec asks for stdin; never written (writes go straight to the socket) */
  readonly stdin = new PassThrough();
  /** where the client writes what the command prints */
  readonly stdout: Writable;

  constructor() {
    super();
    this.stdout = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        if (!this.push(chunk) && this.socket) {
          this.paused = true;
          this.socket.pause();
        }
        done();
      },
      final: (done) => {
        this.push(null);
        done();
      },
    });
  }

  /** the exec's socket, once open: its end is the stream's end */
  attach(socket: Socket): void {
    this.socket = socket;
    socket.on('close', () => {
      if (!this.readableEnded) this.push(null);
      this.destroy();
    });
    socket.on('error', (e: Error) => this.destroy(e));
  }

  /** the terminal's size (channel 4, as kubectl sends it) */
  async resize(cols: number, rows: number): Promise<void> {
    const size = JSON.stringify({ Width: Math.min(500, cols), Height: Math.min(500, rows) });
    this.send(RESIZE, Buffer.from(size));
  }

  private send(channel: number, data: Buffer, done?: (e?: Error) => void) {
    const socket = this.socket;
    if (!socket || socket.readyState !== socket.OPEN) {
      done?.(new Error('The lab connection is closed.'));
      return;
    }
    socket.send(Buffer.concat([Buffer.from([channel]), data]), done);
  }

  override _read() {
    if (this.paused && this.socket) {
      this.paused = false;
      this.socket.resume();
    }
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void) {
    this.send(STDIN, chunk, (e) => done(e ?? null));
  }
  override _destroy(err: Error | null, done: (e: Error | null) => void) {
    this.socket?.close();
    done(err);
  }
}

/** Opens `command` in the lab's container; the stream ends when the command does. */
export async function openExec(
  kc: KubeConfig,
  where: { namespace: string; pod: string; container: string },
  command: string[],
  tty: boolean,
): Promise<LabStream & { stream: ExecStream }> {
  const stream = new ExecStream();
  // without a TTY, stderr comes apart: a desktop's RFB is stdout's alone, stderr is dropped
  const stderr = tty ? null : new Writable({ write: (_c, _e, done) => done() });
  // the handler's own streams (a v5 close frame ends them) are this exec's, never the process's
  const handler = new WebSocketHandler(kc, undefined, {
    stdin: stream.stdin,
    stdout: stream.stdout,
    stderr: stderr ?? new Writable({ write: (_c, _e, done) => done() }),
  });
  const exec = new Exec(kc, handler);
  const socket = await exec.exec(
    where.namespace,
    where.pod,
    where.container,
    command,
    stream.stdout,
    stderr,
    stream.stdin,
    tty,
  );
  stream.attach(socket);
  return {
    stream,
    ...(tty ? { resize: (cols: number, rows: number) => stream.resize(cols, rows) } : {}),
    close: () => stream.destroy(),
  };
}
