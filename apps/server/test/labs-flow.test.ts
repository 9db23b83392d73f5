import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { StdoutFrames } from '../src/adapters/labs/container-streams';
import { fromBrowser, HIGH_WATER, LOW_WATER, toBrowser } from '../src/domains/labs/flow';

/**
 * The lab relays' flow control (flow.ts) between two real `ws` sockets over TCP: a browser that stops
 * reading pauses the lab's stream, with at most HIGH_WATER queued in the server; reading again resumes
 * it. And a lab that stops taking input stops the server reading the browser.
 */

const require = createRequire(import.meta.url);
const { WebSocketServer, WebSocket } = require('ws') as {
  WebSocketServer: new (o: { port: number; host: string }) => WsServer;
  WebSocket: new (url: string) => Ws;
};
interface Ws {
  readyState: number;
  OPEN: number;
  _socket: { pause(): void; resume(): void; isPaused(): boolean };
  send(d: Buffer | string, cb?: (e?: Error) => void): void;
  pause(): void;
  resume(): void;
  close(): void;
  terminate(): void;
  on(e: 'message', cb: (d: Buffer) => void): void;
  once(e: 'open', cb: () => void): void;
}
interface WsServer {
  address(): AddressInfo;
  once(e: 'connection', cb: (ws: Ws) => void): void;
  once(e: 'listening', cb: () => void): void;
  close(): void;
  clients: Set<Ws>;
}

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

/** a server and one client connected to it */
async function pair() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', r));
  open.push({
    close: () => {
      for (const c of server.clients) c.terminate();
      server.close();
    },
  });
  const accepted = new Promise<Ws>((r) => server.once('connection', r));
  const client = new WebSocket(`ws://127.0.0.1:${server.address().port}`);
  await new Promise<void>((r) => client.once('open', r));
  return { server: await accepted, client };
}

/** an endless lab: 64 KB chunks as fast as they are read */
const endless = () =>
  new Readable({
    read() {
      this.push(Buffer.alloc(64 * 1024, 0x79));
    },
  });

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `ok()` holds (at most 20 s): buffers fill at the machine's pace, not a fixed one. */
async function until(ok: () => boolean) {
  for (const end = Date.now() + 20_000; !ok() && Date.now() < end; ) await wait(50);
}

