import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer check (.dependency-cruiser.cjs, `npm run lint:layers`, a step of npm test): imports go
 * down the floors platform < adapters < domains < top (app.ts, main.ts, cli/, seed/), and no files
 * import each other in a circle at run time. Here it runs on a planted tree (a copy of the
 * configuration in a temporary folder) and on the real one.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

function cruise(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'apps/server/src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

let planted: string;

function plant(file: string, text: string) {
  const at = path.join(planted, 'apps/server/src', file);
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, text);
}

beforeAll(() => {
  planted = mkdtempSync(path.join(tmpdir(), 'trainlab-layers-'));
  copyFileSync(CONFIG, path.join(planted, '.dependency-cruiser.cjs'));
  mkdirSync(path.join(planted, 'apps/server'), { recursive: true });
  writeFileSync(
    path.join(planted, 'apps/server/tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true } }),
  );
  // allowed: down a floor, within a floor, and a circle closed only by `import type`
  plant('platform/config.ts', 'export const config = { port: 1 };\n');
  plant(
    'adapters/mail/index.ts',
    "import { config } from '../../platform/config';\nexport const mail = config.port;\n",
  );
  plant(
    'domains/a/typed.ts',
    "import type { Other } from './other';\nexport const typed = 1;\nexport type T = Other;\n",
  );
  plant(
    'domains/a/other.ts',
    "import { typed } from './typed';\nexport type Other = number;\nexport const other = typed;\n",
  );
  plant(
    'main.ts',
    "import { mail } from './adapters/mail';\nimport { other } from './domains/a/other';\nexport default [mail, other];\n",
  );
  // planted: an upward import (platform → a domain) and a circle of two domain files
  plant('domains/trainers/kyc.ts', "import { config } from '../../platform/config';\nexport const kyc = config;\n");
  plant('platform/bootstrap.ts', "import { kyc } from '../domains/trainers/kyc';\nexport const boot = kyc;\n");
  plant('domains/labs/ws.ts', "import { rdp } from './rdp';\nexport const ws = () => rdp;\n");
  plant('domains/labs/rdp.ts', "import { ws } from './ws';\nexport const rdp = () => ws;\n");
});

afterAll(() => {
  if (planted) rmSync(planted, { recursive: true, force: true });
});

describe('the layer check', () => {
  it('fails on an import going up a floor and on a circle, naming the files', async () => {
    const { code, output } = await cruise(planted);
    expect(code).not.toBe(0);
    expect(output).toContain(
      'platform-imports-up: apps/server/src/platform/bootstrap.ts → apps/server/src/domains/trainers/kyc.ts',
    );
    expect(output).toMatch(/no-circular: apps\/server\/src\/domains\/labs\/(ws|rdp)\.ts/);
    expect(output).toContain('apps/server/src/domains/labs/ws.ts');
    expect(output).toContain('apps/server/src/domains/labs/rdp.ts');
    // exactly those two: going down, and a circle closed by `import type`, are allowed
    expect(output).toMatch(/x 2 dependency violations/);
    expect(output).not.toContain('domains/a/');
    expect(output).not.toContain('adapters/mail');
  });

  it('passes on the real tree', async () => {
    const { code, output } = await cruise(ROOT);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });
});
