// Bundles the server into dist/ with esbuild: our workspace packages are inlined (they ship as
// TypeScript), every npm dependency stays external and is loaded from node_modules. Code splitting
// keeps what the source imports on first use (an engine's module, PDFs, SSO) in chunks of its own,
// so their libraries load with them and not at start (decision 0040); the chunks sit beside
// main.js, where the code's import.meta.url paths expect them.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { externalImportsResolve } from './external-imports.mjs';

// --outdir <folder>: another output folder beside dist/ (the start-up modules test builds its own)
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? process.argv[at + 1] : 'dist';
// the chunks' names change with their contents: last build's would pile up
if (existsSync(outdir)) {
  for (const f of readdirSync(outdir)) if (/\.js(\.map)?$/.test(f)) rmSync(path.join(outdir, f));
}
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@trainlab/'));

await build({
  entryPoints: { main: 'src/main.ts', 'create-admin': 'src/cli/create-admin.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  splitting: true,
  chunkNames: '[name]-[hash]',
  sourcemap: true,
  external: [...external, ...external.map((d) => `${d}/*`)],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
  // fails the build on an npm import Node's ES module resolver would not load (a deep path without its extension)
  plugins: [externalImportsResolve],
});
console.log(`server built: apps/server/${outdir}`);
