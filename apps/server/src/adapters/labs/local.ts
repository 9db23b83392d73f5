import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { VM_DISPLAY } from '@trainlab/contract';
import type { Config } from '../../platform/config';
import type { LabEndpoint, LabProvider, LabSpec, LabState } from '../../platform/ports/labs';
import { LabEngineError } from '../../platform/ports/labs';

const run = promisify(execFile);

/** Debian packages the local engine needs (README, .ci/run). */
export const LOCAL_LAB_PACKAGES = 'openssh-server tigervnc-standalone-server xterm';
const GROUP = 'trainlab-labs';
/** Labs as accounts on the server's own host share its loopback, /tmp and user ids: never in production. */
export const LOCAL_ENGINE_REFUSED =
  'LAB_PROVIDER=local runs labs as accounts on the server itself, sharing its network and files: it is for development only and refused in production. Use LAB_PROVIDER=container (labs in containers, on this host or DOCKER_HOST) or gce.';
/** Every lab account starts with this prefix: nothing else on the host is ever touched. */
export const LAB_USER_PREFIX = 'tllab_';
const FIRST_DISPLAY = 40;

const BINARIES = {
  useradd: ['/usr/sbin/useradd'],
  userdel: ['/usr/sbin/userdel'],
  usermod: ['/usr/sbin/usermod'],
  chpasswd: ['/usr/sbin/chpasswd'],
  sshd: ['/usr/sbin/sshd'],
  'ssh-keygen': ['/usr/bin/ssh-keygen'],
  Xvnc: ['/usr/bin/Xvnc'],
} as const;

interface LabProcess {
  username: string;
  display: number;
  vncPort: number;
  pid: number | null;
  xtermPid: number | null;
}

const alive = (pid: number | null): boolean => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/**
 * The embedded lab engine: each lab is an account on this host (prefix tllab_, group
 * trainlab-labs) reached through one SSH server of ours on 127.0.0.1:LAB_SSH_PORT, and, while
 * started, a TigerVNC desktop (Xvnc on 127.0.0.1 only, 1296×765, an xterm in it) run as that
 * account. Stopped labs have their account locked and their processes ended; deleting removes the
 * account and its home. The state (display numbers, process ids) is kept in DATA_DIR/labs so a
 * restart of our server finds its labs still running. The VNC server accepts connections from
 * this host only; our server's WebSocket proxy is what checks who may open a lab.
 */
export class LocalLabs implements LabProvider {
  readonly name = 'local' as const;
  private readonly dir: string;
  private readonly sshPort: number;
  private readonly production: boolean;

  /** `root`: where the system's binaries are looked for (a test points it at an empty directory) */
  constructor(
    config: Config,
    private readonly root = '/',
  ) {
    this.dir = path.resolve(config.DATA_DIR, 'labs');
    this.sshPort = config.LAB_SSH_PORT;
    this.production = config.NODE_ENV === 'production';
  }

  async problem(): Promise<string | null> {
    if (this.production) return LOCAL_ENGINE_REFUSED;
    const missing = Object.entries(BINARIES)
      .filter(([, paths]) => !paths.some((p) => existsSync(path.join(this.root, p))))
      .map(([name]) => name);
    if (missing.length) {
      return `The local lab engine needs the Debian packages ${LOCAL_LAB_PACKAGES} (missing: ${missing.join(', ')}). Install them with: apt-get install -y ${LOCAL_LAB_PACKAGES}`;
    }
    if (typeof process.getuid === 'function' && process.getuid() !== 0) {
      return 'The local lab engine creates an account per lab and must run as root (or choose LAB_PROVIDER=memory or gce).';
    }
    return null;
  }

  private statePath() {
    return path.join(this.dir, 'state.json');
  }
  private readState(): Record<string, LabProcess> {
    try {
      return JSON.parse(readFileSync(this.statePath(), 'utf8')) as Record<string, LabProcess>;
    } catch {
      return {};
    }
  }
  private writeState(state: Record<string, LabProcess>) {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(this.statePath(), JSON.stringify(state, null, 2), { mode: 0o600 });
  }

  private async ensureReady() {
    const problem = await this.problem();
    if (problem) throw new LabEngineError(problem);
  }

