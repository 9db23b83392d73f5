// The Debian packages `npm test` needs, checked before any suite starts: a missing one is named at
// once with the one apt-get line that installs all that are missing, not twenty minutes into a run
// (`npm test -- --skip-missing` runs what needs nothing missing and names every part it skipped).
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Each package: the commands that show it is installed (an environment variable may name another
 * binary, as the suites read it), the npm test steps that cannot run without it, and the server
 * test files that need it (left out of the server suites under --skip-missing).
 */
export const PACKAGES = [
  {
    name: 'chromium',
    commands: [['chromium', 'CHROMIUM_PATH']],
    steps: ['journeys', 'cluster', 'janus-journey', 'class-bench'],
    serverFiles: [],
  },
  {
    name: 'ffmpeg',
    commands: [['ffmpeg'], ['ffprobe']],
    steps: ['journeys', 'class-bench'],
    serverFiles: [
      'test/startup.test.ts',
      'test/conference-janus.test.ts',
      'test/seed.test.ts',
      'test/courses-uploads-faults.test.ts',
      'test/courses-authoring.test.ts',
      'test/courses-captions.test.ts',
      'test/courses-learning.test.ts',
      'test/courses-uploads.test.ts',
      'test/courses-s3.test.ts',
      'test/prod-audit-managers.test.ts',
    ],
  },
  {
    name: 'janus',
    commands: [['janus', 'JANUS_BIN']],
    steps: ['janus-journey', 'class-bench'],
    serverFiles: ['test/conference-janus.test.ts'],
  },
  {
    name: 'janus-tools',
    commands: [['janus-pp-rec', 'JANUS_PP_REC_BIN']],
    steps: ['janus-journey'],
    serverFiles: ['test/conference-janus.test.ts'],
  },
  { name: 'coturn', commands: [['turnserver']], steps: [], serverFiles: ['test/conference-turn.test.ts'] },
  { name: 'openssh-server', commands: [['sshd']], steps: [], serverFiles: ['test/labs-local.test.ts'] },
  { name: 'tigervnc-standalone-server', commands: [['Xvnc']], steps: [], serverFiles: ['test/labs-local.test.ts'] },
  { name: 'xterm', commands: [['xterm']], steps: [], serverFiles: ['test/labs-local.test.ts'] },
  {
    name: 'postgresql-client',
    commands: [['pg_dump'], ['pg_restore']],
    steps: [],
    serverFiles: ['test/prod-backup.test.ts'],
  },
  { name: 'postgresql', commands: [['initdb', 'PG_BIN']], steps: ['faults'], serverFiles: [] },
  { name: 'redis-server', commands: [['redis-server', 'REDIS_SERVER']], steps: ['faults'], serverFiles: [] },
  { name: 'docker.io', commands: [['dockerd'], ['docker']], steps: ['containers', 'class-bench'], serverFiles: [] },
  { name: 'debootstrap', commands: [['debootstrap']], steps: ['containers'], serverFiles: [] },
  // each lab's home is a sized ext4 disk (decision 0056)
  { name: 'e2fsprogs', commands: [['mkfs.ext4']], steps: ['containers', 'class-bench'], serverFiles: [] },
  // the Kubernetes API fake's exec runs a real terminal (tmux) and desktop relay (socat); the lab
  // network fence test serves its internet with socat
  {
    name: 'socat',
    commands: [['socat']],
    steps: ['containers'],
    serverFiles: ['test/labs-kubernetes.test.ts'],
  },
  { name: 'tmux', commands: [['tmux']], steps: [], serverFiles: ['test/labs-kubernetes.test.ts'] },
];

const executable = (file) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** PostgreSQL's server binaries live outside PATH, under /usr/lib/postgresql/<version>/bin. */
function postgresBinDirs(env) {
  if (env.PG_BIN) return [env.PG_BIN];
  const root = '/usr/lib/postgresql';
  return existsSync(root) ? readdirSync(root).map((v) => path.join(root, v, 'bin')) : [];
}

/** Whether `command` is installed: the binary an environment variable names, else one on PATH. */
export function found(command, envName, env = process.env) {
  if (envName && env[envName] && envName !== 'PG_BIN') return executable(env[envName]);
  // PostgreSQL's server binaries are never on PATH; sshd and debootstrap are in root's (/usr/sbin)
  const dirs = command === 'initdb' ? postgresBinDirs(env) : (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return dirs.some((d) => executable(path.join(d, command)));
}

/** The packages of PACKAGES that are not installed on this machine. */
export function missingPackages(env = process.env) {
  return PACKAGES.filter((p) => !p.commands.every(([command, envName]) => found(command, envName, env)));
}

/** The one line that installs every missing package. */
export const installLine = (missing) => `apt-get update && apt-get install -y ${missing.map((p) => p.name).join(' ')}`;

/** What --skip-missing leaves out: the npm test steps and server test files that need a missing package. */
export function skippedBy(missing) {
  return {
    steps: new Set(missing.flatMap((p) => p.steps)),
    serverFiles: [...new Set(missing.flatMap((p) => p.serverFiles))].sort(),
  };
}
