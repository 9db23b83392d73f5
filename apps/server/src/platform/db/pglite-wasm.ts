import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import v8 from 'node:v8';

/**
 * PGlite is PostgreSQL compiled to WebAssembly. V8 compiles it twice by default: a quick baseline
 * (Liftoff) at once, then optimised code (TurboFan) for the functions that get hot, in the
 * background. On the embedded database that second tier costs about 50–100 MB of resident memory
 * and CPU while the server starts, and measured on PGlite (docs/benchmarks.md) it made single-row
 * queries slower on a busy 2-core machine and full scans only 15–45 % faster. So the embedded
 * database keeps the baseline code unless PGLITE_WASM_TIER_UP=true. The flag is process-wide and
 * read when a module is compiled, so it is set before the first PGlite opens; nothing else in the
 * server compiles WebAssembly.
 */
let chosen = false;
export function chooseWasmTier(tierUp: boolean): void {
  if (chosen) return;
  chosen = true;
  if (!tierUp) v8.setFlagsFromString('--liftoff-only');
}

/**
 * PostgreSQL's WebAssembly compiled once per process, and its file bundle read once: a process
 * that opens PGlite again (a reopen after a broken stream, a restore, each test file of a worker)
 * skips both (about 3 s at load on a 2-core machine).
 */
let assets: Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> | undefined;
export function pgliteAssets(): Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> {
  assets ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([readFile(join(dist, 'pglite.wasm')), readFile(join(dist, 'pglite.data'))]);
    return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })();
  assets.catch(() => {
    assets = undefined;
  });
  return assets;
}
