#!/usr/bin/env node
/**
 * A throwaway Janus (Debian package `janus`) for tests, journeys and benchmarks: writes a minimal
 * config folder (VideoRoom plugin + WebSocket transport only, on a free loopback port), starts
 * `/usr/bin/janus -F <dir>` and waits until its WebSocket API answers.
 *
 *   import { startJanus } from '../scripts/janus-local.mjs';
 *   const janus = await startJanus();   // { url, adminKey, apiSecret, recordDir, logFile, dir, stop() }
 *
 * From a shell: `node scripts/janus-local.mjs` prints the same fields as JSON and runs until killed.
 * Only the VideoRoom plugin and the WebSocket transport are loaded (symlinks into folders of our
 * own), so the other plugins' sample configs under /etc/janus are never read.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const JANUS_BIN = process.env.JANUS_BIN || '/usr/bin/janus';
export const JANUS_PP_REC_BIN = process.env.JANUS_PP_REC_BIN || '/usr/bin/janus-pp-rec';
const LIB_DIRS = ['/usr/lib/x86_64-linux-gnu/janus', '/usr/lib/aarch64-linux-gnu/janus', '/usr/lib/janus'];
export const JANUS_MISSING =
  'Janus is not installed: apt-get install janus janus-tools (Debian packages; CI installs them in .ci/run)';

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * @param {{ adminKey?: string, apiSecret?: string, recordDir?: string, debugLevel?: number,
 *   rtpPortRange?: string, iceEnforceList?: string, port?: number }} [opts]
 */
export async function startJanus(opts = {}) {
  if (!existsSync(JANUS_BIN)) throw new Error(JANUS_MISSING);
  const libDir = LIB_DIRS.find((d) => existsSync(join(d, 'plugins', 'libjanus_videoroom.so')));
  if (!libDir) throw new Error(`${JANUS_MISSING} (libjanus_videoroom.so not found)`);
  const dir = await mkdtemp(join(tmpdir(), 'janus-'));
  const plugins = join(dir, 'plugins');
  const transports = join(dir, 'transports');
  const empty = join(dir, 'none');
  const recordDir = opts.recordDir ?? join(dir, 'recordings');
  await Promise.all([mkdir(plugins), mkdir(transports), mkdir(empty), mkdir(recordDir, { recursive: true })]);
  await symlink(join(libDir, 'plugins', 'libjanus_videoroom.so'), join(plugins, 'libjanus_videoroom.so'));
  await symlink(join(libDir, 'transports', 'libjanus_websockets.so'), join(transports, 'libjanus_websockets.so'));
  const port = opts.port ?? (await freePort());
  const adminKey = opts.adminKey ?? randomBytes(12).toString('hex');
  const apiSecret = opts.apiSecret;
  const logFile = join(dir, 'janus.log');
  const nat = opts.iceEnforceList ? `ice_enforce_list = "${opts.iceEnforceList}"` : 'ice_ignore_list = "vmnet"';
  await writeFile(
    join(dir, 'janus.jcfg'),
    `general: {
  configs_folder = "${dir}"
  plugins_folder = "${plugins}"
  transports_folder = "${transports}"
  events_folder = "${empty}"
  loggers_folder = "${empty}"
  log_to_file = "${logFile}"
  debug_level = ${opts.debugLevel ?? 4}
  ${apiSecret ? `api_secret = "${apiSecret}"` : ''}
  protected_folders = ["/bin", "/boot", "/dev", "/etc", "/lib", "/proc", "/sbin", "/sys", "/usr", "/var"]
}
media: {
  rtp_port_range = "${opts.rtpPortRange ?? '20000-40000'}"
}
nat: {
  nice_debug = false
  ${nat}
}
plugins: {}
transports: {}
events: {}
loggers: {}
`,
  );
  await writeFile(
    join(dir, 'janus.plugin.videoroom.jcfg'),
    `general: {
  admin_key = "${adminKey}"
  lock_rtp_forward = true
}
`,
  );
  await writeFile(
    join(dir, 'janus.transport.websockets.jcfg'),
    `general: {
  json = "compact"
  ws = true
  ws_port = ${port}
  ws_ip = "127.0.0.1"
  wss = false
}
admin: {
  admin_ws = false
  admin_wss = false
}
`,
  );
  const child = spawn(JANUS_BIN, ['-F', dir, '-C', join(dir, 'janus.jcfg'), '-N'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  let exited = null;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  const deadline = Date.now() + 15_000;
  while (!(await canConnect(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`Janus did not start (${JSON.stringify(exited)}):\n${stderr}\n${log.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    adminKey,
    apiSecret,
    recordDir,
    logFile,
    dir,
    pid: child.pid,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await gone;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const janus = await startJanus({ recordDir: process.env.JANUS_RECORD_DIR || undefined });
  const { stop: _stop, ...fields } = janus;
  console.log(JSON.stringify(fields));
  const bye = async () => {
    await janus.stop();
    process.exit(0);
  };
  process.on('SIGINT', bye);
  process.on('SIGTERM', bye);
}
