// A newcomer's first start, as CI runs it (.ci/run, in the background beside the first test steps):
// exactly `npm start` (build the web app and the server, serve) on a fresh data folder and a port of
// its own, against a container engine that does not have the lab image yet. The server builds the
// image itself; then, as the demo provider through the API: a lab account, a lab created and
// started, a command echoed through the lab's terminal socket, the desktop's greeting through its
// VNC socket, the lab stopped and deleted, the server stopped. Writes its exit code to
// LAB_IMAGE_BUILD_DONE (scripts/lab-image-ready.mjs waits for it), so the container tests that follow
// use the very image a newcomer's server built.
//
//   node scripts/first-start.mjs
//   FIRST_START_PORT  the server's port (default 3190)
//   LAB_IMAGE         the image tag (default trainlab-lab:bookworm-3, as the server's)
//   FIRST_START_REMOVE_IMAGE=1  removes that image first (only when told: others may use it)
//   FIRST_START_MINUTES  the whole run's limit (default 20)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WebSocket = createRequire(import.meta.url)('ws');
const PORT = Number(process.env.FIRST_START_PORT || 3190);
const IMAGE = process.env.LAB_IMAGE || 'trainlab-lab:bookworm-3';
const LIMIT_MS = Number(process.env.FIRST_START_MINUTES || 20) * 60_000;
const base = `http://127.0.0.1:${PORT}`;
const started = Date.now();
const deadline = started + LIMIT_MS;
const say = (line) => console.log(`[first start ${((Date.now() - started) / 1000).toFixed(0)} s] ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** a terminal's control sequences (colours, modes: tmux and bash send them between lines) */
const CONTROL_SEQUENCE = new RegExp(`${String.fromCharCode(27)}(\\[[0-9;?]*[A-Za-z]|\\([A-Z0-9])`, 'g');

const hasImage = () => {
  try {
    execFileSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

async function api(call, body, token) {
  const res = await fetch(`${base}/api/${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${call} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Opens a lab socket and resolves with what `until` finds in its messages (or fails at the limit). */
function socket(kind, name, token, send, until, ms = 30_000) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${PORT}/ws/labs/${kind}/${name}`, [
      kind === 'terminal' ? 'tl-terminal' : 'binary',
      `auth.${token}`,
    ]);
    let seen = '';
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`${kind}: no answer in ${ms / 1000} s (saw ${JSON.stringify(seen.slice(-300))})`));
    }, ms);
    ws.on('open', () => send && ws.send(send));
    ws.on('message', (data) => {
      seen += data.toString('latin1');
      const found = until(seen);
      if (found) {
        clearTimeout(timer);
        ws.close();
        resolve(found);
      }
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind}: closed with ${code} (saw ${JSON.stringify(seen.slice(-300))})`));
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

async function waitForLabs() {
  let last = '';
  while (Date.now() < deadline) {
    try {
      const health = await (await fetch(`${base}/api/health`)).json();
      if (health.labs?.ready) return health.labs;
      const problem = health.labs?.problem ?? '';
      if (problem !== last) say(`the server answers; labs: ${problem}`);
      last = problem;
    } catch {
      // not listening yet: npm start is still building
    }
    await sleep(2000);
  }
  throw new Error(`the server did not have a lab image within ${LIMIT_MS / 60_000} minutes`);
}

async function main(server) {
  const exited = new Promise((_, reject) =>
    server.on('exit', (code) => reject(new Error(`npm start exited (${code}) before the check was over`))),
  );
  exited.catch(() => undefined);
  const labs = await Promise.race([waitForLabs(), exited]);
  say(`labs are ready: ${JSON.stringify(labs)}`);
  const login = await api('login', { email: 'provider@demo.test', password: 'Demo@12345' });
  const token = login.success.token;
  // the demo provider's lab account comes with the demo data (signed in); registered here otherwise
  const password = 'First#Start1';
  const registered = await api(
    'register-gc-account',
    {
      username: 'firststart',
      email: 'firststart@example.test',
      first_name: 'First',
      last_name: 'Start',
      password,
      password2: password,
    },
    token,
  ).then(
    () => true,
    (e) => {
      if (!/already registered/.test(e.message)) throw e;
      say('the demo provider has its lab account already');
      return false;
    },
  );
  if (registered) await api('authorize-gc-account', { username: 'firststart', password }, token);
  const created = await api(
    'gc-create-vm',
    { image: 'ubuntu', protocol: 'ssh', zone: 'asia-south1-a', count: 1, softwares: '', storage: 10, ram: 2 },
    token,
  );
  const name = created.list[0].vm_name;
  say(`lab ${name} created`);
  try {
    await api('vm-start-stop', { action: 'start', name }, token);
    say('lab started');
    const echoed = await socket(
      'terminal',
      name,
      token,
      JSON.stringify({ type: 'data', data: 'echo first-$((6*7))-start; id -u\n' }),
      // what the shell printed, without the terminal's control sequences (colours, modes)
      (seen) => /first-42-start\r?\n1000/.exec(seen.replace(CONTROL_SEQUENCE, ''))?.[0],
    );
    say(`terminal: ${JSON.stringify(echoed)}`);
    const greeting = await socket('vnc', name, token, null, (seen) => /^RFB 003\.00\d\n/.exec(seen)?.[0]);
    say(`desktop: ${JSON.stringify(greeting)}`);
    await api('vm-start-stop', { action: 'stop', name }, token);
    say('lab stopped');
  } finally {
    await api('vm-delete', { name }, token).catch((e) => say(`the lab was not deleted: ${e.message}`));
  }
}

let code = 1;
const dataDir = mkdtempSync(path.join(tmpdir(), 'trainlab-first-start-'));
let server;
try {
  if (process.env.FIRST_START_REMOVE_IMAGE === '1' && hasImage()) {
    say(`removing ${IMAGE} (FIRST_START_REMOVE_IMAGE=1)`);
    execFileSync('docker', ['image', 'rm', '--force', IMAGE], { stdio: 'inherit' });
  }
  say(
    hasImage()
      ? `${IMAGE} is already there: the server will not build it (not a newcomer's engine)`
      : `${IMAGE} is not there: the server's first start builds it`,
  );
  // the newcomer's environment: an embedded database and fan-out in a fresh folder, the defaults
  const env = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LAB_IMAGE: IMAGE };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'PUBLIC_URL', 'LAB_PROVIDER', 'HOST']) delete env[key];
  server = spawn('npm', ['start'], { cwd: root, env, stdio: 'inherit', detached: true });
  await main(server);
  code = 0;
  say('done: a newcomer’s first start runs a lab');
} catch (e) {
  say(`FAILED: ${e.message}`);
} finally {
  if (server && server.exitCode === null) {
    const gone = new Promise((r) => server.on('exit', r));
    process.kill(-server.pid, 'SIGTERM');
    await Promise.race([gone, sleep(20_000)]);
    if (server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
  }
  try {
    rmSync(dataDir, { recursive: true, force: true });
  } catch (e) {
    // a lab disk still mounted there (the lab was not deleted): said, the run's verdict stands
    say(`the data folder ${dataDir} was not removed: ${e.message}`);
  }
  say(`took ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${code}`);
  if (process.env.LAB_IMAGE_BUILD_DONE) writeFileSync(process.env.LAB_IMAGE_BUILD_DONE, `${code}\n`);
}
process.exit(code);
