import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 38: the bundle `npm start` runs kept `@node-saml/node-saml/lib/xml` as an import Node's ES
 * module resolver refuses (no extension), and nothing saw it until a user's first SAML sign-in. Two
 * checks now: the build fails on such an import, and `scripts/check-server-chunks.mjs` (a step of
 * `npm test` after the build) imports every chunk of the output in a fresh production process.
 */
const server = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'tl-build-checks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Bundles `source` as build.mjs does, with its check, in a Node process of its own (the check asks
 * Node's own resolver, which vitest's module runner does not offer): the errors, or null.
 */
function bundle(name: string, source: string): string | null {
  const entry = path.join(work, `${name}.mjs`);
  writeFileSync(entry, source);
  const script = `
import { build } from 'esbuild';
import { externalImportsResolve } from './scripts/external-imports.mjs';
await build({
  entryPoints: [${JSON.stringify(entry)}],
  outdir: ${JSON.stringify(path.join(work, `${name}-out`))},
  bundle: true, platform: 'node', format: 'esm', logLevel: 'silent', write: false,
  external: ['@node-saml/node-saml', '@node-saml/node-saml/*', 'no-such-package-38'],
  plugins: [externalImportsResolve],
}).then(() => console.log('built'), (e) => console.log((e.errors ?? []).map((x) => x.text).join('\\n')));
`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: server, encoding: 'utf8' });
  expect(res.stderr).toBe('');
  return res.stdout.trim() === 'built' ? null : res.stdout;
}

describe('the build refuses an import Node cannot load from the bundle', () => {
  it("fails on a package's deep path without its extension, imported statically or on first use", () => {
    const fixed = bundle(
      'static',
      "import { getVerifiedXml } from '@node-saml/node-saml/lib/xml';\nconsole.log(getVerifiedXml);",
    );
    expect(fixed).toContain('@node-saml/node-saml/lib/xml');
    expect(fixed).toContain("Node's ES module resolver adds no extension");
    const later = bundle('dynamic', "export const load = () => import('@node-saml/node-saml/lib/xml');");
    expect(later).toContain('@node-saml/node-saml/lib/xml');
  });

  it('fails on a package that is not installed', () => {
    expect(bundle('missing', "import x from 'no-such-package-38';\nconsole.log(x);")).toContain('no-such-package-38');
  });

  it("passes the package's public entry point, a full file name, built-ins and a CommonJS require", () => {
    const ok = bundle(
      'ok',
      [
        "import { SAML } from '@node-saml/node-saml';",
        "import * as xml from '@node-saml/node-saml/lib/xml.js';",
        "import { readFileSync } from 'node:fs';",
        "import path from 'path';",
        "import { createRequire } from 'node:module';",
        // require resolves by CommonJS rules, which do add the extension
        "createRequire(import.meta.url)('@node-saml/node-saml/lib/xml');",
        'console.log(SAML, xml, readFileSync, path);',
      ].join('\n'),
    );
    expect(ok).toBeNull();
  });
});

describe('scripts/check-server-chunks.mjs', () => {
  /** A built-server folder inside apps/server (whose node_modules the chunks resolve from). */
  function plantedDist(chunks: Record<string, string>) {
    const dir = path.join(server, 'dist', `planted-${path.basename(work)}-${Object.keys(chunks).length}`);
    mkdirSync(dir, { recursive: true });
    // importing the entry would start a server: the check must never do it
    writeFileSync(path.join(dir, 'main.js'), "throw new Error('the entry point was imported');\n");
    for (const [name, text] of Object.entries(chunks)) writeFileSync(path.join(dir, name), text);
    return dir;
  }
  const check = (dir: string) =>
    spawnSync(process.execPath, [path.join(server, '../../scripts/check-server-chunks.mjs'), dir], {
      encoding: 'utf8',
    });
  afterAll(() => {
    for (const n of [1, 3])
      rmSync(path.join(server, 'dist', `planted-${path.basename(work)}-${n}`), { recursive: true, force: true });
  });

  it('fails naming the chunk and the module when a chunk imports one that does not load', () => {
    const dir = plantedDist({
      'saml-AAAA1111.js':
        "import { getVerifiedXml } from '@node-saml/node-saml/lib/xml';\nexport { getVerifiedXml };\n",
      'pdf-BBBB2222.js': "import 'no-such-package-38';\n",
      'oidc-CCCC3333.js': "import * as client from 'openid-client';\nexport { client };\n",
    });
    const res = check(dir);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/saml-AAAA1111\.js: cannot load .*@node-saml\/node-saml\/lib\/xml/);
    expect(res.stderr).toContain('pdf-BBBB2222.js: cannot load no-such-package-38');
    expect(res.stderr).not.toContain('oidc-CCCC3333.js');
    expect(res.stderr).toContain('2 of 3 chunks');
  });

  it('passes when every chunk loads, without importing the entry point', () => {
    const dir = plantedDist({ 'oidc-CCCC3333.js': "import * as client from 'openid-client';\nexport { client };\n" });
    const res = check(dir);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('All 1 chunks');
  });
});
