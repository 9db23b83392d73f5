import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VM_DISPLAY } from '@trainlab/contract';
import type Docker from 'dockerode';

/**
 * The lab image: Debian bookworm made by debootstrap from Debian's own packages (no registry), with a
 * desktop (TigerVNC's Xvnc, the Openbox window manager, xterm), a shell and the usual tools, and one
 * unprivileged account. `npm run lab-image` builds it; a server on the container engine builds it
 * at first start when it is missing. Its tag is LAB_IMAGE's default (DEFAULT_LAB_IMAGE in
 * platform/config.ts), whose number goes up with every change of what the image holds.
 */
/** the account every lab runs as (its own container, its own home volume) */
export const LAB_USER = '1000:1000';
export const LAB_HOME = '/home/lab';
/** the VNC server's port on the lab's own loopback (no other network namespace sees it) */
export const LAB_DESKTOP_PORT = 5901;
export const LAB_IMAGE_PACKAGES = 'docker.io debootstrap';

/** What the create form's software list may name: each is in the image (name → Debian package). */
export const LAB_SOFTWARE: Record<string, string> = {
  git: 'git',
  python: 'python3',
  python3: 'python3',
  pip: 'python3-pip',
  vim: 'vim-tiny',
  nano: 'nano',
  curl: 'curl',
  wget: 'wget',
  make: 'make',
  jq: 'jq',
  tree: 'tree',
  htop: 'htop',
  less: 'less',
  ssh: 'openssh-client',
  'openssh-client': 'openssh-client',
  zip: 'zip',
  unzip: 'unzip',
  sqlite3: 'sqlite3',
};

const BASE_PACKAGES = [
  'tigervnc-standalone-server',
  'xterm',
  'openbox',
  'socat',
  // a terminal reopened after a page reload attaches to the same shell (ws.ts)
  'tmux',
  'procps',
  'iproute2',
  'iputils-ping',
  'ca-certificates',
  'fonts-dejavu-core',
  'bash-completion',
  'locales',
];

/** null when every name of the create form's list is in the image, else the message to show. */
export function softwareProblem(list: string): string | null {
  const names = list
    .split(/[,;\n]/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((n) => !(n in LAB_SOFTWARE));
  if (unknown.length === 0) return null;
  return `The Linux lab image does not offer ${unknown.join(', ')}. It offers: ${Object.keys(LAB_SOFTWARE).join(', ')}.`;
}

export async function imageExists(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch {
    return false;
  }
}

/** null when the image is there, else what to run. */
export async function labImageProblem(docker: Docker, image: string): Promise<string | null> {
  if (await imageExists(docker, image)) return null;
  return `The lab image ${image} is not built yet. Build it with: npm run lab-image (it is also built at the server's first start).`;
}

/** The lab's start script: the desktop on the lab's own loopback, a window manager and a terminal. */
const START_SCRIPT = `#!/bin/sh
# The lab's desktop: Xvnc on the lab's own loopback (only our server reaches it, through the engine's
# exec API), a window manager, and a terminal that comes back when closed.
export DISPLAY=:1 HOME=${LAB_HOME}
cd "$HOME"
Xvnc :1 -geometry ${VM_DISPLAY.width}x${VM_DISPLAY.height} -depth 24 -rfbport ${LAB_DESKTOP_PORT} -localhost \\
  -SecurityTypes None -AlwaysShared -nolisten tcp >/tmp/xvnc.log 2>&1 &
i=0
while [ ! -e /tmp/.X11-unix/X1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
openbox >/tmp/openbox.log 2>&1 &
while true; do
  xterm -geometry 150x40+10+10 -fa 'DejaVu Sans Mono' -fs 11 >/dev/null 2>&1
  sleep 1
done
`;

const READY_SCRIPT = `#!/bin/sh
# exit 0 once the lab's desktop accepts connections
exec socat -T1 -u OPEN:/dev/null TCP:127.0.0.1:${LAB_DESKTOP_PORT} 2>/dev/null
`;

/** The Debian mirror this host's apt uses (the image comes from the same place). */
function debianMirror(): string {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const m = text.match(/^URIs:\s*(\S+\/debian)\s*$/m) ?? text.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s/m);
    if (m?.[1]) return m[1];
  }
  return 'http://deb.debian.org/debian';
}

/**
 * Runs a build step with umask 022, whatever this process's umask is: the server runs with 077 (its
 * data folder is its own), and a folder debootstrap or useradd made under 077 would be root's alone
 * in the image, where the lab runs as uid 1000.
 */
