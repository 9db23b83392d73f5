// Runs the production image (npm run image) against this machine's PostgreSQL and checks what a
// deployment needs: /api/ready answers, the first admin (ADMIN_EMAIL/ADMIN_PASSWORD) signs in, a list
// call answers, the process is not root, and Docker's health check turns healthy.
//
//   node scripts/image-check.mjs [--tag trainlab:0.1.0] [--port 3601]
//
// PostgreSQL at 127.0.0.1:5432 (trust for postgres, as in CI). The container runs as a deployment
// runs it (Docker's bridge network, the daemon's user-namespace remapping): it reaches PostgreSQL
// through a relay this script opens on the bridge's gateway address, and its port is published on
// 127.0.0.1 only.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const version = JSON.parse(readFileSync(path.join(root, 'apps/server/package.json'), 'utf8')).version;
const tag = arg('--tag', `trainlab:${version}`);
const port = Number(arg('--port', process.env.IMAGE_CHECK_PORT ?? 3601));
const pg = process.env.IMAGE_CHECK_PG ?? 'postgres://postgres@127.0.0.1:5432';
const db = `trainlab_image_${Date.now()}_${process.pid}`;
const name = `trainlab-image-check-${process.pid}`;
const base = `http://127.0.0.1:${port}`;
const admin = { email: 'admin@image-check.test', password: randomBytes(12).toString('base64url') };
const started = Date.now();
const say = (text) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}`);
const docker = (...args) => execFileSync('docker', args, { encoding: 'utf8' }).trim();

async function call(pathname, body, token) {
  const res = await fetch(`${base}/api/${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

async function until(what, test, seconds) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const result = await test().catch((e) => {
      if (e.message === 'the container stopped') throw e;
      return false;
    });
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** A TCP relay on the bridge's gateway address to PostgreSQL on this host's loopback. */
async function relayToPostgres() {
  // the gateway as Docker records it, else the bridge interface's own address (Debian's 20.10 leaves it out)
  const bridge = docker('network', 'inspect', 'bridge', '-f', '{{index .Options "com.docker.network.bridge.name"}}');
  const gateway =
    docker('network', 'inspect', 'bridge', '-f', '{{(index .IPAM.Config 0).Gateway}}') ||
    // (an idle bridge is down, so node's networkInterfaces() leaves it out: ip still names it)
    execFileSync('ip', ['-4', '-o', 'addr', 'show', bridge || 'docker0'], { encoding: 'utf8' }).match(
      /inet (\d+\.\d+\.\d+\.\d+)/,
    )?.[1];
  if (!gateway) throw new Error("the bridge network's gateway address was not found");
  const target = new URL(pg);
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise((resolve) => server.listen(0, gateway, resolve));
  return { server, url: `postgres://${target.username}@${gateway}:${server.address().port}` };
}

const relay = await relayToPostgres();
execFileSync('psql', [`${pg}/postgres`, '-qc', `create database ${db}`]);
let failed = false;
try {
  docker(
    'run',
    '-d',
    '--name',
    name,
    '-p',
    `127.0.0.1:${port}:3000`,
    '-e',
    `PUBLIC_URL=${base}`,
    '-e',
    `DATABASE_URL=${relay.url}/${db}`,
    '-e',
    `FIELD_ENCRYPTION_KEYS=check:${randomBytes(32).toString('base64')}`,
    '-e',
    `ADMIN_EMAIL=${admin.email}`,
    '-e',
    `ADMIN_PASSWORD=${admin.password}`,
    // a check, not a shop: the test gateway, said so at start and in /api/health
    '-e',
    'STAGING_TEST_GATEWAY=true',
    '-e',
    'LAB_PROVIDER=memory',
    tag,
  );
  say(`started ${tag} as ${name}`);
  await until(
    '/api/ready answers 200',
    async () => {
      if (docker('inspect', '-f', '{{.State.Running}}', name) !== 'true') throw new Error('the container stopped');
      return (await fetch(`${base}/api/ready`)).status === 200;
    },
    180,
  );
  say('/api/ready: 200');
  const login = await call('login', admin);
  const token = login.body?.success?.token;
  if (login.status !== 200 || !token) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  say('the first admin signed in');
  const list = await call('certification-list', {}, token);
  if (list.status !== 200 || !Array.isArray(list.body?.list)) throw new Error(`certification-list: ${list.status}`);
  say(`certification-list: 200 (${list.body.list.length} rows)`);
  // every process in the container, tini (PID 1) and the server included, by its real uid
  const uids = docker(
    'exec',
    name,
    'sh',
    '-c',
    'for p in /proc/[0-9]*; do [ -r "$p/status" ] && echo "$(tr "\\0" " " <"$p/cmdline") uid=$(sed -n "s/^Uid:[[:space:]]*\\([0-9]*\\).*/\\1/p" "$p/status")"; done',
  );
  if (!/main\.js.* uid=10001/.test(uids) || / uid=0$/m.test(uids)) throw new Error(`a process runs as root:\n${uids}`);
  say(`no process runs as root (the server: uid 10001):\n${uids}`);
  await until(
    'Docker reports the container healthy',
    async () => docker('inspect', '-f', '{{.State.Health.Status}}', name) === 'healthy',
    90,
  );
  say('health check: healthy');
} catch (e) {
  failed = true;
  console.error(`✘ ${e.message}`);
  console.error(spawnSync('docker', ['logs', '--tail', '40', name], { encoding: 'utf8' }).stderr);
} finally {
  spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
  relay.server.close();
  spawnSync('psql', [`${pg}/postgres`, '-qc', `drop database if exists ${db} with (force)`], { stdio: 'ignore' });
}
console.log(
  failed ? '0 passed, 1 failed' : `✔ the image ${tag} runs (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exit(failed ? 1 : 0);
