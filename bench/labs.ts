/**
 * Cloud labs on the local engine (a real Xvnc desktop and an SSH login per lab on this host),
 * through our server's lab WebSockets against a direct connection to the same lab in the same run:
 * 1. terminal keystroke-to-echo latency: one key at a time, through /ws/labs/terminal (WebSocket →
 *    ssh2 in our server) and straight to the lab's sshd with ssh2 from this process (as ssh2 comes,
 *    and with Nagle's algorithm off), in alternating batches so all see the same machine load;
 * 2. VNC frame rate: a small RFB client (security None, raw encoding) asking for the whole screen
 *    (FramebufferUpdateRequest incremental=0) again and again, through /ws/labs/vnc (WebSocket →
 *    TCP in our server) and straight to the lab's Xvnc;
 * 3. concurrent terminals: N proxied sessions (10, 25, 50, 100) each typing one key a second,
 *    echo p99 and the server process's CPU and RSS, stopping at p99 > 1 s or any error.
 * The server runs in a child process (so its CPU and RSS are its own); it creates one lab, and
 * deletes it (account, processes, our sshd) when the bench ends, fails or is interrupted.
 * Needs root and the Debian packages openssh-server tigervnc-standalone-server xterm.
 *
 *   npm run bench:labs -w @trainlab/bench
 *   BENCH_LABS_PORT=3800 BENCH_LABS_SSH_PORT=3822 BENCH_KEYS=200 BENCH_STEPS=10,25,50,100 npm run bench:labs -w @trainlab/bench
 */
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientChannel, Client as SshClient } from 'ssh2';
import { linuxVm } from '../e2e/support/labs';

interface Ws {
  send(d: string | Buffer): void;
  close(): void;
  on(e: 'message', l: (raw: Buffer) => void): void;
  on(e: 'close', l: (code: number) => void): void;
  once(e: 'open', l: () => void): void;
  once(e: 'error', l: (e: Error) => void): void;
  once(e: 'close', l: (code: number) => void): void;
}
const require = createRequire(import.meta.url);
const WebSocket = require('ws') as new (url: string, protocols?: string[]) => Ws;
const Ssh = (require('ssh2') as { Client: new () => SshClient }).Client;

const PORT = Number(process.env.BENCH_LABS_PORT ?? 3800);
const SSH_PORT = Number(process.env.BENCH_LABS_SSH_PORT ?? 3822);
const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const VNC_SECONDS = Number(process.env.BENCH_VNC_SECONDS ?? 5);
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 5);
const STEPS = (process.env.BENCH_STEPS ?? '10,25,50,100').split(',').map(Number);

interface Lab {
  vm_name: string;
  username: string;
  password: string;
  sshPort: number;
  vncPort: number;
}
type FromServer = { type: 'ready'; base: string; token: string; lab: Lab } | { type: 'error'; message: string };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};
const r1 = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the server (child process)

/** the engine's SSH server for this run's labs (started on the first lab start, in DATA_DIR/labs) */
function stopSshd(dataDir: string) {
  const pidFile = path.join(dataDir, 'labs', 'sshd.pid');
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
  } catch {
    /* already gone */
  }
}