  /** Our SSH server for lab logins: started once, on 127.0.0.1, for the lab group only. */
  private async ensureSshd(): Promise<void> {
    if (await portOpen(this.sshPort)) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    const key = path.join(this.dir, 'ssh_host_ed25519_key');
    if (!existsSync(key)) await run('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    const cfg = path.join(this.dir, 'sshd_config');
    writeFileSync(
      cfg,
      [
        `Port ${this.sshPort}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${key}`,
        `PidFile ${path.join(this.dir, 'sshd.pid')}`,
        'PasswordAuthentication yes',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication no',
        'PermitRootLogin no',
        `AllowGroups ${GROUP}`,
        'UsePAM no',
        'X11Forwarding no',
        'AllowTcpForwarding no',
        'PrintMotd no',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    await run('/usr/sbin/sshd', ['-f', cfg]);
    if (!(await waitFor(() => portOpen(this.sshPort), 5000))) {
      throw new LabEngineError(`The lab SSH server did not start on 127.0.0.1:${this.sshPort}.`);
    }
  }

  private checkName(username: string) {
    if (!username.startsWith(LAB_USER_PREFIX) || !/^[a-z0-9_]{7,32}$/.test(username)) {
      throw new LabEngineError('Invalid lab account name.');
    }
  }

  async create(spec: LabSpec): Promise<{ ref: string }> {
    await this.ensureReady();
    this.checkName(spec.username);
    await run('/usr/sbin/groupadd', ['-f', GROUP]).catch(() => undefined);
    await run('/usr/sbin/useradd', [
      '-m',
      '-s',
      '/bin/bash',
      '-G',
      GROUP,
      '-c',
      `TrainLab lab ${spec.vmName}`,
      spec.username,
    ]);
    await this.setPassword(spec.username, spec.password);
    await run('/usr/sbin/usermod', ['-L', spec.username]);
    const state = this.readState();
    state[spec.username] = { username: spec.username, display: 0, vncPort: 0, pid: null, xtermPid: null };
    this.writeState(state);
    return { ref: spec.username };
  }

  private async setPassword(username: string, password: string) {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('/usr/sbin/chpasswd', [], { stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new LabEngineError('Could not set the lab password.')),
      );
      child.stdin.end(`${username}:${password}\n`);
    });
  }

  private async ids(username: string): Promise<{ uid: number; gid: number; home: string }> {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${username}:`));
    if (!line) throw new LabEngineError('The lab account no longer exists.');
    const f = line.split(':');
    return { uid: Number(f[2]), gid: Number(f[3]), home: f[5]! };
  }

  async start(ref: string, spec: LabSpec): Promise<void> {
    await this.ensureReady();
    this.checkName(ref);
    const { uid, gid, home } = await this.ids(ref);
    await run('/usr/sbin/usermod', ['-U', ref]);
    // the password travels with every start: the account's password always matches the record
    if (spec.password) await this.setPassword(ref, spec.password);
    await this.ensureSshd();
    const state = this.readState();
    const current = state[ref];
    if (current && alive(current.pid) && (await portOpen(current.vncPort))) return;
    const used = new Set(Object.values(state).map((s) => s.display));
    let display = FIRST_DISPLAY;
    while (used.has(display) || existsSync(`/tmp/.X11-unix/X${display}`) || existsSync(`/tmp/.X${display}-lock`)) {
      display++;
    }
    const vncPort = 5900 + display;
    const env = { HOME: home, USER: ref, LOGNAME: ref, PATH: '/usr/local/bin:/usr/bin:/bin', DISPLAY: `:${display}` };
    const xvnc = spawn(
      '/usr/bin/Xvnc',
      [
        `:${display}`,
        '-geometry',
        `${VM_DISPLAY.width}x${VM_DISPLAY.height}`,
        '-depth',
        '24',
        '-rfbport',
        String(vncPort),
        '-localhost',
        '-SecurityTypes',
        'None',
        '-AlwaysShared',
        '-nolisten',
        'tcp',
      ],
      { uid, gid, env, cwd: home, detached: true, stdio: 'ignore' },
    );
    xvnc.unref();
    if (!(await waitFor(() => portOpen(vncPort), 8000))) {
      if (xvnc.pid) process.kill(xvnc.pid, 'SIGKILL');
      throw new LabEngineError('The lab desktop did not start.');
    }
    let xtermPid: number | null = null;
    if (existsSync('/usr/bin/xterm')) {
      const xterm = spawn('/usr/bin/xterm', ['-geometry', '160x45+0+0', '-fa', 'Monospace', '-fs', '11'], {
        uid,
        gid,
        env,
        cwd: home,
        detached: true,
        stdio: 'ignore',
      });
      xterm.unref();
      xtermPid = xterm.pid ?? null;
    }
    state[ref] = { username: ref, display, vncPort, pid: xvnc.pid ?? null, xtermPid };
    this.writeState(state);
  }

  async stop(ref: string): Promise<void> {
    this.checkName(ref);
    const state = this.readState();
    const lab = state[ref];
    for (const pid of [lab?.xtermPid ?? null, lab?.pid ?? null]) {
      if (alive(pid)) {
        try {
          process.kill(pid!, 'SIGTERM');
        } catch {
          /* gone meanwhile */
        }
      }
    }
    // every process of the lab account (shells opened over SSH) ends with the lab
    await run('/usr/bin/pkill', ['-KILL', '-u', ref]).catch(() => undefined);
    await run('/usr/sbin/usermod', ['-L', ref]).catch(() => undefined);
    if (lab) state[ref] = { ...lab, pid: null, xtermPid: null };
    this.writeState(state);
  }

  async delete(ref: string): Promise<void> {
    this.checkName(ref);
    await this.stop(ref);
    await run('/usr/sbin/userdel', ['-r', ref]).catch(() => undefined);
    const state = this.readState();
    delete state[ref];
    this.writeState(state);
  }

  async status(ref: string): Promise<LabState> {
    this.checkName(ref);
    const exists = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .some((l) => l.startsWith(`${ref}:`));
    if (!exists) return 'missing';
    const lab = this.readState()[ref];
    return lab && alive(lab.pid) ? 'running' : 'stopped';
  }

  async connection(ref: string): Promise<LabEndpoint> {
    this.checkName(ref);
    const lab = this.readState()[ref];
    // our own SSH server's key, read from our own data folder
    const pub = path.join(this.dir, 'ssh_host_ed25519_key.pub');
    const hostKeys = existsSync(pub) ? [readFileSync(pub, 'utf8').split(' ')[1] ?? ''].filter(Boolean) : [];
    return {
      ssh: { host: '127.0.0.1', port: this.sshPort, username: ref, hostKeys },
      ...(lab?.vncPort && alive(lab.pid) ? { vnc: { host: '127.0.0.1', port: lab.vncPort } } : {}),
    };
  }
}
