import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the npm test driver, without types
import { found, installLine, missingPackages, PACKAGES } from '../../../scripts/prerequisites.mjs';

/**
 * `npm test` names the Debian packages it lacks before any suite starts: a machine without coturn
 * is told, within seconds, the one apt-get line that installs it, instead of a failure twenty
 * minutes into the server tests.
 */
const root = path.resolve(__dirname, '../../..');
const bin = mkdtempSync(path.join(tmpdir(), 'trainlab-path-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

type Package = { name: string; commands: [string, string?][] };

/** A PATH holding node, npm and every binary the check looks for that this machine has, but turnserver. */
function pathWithout(command: string): string {
  const have = new Set<string>(['node', 'npm', 'npx', 'sh', 'env']);
  for (const p of PACKAGES as Package[]) for (const [c] of p.commands) have.add(c);
  have.delete(command);
  for (const c of have) {
    for (const dir of (process.env.PATH ?? '').split(':')) {
      if (!found(c, undefined, { PATH: dir })) continue;
      symlinkSync(path.join(dir, c), path.join(bin, c));
      break;
    }
  }
  return bin;
}

describe('npm test checks the packages it needs first', () => {
  it('without turnserver on PATH, it stops within seconds with the apt-get line for coturn', async () => {
    const started = Date.now();
    const child = spawn(process.execPath, ['scripts/test.mjs'], {
      cwd: root,
      detached: true,
      env: { ...process.env, PATH: pathWithout('turnserver'), CHROMIUM_PATH: '', CI: '' },
    });
    let output = '';
    const collect = (d: Buffer) => {
      output += d;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    // were the check to let it through, the whole suite would start: stop it, and fail
    const guard = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(guard);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(output).toMatch(/not installed: .*coturn/);
    expect(output).toMatch(/apt-get install -y [a-z0-9. -]*\bcoturn\b/);
    expect(output).not.toContain('▶'); // no step began
  }, 30_000);

  it('names every missing package once, in one install line', () => {
    const missing = missingPackages({ PATH: '', PG_BIN: '/nonexistent' }) as Package[];
    expect(missing.map((p) => p.name)).toEqual((PACKAGES as Package[]).map((p) => p.name));
    expect(installLine(missing)).toBe(
      `apt-get update && apt-get install -y ${(PACKAGES as Package[]).map((p) => p.name).join(' ')}`,
    );
  });

  it('an environment variable that names a binary is what counts for it', () => {
    expect(found('chromium', 'CHROMIUM_PATH', { PATH: '', CHROMIUM_PATH: process.execPath })).toBe(true);
    expect(found('chromium', 'CHROMIUM_PATH', { PATH: '/usr/bin', CHROMIUM_PATH: '/nonexistent/chromium' })).toBe(
      false,
    );
  });
});
