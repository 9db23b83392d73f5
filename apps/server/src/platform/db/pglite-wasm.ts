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
