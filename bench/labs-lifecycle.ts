/**
 * Lab lifecycle through the product, per engine, in one run (the container engine beside the old
 * host-account engine, `local`, as the baseline):
 * 1. create → first terminal echo: /gc-create-vm, /vm-start-stop start, /ws/labs/terminal, `echo`
 *    until its output comes back (BENCH_LABS labs, p50/p95);
 * 2. stop → start → first echo, for the same labs;
 * 3. memory per idle lab (the container's cgroup usage without page cache; for `local`, the resident
 *    memory of the lab account's processes) and CPU per idle lab over BENCH_IDLE_SECONDS;
 * 4. how many idle labs this host holds: MemAvailable ÷ memory per lab, and cores ÷ CPU per lab
 *    (estimated from 1–3, not by starting that many).
 * Every lab is deleted at the end. Needs root; the container engine needs Docker and the lab image
 * (npm run lab-image); `local` needs openssh-server tigervnc-standalone-server xterm.
 *
 *   npm run bench:labs-lifecycle -w @trainlab/bench
 *   BENCH_LABS=10 BENCH_ENGINES=container,local BENCH_IDLE_SECONDS=10 npm run bench:labs-lifecycle -w @trainlab/bench
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { linuxVm } from '../e2e/support/labs';

interface Ws {
  send(d: string): void;
  close(): void;
  on(e: 'message', l: (raw: Buffer) => void): void;
  once(e: 'open', l: () => void): void;
  once(e: 'error', l: (e: Error) => void): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string, protocols?: string[]) => Ws;

const LABS = Number(process.env.BENCH_LABS ?? 10);
const ENGINES = (process.env.BENCH_ENGINES ?? 'container,local').split(',') as ('container' | 'local')[];
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const r0 = (n: number) => Math.round(n);
const r1 = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One terminal socket: send `echo <mark>` until the mark comes back (the shell may still be starting). */
async function firstEcho(base: string, token: string, name: string): Promise<void> {
  const ws = new WebSocket(`${base}/ws/labs/terminal/${name}`, ['tl-terminal', `auth.${token}`]);
  let out = '';
  ws.on('message', (raw) => {
    out += raw.toString('latin1');
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const mark = `ok${randomBytes(4).toString('hex')}`;
  // the typed line holds the mark split in two; only the shell's answer holds it whole
  ws.send(JSON.stringify({ type: 'data', data: `echo ${mark.slice(0, 3)}""${mark.slice(3)}\n` }));
  const until = Date.now() + 60_000;
  while (!out.includes(mark)) {
    if (Date.now() > until) throw new Error(`no echo from ${name}`);
    await sleep(5);
  }
  ws.close();
}

/** CPU seconds a process set used so far, from /proc (clock ticks of 1/100 s). */
function cpuSecondsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      /* gone */
    }
  }
  return ticks / 100;
}
const rssMbOf = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return sum + (m ? Number(m[1]) / 1024 : 0);
    } catch {
      return sum;
    }
  }, 0);