async function serve() {
  const dataDir = process.env.BENCH_LABS_DIR!;
  const { buildApp } = await import('../apps/server/src/app');
  const { benchLabTenant } = await import('./lab-tenant');
  const { closeDeps, createDeps } = await import('../apps/server/src/bootstrap');
  const { loadConfig } = await import('../apps/server/src/platform/config');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    LAB_PROVIDER: 'local',
    DATA_DIR: dataDir,
    LAB_SSH_PORT: String(SSH_PORT),
    FIELD_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  });
  const deps = await createDeps(config, process.env.DATABASE_URL ?? 'memory://');
  const app = await buildApp(deps);
  let username: string | null = null;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    if (username) await deps.labs.delete(username).catch(() => undefined);
    await app.close().catch(() => undefined);
    await closeDeps(deps).catch(() => undefined);
    stopSshd(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('message', (m: { type?: string }) => {
    if (m.type === 'cleanup') void cleanup().then(() => process.exit(0));
  });
  process.on('disconnect', () => void cleanup().then(() => process.exit(0)));
  process.on('SIGTERM', () => void cleanup().then(() => process.exit(0)));
  try {
    const problem = await deps.labs.problem();
    if (problem) throw new Error(problem);
    const { token, post } = await benchLabTenant(app, deps);
    const created = await post('gc-create-vm', linuxVm());
    const vm = (created.list as { vm_name: string; username: string; password: string }[])[0]!;
    username = vm.username;
    process.send!({ type: 'made', username });
    await post('vm-start-stop', { action: 'start', name: vm.vm_name });
    const endpoint = await deps.labs.connection(vm.username);
    if (!endpoint.ssh || !endpoint.vnc) throw new Error('the lab has no terminal or desktop');
    const address = await app.listen({ port: PORT, host: '127.0.0.1' });
    const lab: Lab = { ...vm, sshPort: endpoint.ssh.port, vncPort: endpoint.vnc.port };
    process.send!({ type: 'ready', base: address.replace(/^http/, 'ws'), token, lab } satisfies FromServer);
  } catch (err) {
    process.send!({ type: 'error', message: err instanceof Error ? err.message : String(err) } satisfies FromServer);
    await cleanup();
    process.exit(1);
  }
}

// ---------------------------------------------------------------- terminals

/** A shell, proxied or direct, with "wait until this text comes out". */
class Term {
  private buf = '';
  private waiter: { text: string; resolve: () => void } | null = null;
  closed = false;
  constructor(
    readonly write: (s: string) => void,
    readonly close: () => void,
  ) {}
  feed(chunk: Buffer) {
    this.buf += chunk.toString('latin1');
    if (this.buf.length > 65536) this.buf = this.buf.slice(-4096);
    const w = this.waiter;
    if (w) {
      const i = this.buf.indexOf(w.text);
      if (i >= 0) {
        this.buf = this.buf.slice(i + w.text.length);
        this.waiter = null;
        w.resolve();
      }
    }
  }
  clear() {
    this.buf = '';
  }
  expect(text: string, ms = 10_000) {
    return new Promise<void>((resolve, reject) => {
      const i = this.buf.indexOf(text);
      if (i >= 0) {
        this.buf = this.buf.slice(i + text.length);
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`no echo of ${JSON.stringify(text)} in ${ms} ms`));
      }, ms);
      this.waiter = {
        text,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }
  /** a prompt is there and settled: output from now on is the answer to what is typed */
  async ready() {
    const id = randomBytes(3).toString('hex');
    this.write(`stty sane; echo RE""ADY-${id}\n`);
    await this.expect(`READY-${id}`, 20_000);
    await sleep(300);
    this.clear();
  }
  /** one key, timed from write to its echo */
  async key(c: string, ms = 10_000) {
    this.clear();
    const t0 = performance.now();
    this.write(c);
    await this.expect(c, ms);
    return performance.now() - t0;
  }
  /** empties the line (Ctrl-U) so readline never wraps */
  async wipe() {
    this.write('\x15');
    await sleep(50);
    this.clear();
  }
}

