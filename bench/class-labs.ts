/**
 * The class bench's lab clients: a learner's terminal through /ws/labs/terminal (retried until the
 * lab answers an `echo`), and a trainer's thumbnail of a lab desktop through the view-only
 * /ws/labs/vnc/{name}?view={slug} — a small RFB client (security None, Hextile or raw) that times the
 * first full picture and then asks for incremental updates once a second, as a thumbnail refreshes.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { sleep } from './class-api';

interface Ws {
  send(d: string | Buffer): void;
  close(): void;
  readyState: number;
  on(e: 'message', l: (raw: Buffer) => void): void;
  on(e: 'close', l: (code: number) => void): void;
  on(e: 'error', l: (e: Error) => void): void;
  once(e: 'open', l: () => void): void;
  once(e: 'error', l: (e: Error) => void): void;
  once(e: 'close', l: (code: number) => void): void;
}
export const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, protocols?: string[]) => Ws;

/** One attempt: open the terminal, type an echo, wait for its answer. Rejects when the socket closes first. */
function echoOnce(wsBase: string, token: string, name: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}/ws/labs/terminal/${name}`, ['tl-terminal', `auth.${token}`]);
    const mark = `ok${randomBytes(4).toString('hex')}`;
    let out = '';
    let ticker: NodeJS.Timeout | null = null;
    const timer = setTimeout(() => finish(new Error('no echo in time')), timeoutMs);
    const finish = (err?: Error) => {
      clearTimeout(timer);
      if (ticker) clearInterval(ticker);
      ws.close();
      if (err) reject(err);
      else resolve();
    };
    ws.on('message', (raw) => {
      out += raw.toString('latin1');
      if (out.includes(mark)) finish();
    });
    ws.on('error', (e) => finish(e));
    ws.on('close', (code) => finish(new Error(`closed ${code}`)));
    ws.once('open', () => {
      // the typed line holds the mark split in two; only the shell's answer holds it whole. Typed
      // again every 2 s: the first keys may reach a shell that is still starting.
      const type = () =>
        ws.send(JSON.stringify({ type: 'data', data: `echo ${mark.slice(0, 3)}""${mark.slice(3)}\n` }));
      type();
      ticker = setInterval(type, 2000);
    });
  });
}

/** Tries every second until the lab echoes or `deadline` (performance.now()) passes; answers when it echoed. */
export async function firstEcho(wsBase: string, token: string, name: string, deadline: number) {
  let last = '';
  while (performance.now() < deadline) {
    try {
      await echoOnce(wsBase, token, name, Math.max(1000, Math.min(30_000, deadline - performance.now())));
      return { at: performance.now(), error: null };
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
      await sleep(1000);
    }
  }
  return { at: null, error: last || 'deadline passed' };
}

/** Bytes in, read(n) out. */
class Bytes {
  private chunks: Buffer[] = [];
  private size = 0;
  private want: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  private failed: Error | null = null;
  total = 0;
  push(b: Buffer) {
    this.chunks.push(b);
    this.size += b.length;
    this.total += b.length;
    const w = this.want;
    if (w && this.size >= w.n) {
      this.want = null;
      w.resolve(this.take(w.n));
    }
  }
  fail(e: Error) {
    this.failed = e;
    this.want?.reject(e);
    this.want = null;
  }
  private take(n: number): Buffer {
    let out: Buffer;
    const head = this.chunks[0]!;
    if (head.length >= n) {
      // the common case (a few header bytes): no copy
      out = head.subarray(0, n);
      if (head.length === n) this.chunks.shift();
      else this.chunks[0] = head.subarray(n);
    } else {
      const parts: Buffer[] = [];
      let left = n;
      while (left > 0) {
        const c = this.chunks[0]!;
        if (c.length <= left) {
          parts.push(c);
          this.chunks.shift();
          left -= c.length;
        } else {
          parts.push(c.subarray(0, left));
          this.chunks[0] = c.subarray(left);
          left = 0;
        }
      }
      out = Buffer.concat(parts);
    }
    this.size -= n;
    return out;
  }
  read(n: number): Promise<Buffer> {
    if (this.size >= n) return Promise.resolve(this.take(n));
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.want = { n, resolve, reject };
    });
  }
}

/** skips one Hextile rectangle (RFC 6143 §7.7.4): 16×16 tiles, each raw or a background and subrects */
async function hextile(io: Bytes, width: number, height: number, bpp: number) {
  for (let y = 0; y < height; y += 16) {
    for (let x = 0; x < width; x += 16) {
      const tw = Math.min(16, width - x);
      const th = Math.min(16, height - y);
      const sub = (await io.read(1))[0]!;
      if (sub & 1) {
        await io.read(tw * th * bpp);
        continue;
      }
      let skip = (sub & 2 ? bpp : 0) + (sub & 4 ? bpp : 0);
      if (skip) await io.read(skip);
      if (sub & 8) {
        const n = (await io.read(1))[0]!;
        skip = n * (sub & 16 ? bpp + 2 : 2);
        if (skip) await io.read(skip);
      }
    }
  }
}

export interface Thumbnail {
  /** ms from opening the socket to the whole first picture */
  firstMs: number;
  /** bytes received so far */
  bytes: () => number;
  close: () => void;
}

/** Opens a view-only desktop and resolves once the first full picture arrived; then refreshes once a second. */
export async function thumbnail(wsBase: string, token: string, viewPath: string): Promise<Thumbnail> {
  const t0 = performance.now();
  const io = new Bytes();
  const ws = new WebSocket(`${wsBase}${viewPath}`, ['binary', `auth.${token}`]);
  ws.on('message', (d) => io.push(d));
  ws.on('close', (code) => io.fail(new Error(`closed ${code}`)));
  ws.on('error', (e) => io.fail(e));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const version = (await io.read(12)).toString('latin1');
  if (!version.startsWith('RFB ')) throw new Error(`not RFB: ${JSON.stringify(version)}`);
  ws.send(Buffer.from('RFB 003.008\n'));
  const types = [...(await io.read((await io.read(1))[0]!))];
  if (!types.includes(1)) throw new Error(`security None not offered (${types.join(',')})`);
  ws.send(Buffer.from([1]));
  if ((await io.read(4)).readUInt32BE(0) !== 0) throw new Error('security refused');
  ws.send(Buffer.from([1])); // shared
  const init = await io.read(24);
  const width = init.readUInt16BE(0);
  const height = init.readUInt16BE(2);
  const bpp = init[4]! / 8;
  await io.read(init.readUInt32BE(20));
  // SetEncodings: Hextile, then raw. noVNC would ask for Tight first (smaller still): Hextile needs
  // no zlib and keeps an idle desktop's picture small, where raw would send every pixel
  ws.send(Buffer.from([2, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0]));
  const request = (incremental: number) => {
    const b = Buffer.alloc(10);
    b[0] = 3;
    b[1] = incremental;
    b.writeUInt16BE(width, 6);
    b.writeUInt16BE(height, 8);
    return b;
  };
  /** reads one FramebufferUpdate (skipping bells, cut text and colour maps) */
  const update = async () => {
    for (;;) {
      const type = (await io.read(1))[0]!;
      if (type === 0) {
        const rects = (await io.read(3)).readUInt16BE(1);
        for (let i = 0; i < rects; i++) {
          const h = await io.read(12);
          const [w, hgt, enc] = [h.readUInt16BE(4), h.readUInt16BE(6), h.readInt32BE(8)];
          if (enc === 0) await io.read(w * hgt * bpp);
          else if (enc === 5) await hextile(io, w, hgt, bpp);
          else throw new Error(`unexpected encoding ${enc}`);
        }
        return;
      }
      if (type === 2) continue;
      if (type === 3) await io.read((await io.read(7)).readUInt32BE(3));
      else if (type === 1) await io.read((await io.read(5)).readUInt16BE(3) * 6);
      else throw new Error(`unexpected RFB message ${type}`);
    }
  };
  ws.send(request(0));
  await update();
  const firstMs = performance.now() - t0;
  let open = true;
  void (async () => {
    while (open) {
      await sleep(1000);
      if (!open) break;
      ws.send(request(1));
      await update().catch(() => {
        open = false;
      });
    }
  })();
  return {
    firstMs,
    bytes: () => io.total,
    close: () => {
      open = false;
      ws.close();
    },
  };
}
