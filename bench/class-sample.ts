/**
 * The server's side of each phase of the class bench: the CPU time and resident memory of our
 * server and of Janus from /proc (clock ticks of 1/100 s), the host's load and available memory,
 * sampled every second; the lab containers' memory and CPU from `docker stats` when asked.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HZ = 100;

export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / HZ;
  } catch {
    return 0;
  }
}
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
/** a process and all its descendants (a browser's renderers and GPU/utility processes) */
export function treeOf(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      const kids = readFileSync(`/proc/${out[i]}/task/${out[i]}/children`, 'utf8').trim();
      if (kids) out.push(...kids.split(' ').map(Number));
    } catch {
      /* gone */
    }
  }
  return out;
}
const memAvailableMb = () => Number(/MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) / 1024;
/** the host's busy CPU seconds (all cores) from /proc/stat */
function hostBusySeconds() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return (f.reduce((a, b) => a + b, 0) - idle) / HZ;
}

interface Sample {
  at: number;
  server: { cpu: number; rss: number };
  janus: { cpu: number; rss: number };
  host: { busy: number; load1: number; availMb: number };
}

export class Sampler {
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | null = null;
  constructor(
    private readonly serverPid: number,
    private readonly janusPid: number,
  ) {}
  private take(): Sample {
    return {
      at: performance.now(),
      server: { cpu: cpuSeconds(this.serverPid), rss: rssMb(this.serverPid) },
      janus: { cpu: cpuSeconds(this.janusPid), rss: rssMb(this.janusPid) },
      host: { busy: hostBusySeconds(), load1: loadavg()[0]!, availMb: memAvailableMb() },
    };
  }
  start() {
    this.samples.push(this.take());
    this.timer = setInterval(() => this.samples.push(this.take()), 1000);
    this.timer.unref();
  }
  stop() {
    if (this.timer) clearInterval(this.timer);
  }
  /** a point in time to measure from */
  mark(): number {
    this.samples.push(this.take());
    return this.samples.length - 1;
  }
  /** from a mark to now: CPU in % of one core (averages), the highest memory, the load */
  since(mark: number) {
    const now = this.mark();
    const a = this.samples[mark]!;
    const b = this.samples[now]!;
    const seconds = Math.max(0.001, (b.at - a.at) / 1000);
    const window = this.samples.slice(mark, now + 1);
    return {
      seconds,
      serverCpu: ((b.server.cpu - a.server.cpu) / seconds) * 100,
      serverRssMax: Math.max(...window.map((s) => s.server.rss)),
      janusCpu: ((b.janus.cpu - a.janus.cpu) / seconds) * 100,
      janusRssMax: Math.max(...window.map((s) => s.janus.rss)),
      hostCpu: ((b.host.busy - a.host.busy) / seconds) * 100,
      load1Max: Math.max(...window.map((s) => s.host.load1)),
      availMbMin: Math.min(...window.map((s) => s.host.availMb)),
    };
  }
  /** the server's RSS at the first sample (at rest, before the class) */
  serverRssAtRest() {
    return this.samples[0]?.server.rss ?? Number.NaN;
  }
  /** the highest server RSS over the whole run */
  serverRssPeak() {
    return Math.max(...this.samples.map((s) => s.server.rss));
  }
}
export type Use = ReturnType<Sampler['since']>;

/** "12.3MiB / 2GiB" → 12.3 */
const mib = (text: string) => {
  const m = /([\d.]+)\s*([KMGT]?i?B)/.exec(text);
  if (!m) return 0;
  const u = m[2]!.charAt(0);
  return (
    Number(m[1]) * (u === 'G' ? 1024 : u === 'T' ? 1024 * 1024 : u === 'K' ? 1 / 1024 : u === 'B' ? 1 / 1048576 : 1)
  );
};

/** memory (MiB, without page cache, as docker stats reports) and CPU % of each running lab of the namespace */
export async function labStats(namespace: string) {
  const { stdout: ids } = await run('docker', ['ps', '-q', '--filter', `label=org.trainlab.install=${namespace}`]);
  const list = ids.split('\n').filter(Boolean);
  if (!list.length) return { running: 0, memMb: [] as number[], cpuPct: [] as number[] };
  const { stdout } = await run('docker', ['stats', '--no-stream', '--format', '{{json .}}', ...list], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const rows = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { MemUsage: string; CPUPerc: string });
  return {
    running: list.length,
    memMb: rows.map((r) => mib(r.MemUsage.split('/')[0]!)),
    cpuPct: rows.map((r) => Number.parseFloat(r.CPUPerc) || 0),
  };
}
