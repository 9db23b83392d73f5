// The loader hooks of module-recorder.mjs (they run on the loader's own thread).
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let out = '';
export function initialize(data) {
  out = data.out;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith('file:')) appendFileSync(out, `${fileURLToPath(result.url)}\n`);
  return result;
}