async function benchEngine(engineName: 'container' | 'local') {
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-labs-${engineName}-`));
  const { buildApp } = await import('../apps/server/src/app');
  const { benchLabTenant } = await import('./lab-tenant');
  const { closeDeps, createDeps } = await import('../apps/server/src/bootstrap');
  const { loadConfig } = await import('../apps/server/src/platform/config');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    LAB_PROVIDER: engineName,
    DATA_DIR: dataDir,
    LAB_SSH_PORT: String(24000 + Math.floor(Math.random() * 1000)),
    FIELD_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  });
  const deps = await createDeps(config, 'memory://');
  const app = await buildApp(deps);
  const engine = deps.labs;
  const refs: string[] = [];
  try {
    const problem = await engine.problem();
    if (problem) throw new Error(problem);
    const { token, post } = await benchLabTenant(app, deps);
    const base = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');

    const create: number[] = [];
    const names: string[] = [];
    for (let i = 0; i < LABS; i++) {
      const t0 = performance.now();
      const made = await post('gc-create-vm', linuxVm());
      const vm = (made.list as { vm_name: string; username: string }[])[0]!;
      names.push(vm.vm_name);
      refs.push(engineName === 'local' ? vm.username : vm.vm_name);
      await post('vm-start-stop', { action: 'start', name: vm.vm_name });
      await firstEcho(base, token, vm.vm_name);
      create.push(performance.now() - t0);
    }
    const restart: number[] = [];
    for (const name of names) {
      const t0 = performance.now();
      await post('vm-start-stop', { action: 'stop', name });
      await post('vm-start-stop', { action: 'start', name });
      await firstEcho(base, token, name);
      restart.push(performance.now() - t0);
    }
    // idle: nothing connected, desktops drawn, shells closed
    await sleep(3000);
    const perLabMb: number[] = [];
    const pidsOf: number[][] = [];
    for (const ref of refs) {
      if (engineName === 'container') {
        const id = execFileSync('docker', ['ps', '-q', '--filter', `label=org.trainlab.lab=${ref}`], {
          encoding: 'utf8',
        }).trim();
        const stats = JSON.parse(
          execFileSync('docker', ['stats', '--no-stream', '--format', '{{json .}}', id], { encoding: 'utf8' }),
        );
        const top = execFileSync('docker', ['top', id, '-eo', 'pid'], { encoding: 'utf8' })
          .split('\n')
          .slice(1)
          .map(Number)
          .filter(Boolean);
        pidsOf.push(top);
        // "12.3MiB / 1GiB": the cgroup's usage without page cache
        const used = /([\d.]+)([KMG]i?B)/.exec(String(stats.MemUsage))!;
        const unit = used[2]!.startsWith('G') ? 1024 : used[2]!.startsWith('K') ? 1 / 1024 : 1;
        perLabMb.push(Number(used[1]) * unit);
      } else {
        const pids = execFileSync('pgrep', ['-u', ref], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
        pidsOf.push(pids);
        perLabMb.push(rssMbOf(pids));
      }
    }
    const allPids = pidsOf.flat();
    const cpu0 = cpuSecondsOf(allPids);
    await sleep(IDLE_SECONDS * 1000);
    const cpuPerLab = (cpuSecondsOf(allPids) - cpu0) / IDLE_SECONDS / refs.length;
    const available = Number(/MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) / 1024;
    const memLab = mean(perLabMb);
    const byMemory = Math.floor(available / memLab);
    const byCpu = cpuPerLab > 0 ? Math.floor(cpus().length / cpuPerLab) : Number.POSITIVE_INFINITY;
    return {
      engine: engineName,
      'create→echo p50 ms': r0(pct(create, 50)),
      'create→echo p95 ms': r0(pct(create, 95)),
      'stop→start→echo p50 ms': r0(pct(restart, 50)),
      'stop→start→echo p95 ms': r0(pct(restart, 95)),
      'MB per idle lab': r1(memLab),
      'CPU % per idle lab': r1(cpuPerLab * 100),
      'idle labs by memory': byMemory,
      'idle labs by CPU': Number.isFinite(byCpu) ? byCpu : 'unbounded (0 % measured)',
    };
  } finally {
    for (const ref of refs) await engine.delete(ref).catch(() => undefined);
    await app.close().catch(() => undefined);
    await closeDeps(deps).catch(() => undefined);
    if (engineName === 'local') {
      try {
        process.kill(Number(readFileSync(path.join(dataDir, 'labs', 'sshd.pid'), 'utf8')), 'SIGTERM');
      } catch {
        /* not started */
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows = [];
for (const engine of ENGINES) rows.push(await benchEngine(engine));
console.log(
  `\nLab lifecycle, ${LABS} labs per engine, ${cpus().length} cores, load average ${loadavg().map(r1).join(' ')}`,
);
console.table(rows);
process.exit(0);