function proxiedTerm(base: string, token: string, lab: Lab): Promise<Term> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base}/ws/labs/terminal/${lab.vm_name}`, ['tl-terminal', `auth.${token}`]);
    const term = new Term(
      (s) => ws.send(JSON.stringify({ type: 'data', data: s })),
      () => ws.close(),
    );
    ws.on('message', (d) => term.feed(d));
    ws.once('error', reject);
    ws.once('close', (code) => {
      term.closed = true;
      reject(new Error(`terminal socket closed (${code})`));
    });
    ws.once('open', () => resolve(term));
  });
}

/** `noDelay`: Nagle's algorithm off on the socket to sshd (ssh2 leaves it on unless asked) */
function directTerm(lab: Lab, noDelay: boolean): Promise<Term> {
  return new Promise((resolve, reject) => {
    const ssh = new Ssh();
    let channel: ClientChannel | null = null;
    const term = new Term(
      (s) => channel?.write(s),
      () => ssh.end(),
    );
    ssh.on('error', reject);
    ssh.on('ready', () => {
      if (noDelay) ssh.setNoDelay(true);
      ssh.shell({ term: 'xterm-256color', cols: 120, rows: 32 }, (err, ch) => {
        if (err) return reject(err);
        channel = ch;
        ch.on('data', (d: Buffer) => term.feed(d));
        resolve(term);
      });
    });
    ssh.connect({
      host: '127.0.0.1',
      port: lab.sshPort,
      username: lab.username,
      password: lab.password,
      readyTimeout: 20_000,
      hostVerifier: () => true,
    });
  });
}

/** KEYS keystrokes, in batches of 20 on a fresh line; answers the echo times in ms */
async function typeKeys(term: Term, count: number, into: number[]) {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < count; i++) {
    into.push(await term.key(letters[i % letters.length]!));
    if (i % 20 === 19) await term.wipe();
  }
  await term.wipe();
}

// ---------------------------------------------------------------- a small RFB client

/** Bytes in, read(n)/skip(n) out, from a TCP socket or a WebSocket alike. */
class Bytes {
  private chunks: Buffer[] = [];
  private size = 0;
  private want: { n: number; keep: boolean; resolve: (b: Buffer) => void } | null = null;
  failed: Error | null = null;
  push(b: Buffer) {
    this.chunks.push(b);
    this.size += b.length;
    this.pump();
  }
  fail(e: Error) {
    this.failed = e;
  }
  private take(n: number, keep: boolean): Buffer {
    const out: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const c = this.chunks[0]!;
      if (c.length <= left) {
        if (keep) out.push(c);
        this.chunks.shift();
        left -= c.length;
      } else {
        if (keep) out.push(c.subarray(0, left));
        this.chunks[0] = c.subarray(left);
        left = 0;
      }
    }
    this.size -= n;
    return keep ? Buffer.concat(out) : Buffer.alloc(0);
  }
  private pump() {
    const w = this.want;
    if (w && this.size >= w.n) {
      this.want = null;
      w.resolve(this.take(w.n, w.keep));
    }
  }
  read(n: number, keep = true): Promise<Buffer> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.size >= n) return Promise.resolve(this.take(n, keep));
    return new Promise((resolve) => {
      this.want = { n, keep, resolve };
    });
  }
}

/** Handshake (3.8, security None, shared), raw encoding only; answers full-screen updates per second. */
async function rfbRate(io: Bytes, send: (b: Buffer) => void, seconds: number) {
  const version = (await io.read(12)).toString('latin1');
  if (!version.startsWith('RFB ')) throw new Error(`not an RFB server: ${JSON.stringify(version)}`);
  send(Buffer.from('RFB 003.008\n'));
  const n = (await io.read(1))[0]!;
  const types = [...(await io.read(n))];
  if (!types.includes(1)) throw new Error(`security None not offered (${types.join(',')})`);
  send(Buffer.from([1]));
  if ((await io.read(4)).readUInt32BE(0) !== 0) throw new Error('security handshake refused');
  send(Buffer.from([1]));
  const init = await io.read(24);
  const width = init.readUInt16BE(0);
  const height = init.readUInt16BE(2);
  const bpp = init[4]! / 8;
  await io.read(init.readUInt32BE(20));
  send(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0]));
  const request = Buffer.alloc(10);
  request[0] = 3;
  request.writeUInt16BE(width, 6);
  request.writeUInt16BE(height, 8);
  let frames = 0;
  let bytes = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  while (performance.now() < until) {
    send(request);
    for (;;) {
      const type = (await io.read(1))[0]!;
      if (type === 0) {
        const rects = (await io.read(3)).readUInt16BE(1);
        for (let i = 0; i < rects; i++) {
          const h = await io.read(12);
          const enc = h.readInt32BE(8);
          if (enc !== 0) throw new Error(`unexpected encoding ${enc}`);
          const len = h.readUInt16BE(4) * h.readUInt16BE(6) * bpp;
          await io.read(len, false);
          bytes += len;
        }
        break;
      }
      if (type === 2) continue; // Bell
      if (type === 3) {
        const len = (await io.read(7)).readUInt32BE(3);
        await io.read(len, false);
        continue;
      }
      if (type === 1) {
        const count = (await io.read(5)).readUInt16BE(3);
        await io.read(count * 6, false);
        continue;
      }
      throw new Error(`unexpected RFB message ${type}`);
    }
    frames++;
  }
  const secs = (performance.now() - t0) / 1000;
  return { fps: frames / secs, mbps: bytes / 1048576 / secs, width, height, bpp };
}

async function vncDirect(lab: Lab, seconds: number) {
  const io = new Bytes();
  const tcp = net.connect({ host: '127.0.0.1', port: lab.vncPort });
  tcp.setNoDelay(true);
  tcp.on('data', (d) => io.push(d));
  tcp.on('error', (e) => io.fail(e));
  try {
    return await rfbRate(io, (b) => tcp.write(b), seconds);
  } finally {
    tcp.destroy();
  }
}

async function vncProxied(base: string, token: string, lab: Lab, seconds: number) {
  const io = new Bytes();
  const ws = new WebSocket(`${base}/ws/labs/vnc/${lab.vm_name}`, ['binary', `auth.${token}`]);
  ws.on('message', (d) => io.push(d));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  try {
    return await rfbRate(io, (b) => ws.send(b), seconds);
  } finally {
    ws.close();
  }
}

// ---------------------------------------------------------------- the server process's CPU and RSS

const TICKS = 100;
function cpuTicks(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}
function rssMiB(pid: number) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

// ---------------------------------------------------------------- the bench

async function bench() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hf-labs-'));
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BENCH_LABS_ROLE: 'server', BENCH_LABS_DIR: dataDir },
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let username: string | null = null;
  const open: Term[] = [];
  const cleanup = async () => {
    for (const t of open.splice(0)) t.close();
    if (child.exitCode === null && child.connected) {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'cleanup' });
      await Promise.race([exited, sleep(60_000)]);
    }
    if (child.exitCode === null) child.kill('SIGKILL');
    // whatever the server could not undo: its lab account and our sshd
    if (username && readFileSync('/etc/passwd', 'utf8').includes(`\n${username}:`)) {
      try {
        execFileSync('/usr/bin/pkill', ['-KILL', '-u', username]);
      } catch {
        /* nothing left running */
      }
      try {
        execFileSync('/usr/sbin/userdel', ['-r', username], { stdio: 'ignore' });
      } catch {
        /* already gone */
      }
    }
    stopSshd(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = () => void cleanup().then(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  process.once('SIGHUP', interrupted);
  // a closed stdout (piped into head) must not end the bench before it has cleaned up
  process.stdout.on('error', () => undefined);
  try {
    const ready = await new Promise<{ base: string; token: string; lab: Lab }>((resolve, reject) => {
      child.on('message', (m: FromServer | { type: 'made'; username: string }) => {
        if (m.type === 'made') username = m.username;
        else if (m.type === 'ready') resolve(m);
        else reject(new Error(m.message));
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    const { base, token, lab } = ready;
    const pid = child.pid!;
    console.log(
      `lab ${lab.vm_name}: account ${lab.username}, sshd 127.0.0.1:${lab.sshPort}, Xvnc 127.0.0.1:${lab.vncPort}; server pid ${pid} on ${base}`,
    );

    // 1. keystroke → echo, alternating batches
    const paths = [
      { label: 'terminal, direct ssh2 to the lab sshd (ssh2 defaults)', term: await directTerm(lab, false) },
      { label: 'terminal, direct ssh2 to the lab sshd, setNoDelay(true)', term: await directTerm(lab, true) },
      {
        label: 'terminal, through /ws/labs/terminal (WebSocket → ssh2)',
        term: await proxiedTerm(base, token, lab),
      },
    ].map((p) => ({ ...p, times: [] as number[] }));
    for (const p of paths) {
      open.push(p.term);
      await p.term.ready();
    }
    for (let done = 0; done < KEYS; done += 40) {
      for (const p of paths) await typeKeys(p.term, Math.min(40, KEYS - done), p.times);
    }
    for (const { label, times: xs } of paths) {
      console.log(
        `${label}: ${xs.length} keystrokes, echo p50 ${r1(pct(xs, 50))} ms, p99 ${r1(pct(xs, 99))} ms, max ${r1(Math.max(...xs))} ms`,
      );
    }
    for (const t of open.splice(0)) t.close();

    // 2. full-screen updates per second, alternating halves
    const half = VNC_SECONDS / 2;
    const rates = { direct: [] as number[], proxy: [] as number[], dMb: [] as number[], pMb: [] as number[] };
    let screen = '';
    let proxyTicks = 0;
    let proxyMs = 0;
    for (let round = 0; round < 2; round++) {
      const d = await vncDirect(lab, half);
      const c0 = cpuTicks(child.pid!);
      const w0 = performance.now();
      const p = await vncProxied(base, token, lab, half);
      proxyTicks += cpuTicks(child.pid!) - c0;
      proxyMs += performance.now() - w0;
      rates.direct.push(d.fps);
      rates.proxy.push(p.fps);
      rates.dMb.push(d.mbps);
      rates.pMb.push(p.mbps);
      screen = `${d.width}×${d.height}, ${d.bpp * 8} bpp raw (${r1((d.width * d.height * d.bpp) / 1048576)} MiB a frame)`;
    }
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`desktop ${screen}, ${VNC_SECONDS} s each:`);
    console.log(`vnc, direct TCP to Xvnc: ${r1(avg(rates.direct))} full updates/s (${r1(avg(rates.dMb))} MiB/s)`);
    console.log(
      `vnc, through /ws/labs/vnc (WebSocket → TCP): ${r1(avg(rates.proxy))} full updates/s (${r1(avg(rates.pMb))} MiB/s); server CPU ${Math.round((proxyTicks / TICKS / (proxyMs / 1000)) * 100)} % of one core`,
    );

    // 3. concurrent proxied terminals
    console.log(`server process at rest: RSS ${rssMiB(pid)} MiB`);
    for (const n of STEPS) {
      const o0 = performance.now();
      let openErrors = 0;
      const queue = Array.from({ length: n - open.length }, (_, i) => i);
      // a few at a time: sshd drops unauthenticated connections beyond MaxStartups (10)
      await Promise.all(
        Array.from({ length: 5 }, async () => {
          while (queue.shift() !== undefined) {
            try {
              const term = await proxiedTerm(base, token, lab);
              await term.ready();
              open.push(term);
            } catch {
              openErrors++;
            }
          }
        }),
      );
      const openMs = performance.now() - o0;
      const lat: number[] = [];
      let errors = openErrors;
      const c0 = cpuTicks(pid);
      const w0 = performance.now();
      await Promise.all(
        open.map(async (term, i) => {
          await sleep(Math.random() * 1000);
          for (let s = 0; s < STEP_SECONDS; s++) {
            const t0 = performance.now();
            try {
              lat.push(await term.key('abcdefghijklmnopqrstuvwxyz'[(i + s) % 26]!, 5000));
            } catch {
              errors++;
            }
            await sleep(Math.max(0, 1000 - (performance.now() - t0)));
          }
        }),
      );
      const cpu = ((cpuTicks(pid) - c0) / TICKS / ((performance.now() - w0) / 1000)) * 100;
      const rss = rssMiB(pid);
      await Promise.all(open.map((t) => t.wipe()));
      const p99 = pct(lat, 99);
      console.log(
        `${n} sessions (${open.length} open, ${r1(openMs / 1000)} s to open): ${lat.length} echoes, p50 ${r1(pct(lat, 50))} ms, p99 ${r1(p99)} ms, errors ${errors}; server CPU ${Math.round(cpu)} % of one core, RSS ${rss} MiB`,
      );
      if (p99 > 1000 || errors > 0) {
        console.log('stopping: p99 over 1 s or errors');
        break;
      }
    }
  } finally {
    await cleanup();
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    process.off('SIGHUP', interrupted);
  }
}

const main = process.env.BENCH_LABS_ROLE === 'server' ? serve : bench;
main().then(
  () => {
    if (process.env.BENCH_LABS_ROLE !== 'server') process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