function sh(cmd: string, args: string[], log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'umask 022 && exec "$0" "$@"', cmd, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let last = '';
    const each = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        last = line;
        // debootstrap says a line per package: enough to show progress, not every detail
        if (/^I: (Retrieving|Unpacking|Configuring|Base system|Extracting)/.test(line) || !line.startsWith('I:')) {
          log(line.trim());
        }
      }
    };
    child.stdout.on('data', each);
    child.stderr.on('data', each);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} failed (${code}): ${last}`))));
  });
}

/**
 * Builds the lab image: debootstrap (minbase, the packages above and the software list's), one
 * account (uid 1000, home LAB_HOME), the start and readiness scripts, then imported into the engine
 * with its user, command and working folder. Needs root and Debian's debootstrap on this host.
 */
export async function buildLabImage(docker: Docker, image: string, log: (line: string) => void): Promise<void> {
  if (!existsSync('/usr/sbin/debootstrap')) {
    throw new Error(`Building the lab image needs debootstrap: apt-get install -y ${LAB_IMAGE_PACKAGES}`);
  }
  const work = mkdtempSync(path.join(tmpdir(), 'trainlab-lab-image-'));
  const root = path.join(work, 'root');
  try {
    const packages = [...new Set([...BASE_PACKAGES, ...Object.values(LAB_SOFTWARE)])];
    const started = Date.now();
    log(`Building the lab image ${image} from Debian bookworm (${packages.length} packages)…`);
    await sh(
      '/usr/sbin/debootstrap',
      ['--variant=minbase', `--include=${packages.join(',')}`, 'bookworm', root, debianMirror()],
      log,
    );
    await sh('/usr/sbin/chroot', [root, '/usr/sbin/useradd', '-m', '-u', '1000', '-U', '-s', '/bin/bash', 'lab'], log);
    // modes set after writing: writeFileSync's mode passes through the process's umask (077 in the
    // server, which made these root's alone and every lab exit 126)
    for (const [name, text] of [
      ['trainlab-lab-start', START_SCRIPT],
      ['trainlab-lab-ready', READY_SCRIPT],
    ] as const) {
      const file = path.join(root, 'usr/local/bin', name);
      writeFileSync(file, text);
      chmodSync(file, 0o755);
    }
    // the image's own root folder is the temporary folder's (0700 from mkdtemp): everyone's in a lab
    chmodSync(root, 0o755);
    // Font caches that hold in the image: fontconfig trusts a cache only while its folder's mtime
    // matches the one it recorded, to the nanosecond, and the import's tar keeps whole seconds. With
    // the caches debootstrap made, every lab's openbox and xterm scanned the fonts again at start
    // (1.4 s of CPU per lab start instead of 0.7 s: a class's bell is that times 50 on two cores).
    // -L: some font folders are links to other packages' folders (the CJK cmaps), whose own mtimes count.
    await sh(
      '/usr/sbin/chroot',
      [
        root,
        '/bin/sh',
        '-c',
        'for d in /usr/share/fonts /usr/local/share/fonts /usr/share/X11/fonts; do [ -d "$d" ] && find -L "$d" -type d -exec touch -d @1700000000 {} +; done; fc-cache -f -s',
      ],
      log,
    );
    // a smaller image: package lists and caches are not needed in a lab
    for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
      rmSync(path.join(root, dir), { recursive: true, force: true });
    }
    log('Importing the lab image into the container engine…');
    const [repo, tag] = image.split(':');
    const tar = spawn('tar', ['-C', root, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const progress = await docker.importImage(
      tar.stdout as unknown as string,
      {
        repo,
        tag: tag ?? 'latest',
        changes: [
          `USER ${LAB_USER}`,
          `WORKDIR ${LAB_HOME}`,
          `ENV HOME=${LAB_HOME} LANG=C.UTF-8`,
          'CMD ["/usr/local/bin/trainlab-lab-start"]',
        ],
      } as unknown as Record<string, unknown>,
    );
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(progress, (err: Error | null) => (err ? reject(err) : resolve())),
    );
    if (!(await imageExists(docker, image))) throw new Error('The engine did not keep the imported image.');
    log(`The lab image ${image} is ready (${Math.round((Date.now() - started) / 1000)} s).`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * At a server's first start on the container engine: builds the lab image when the engine answers
 * and the image is missing, saying so line by line in the log (labs answer "not built yet" meanwhile).
 */
export async function ensureLabImage(image: string, log: (line: string) => void): Promise<void> {
  const { default: DockerClient } = await import('dockerode');
  const docker = new DockerClient();
  try {
    await docker.ping();
  } catch {
    return; // /api/health and every lab call say what is missing
  }
  if (await imageExists(docker, image)) return;
  if (process.getuid?.() !== 0 || !existsSync('/usr/sbin/debootstrap')) {
    log(
      `The lab image ${image} is missing: build it as root with npm run lab-image (apt-get install -y ${LAB_IMAGE_PACKAGES}).`,
    );
    return;
  }
  await buildLabImage(docker, image, log).catch((e: Error) => log(`The lab image was not built: ${e.message}`));
}