describe('lab relay flow control', () => {
  it('a browser that stops reading pauses the lab; at most HIGH_WATER waits in the server; reading resumes it', async () => {
    const { server, client } = await pair();
    let received = 0;
    client.on('message', (d) => {
      received += d.length;
    });
    const lab = endless();
    // destroyed whatever happens: an endless source left flowing after a failed check would keep
    // the test's process busy for good (it once held a whole suite's run for half an hour)
    open.push({ close: () => lab.destroy() });
    const send = toBrowser(server, lab);
    lab.on('data', send);
    await until(() => received > 0);
    expect(received).toBeGreaterThan(0);
    client._socket.pause();
    // the kernel's buffers fill, then ours up to the bound, then the lab stops
    await until(() => send.paused);
    // and the kernel has taken what it takes: what waits in the server stays the same for 300 ms
    for (let last = -1, end = Date.now() + 20_000; send.pending !== last && Date.now() < end; ) {
      last = send.pending;
      await wait(300);
    }
    expect(send.paused).toBe(true);
    expect(lab.isPaused()).toBe(true);
    // paused between the two marks: past HIGH_WATER when it paused, not yet down to LOW_WATER (how
    // much the kernel took after the pause depends on its buffers, which grow as it likes)
    expect(send.pending).toBeGreaterThan(LOW_WATER);
    expect(send.pending).toBeLessThanOrEqual(HIGH_WATER + 64 * 1024);
    const stalled = received;
    await wait(500);
    expect(send.pending).toBeLessThanOrEqual(HIGH_WATER + 64 * 1024);
    client._socket.resume();
    await until(() => received > stalled + HIGH_WATER);
    expect(received).toBeGreaterThan(stalled + HIGH_WATER);
  });

  it('the bounds: paused only past HIGH_WATER, resumed only at LOW_WATER or below', async () => {
    const { server, client } = await pair();
    client._socket.pause();
    let pauses = 0;
    let resumes = 0;
    const source = { pause: () => pauses++, resume: () => resumes++ };
    const send = toBrowser(server, source, 1000, 400);
    // exactly the limit: not paused (the kernel takes these at once, so the sends are counted out later)
    send(Buffer.alloc(1000));
    expect(send.paused).toBe(false);
    expect(pauses).toBe(0);
    // one byte past it: paused, once
    send(Buffer.alloc(1));
    expect(send.paused).toBe(true);
    send(Buffer.alloc(10));
    expect(pauses).toBe(1);
    // the kernel takes 1011 bytes: everything is written out, the source resumes once
    await wait(200);
    expect(send.pending).toBe(0);
    expect(resumes).toBe(1);
    expect(LOW_WATER).toBeLessThan(HIGH_WATER);
  });

  it('a closed socket takes nothing more', async () => {
    const { server, client } = await pair();
    let pauses = 0;
    const source = { pause: () => pauses++, resume: () => undefined };
    const send = toBrowser(server, source);
    client.close();
    await until(() => server.readyState !== server.OPEN);
    send(Buffer.alloc(10));
    expect(send.pending).toBe(0);
    // and the lab is stopped rather than read and dropped
    expect(send.paused).toBe(true);
    expect(pauses).toBe(1);
    send(Buffer.alloc(10));
    expect(pauses).toBe(1);
  });

  it('an endless lab whose browser has gone stops flowing: the process stays free', async () => {
    const { server, client } = await pair();
    // produces on the next turn of the loop, so that without the pause this test fails rather than hangs
    const lab = new Readable({
      read() {
        setImmediate(() => this.push(Buffer.alloc(64 * 1024, 0x79)));
      },
    });
    open.push({ close: () => lab.destroy() });
    let read = 0;
    const send = toBrowser(server, lab);
    lab.on('data', (d: Buffer) => {
      read += d.length;
      send(d);
    });
    await wait(100);
    client.terminate();
    await until(() => server.readyState !== server.OPEN);
    await until(() => lab.isPaused());
    expect(lab.isPaused()).toBe(true);
    const then = read;
    await wait(200);
    expect(read - then).toBeLessThanOrEqual(64 * 1024);
  });

  it('a lab that does not take input stops the server reading the browser, until it drains', async () => {
    const { server, client } = await pair();
    let release: (() => void) | null = null;
    let taken = 0;
    const lab = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, done) {
        taken += chunk.length;
        // the lab holds the first write until released
        if (!release) release = () => done();
        else done();
      },
    });
    const toLab = fromBrowser(server, lab);
    server.on('message', (d) => toLab(d));
    client.send(Buffer.alloc(100));
    await wait(200);
    expect(server._socket.isPaused()).toBe(true);
    client.send(Buffer.alloc(100));
    await wait(200);
    expect(taken).toBe(100);
    release!();
    await wait(200);
    expect(server._socket.isPaused()).toBe(false);
    expect(taken).toBe(200);
  });
});

describe("the desktop's exec stream", () => {
  const frame = (type: number, payload: string) => {
    const head = Buffer.alloc(8);
    head[0] = type;
    head.writeUInt32BE(Buffer.byteLength(payload), 4);
    return Buffer.concat([head, Buffer.from(payload)]);
  };

  it("answers stdout's bytes only, whatever the chunks' boundaries", async () => {
    const frames = new StdoutFrames();
    const out: Buffer[] = [];
    frames.on('data', (d: Buffer) => out.push(d));
    const all = Buffer.concat([frame(1, 'RFB 003.008\n'), frame(2, 'a warning'), frame(1, 'pixels'), frame(1, '')]);
    // one byte at a time: headers and payloads split everywhere
    for (let i = 0; i < all.length; i++) frames.write(all.subarray(i, i + 1));
    frames.end();
    await new Promise((r) => frames.on('end', r));
    expect(Buffer.concat(out).toString()).toBe('RFB 003.008\npixels');
  });

  it('a reader that stops reading stops the engine socket (backpressure reaches the source)', async () => {
    const frames = new StdoutFrames();
    const big = frame(1, 'x'.repeat(64 * 1024));
    let written = 0;
    const source = new Readable({
      read() {
        written++;
        this.push(big);
      },
    });
    source.pipe(frames);
    await wait(200);
    // nobody reads `frames`: the source was asked for a bounded number of chunks, then paused
    const asked = written;
    expect(source.isPaused() || source.readableFlowing === false).toBe(true);
    await wait(200);
    expect(written).toBe(asked);
    expect(frames.readableLength).toBeLessThan(1024 * 1024);
    source.destroy();
  });
});
