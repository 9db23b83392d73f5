// Preloaded with `node --import` by the start-up footprint test: on exit the process writes every
// module it loaded (ES modules through the loader's resolve hook, CommonJS from require.cache) to
// the file named by MODULE_RECORD, one path a line.
import { appendFileSync, writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const out = process.env.MODULE_RECORD;
if (out) {
  writeFileSync(out, '');
  register('./module-recorder-hooks.mjs', import.meta.url, { data: { out } });
  process.on('exit', () => {
    const cjs = Object.keys(Module._cache);
    appendFileSync(out, `${cjs.join('\n')}\n`);
  });
}
export const recorded = (url) => (url.startsWith('file:') ? fileURLToPath(url) : url);
