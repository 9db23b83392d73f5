// What `npm start` builds: a workspace is rebuilt only when the content hash of its inputs (its
// sources, the contract package it inlines, the lock file) differs from the one stamped in its
// output folder by the last build. A hash of the contents, not file times: a checkout, a branch
// switch or a copy changes times without changing what would be built.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', 'dist', 'test', 'coverage', '.vite']);

/** The workspaces `npm start` serves, each with the inputs of its build and what it leaves behind. */
export const BUILDS = [
  {
    workspace: '@trainlab/web',
    inputs: [
      'apps/web/src',
      'apps/web/build',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/postcss.config.cjs',
      'apps/web/package.json',
      'apps/web/tsconfig.json',
    ],
    output: 'apps/web/dist',
    product: 'apps/web/dist/index.html',
  },
  {
    workspace: '@trainlab/server',
    inputs: ['apps/server/src', 'apps/server/scripts', 'apps/server/package.json'],
    output: 'apps/server/dist',
    product: 'apps/server/dist/main.js',
  },
];
const SHARED = ['packages/contract/src', 'packages/contract/package.json', 'package-lock.json', 'tsconfig.base.json'];

function files(entry, out) {
  if (!existsSync(entry)) return;
  if (statSync(entry).isFile()) {
    out.push(entry);
    return;
  }
  for (const name of readdirSync(entry).sort()) if (!SKIP.has(name)) files(path.join(entry, name), out);
}

/** sha256 over the names and contents of the build's input files, in a fixed order. */
export function inputHash(build) {
  const list = [];
  for (const entry of [...build.inputs, ...SHARED]) files(entry, list);
  const hash = createHash('sha256');
  for (const file of list) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const stampOf = (build) => path.join(build.output, '.build-hash');

/** True when the output is there and was built from exactly these inputs. */
export function upToDate(build, hash) {
  return existsSync(build.product) && existsSync(stampOf(build)) && readFileSync(stampOf(build), 'utf8') === hash;
}

export function stamp(build, hash) {
  writeFileSync(stampOf(build), hash);
}
