// Imports every chunk of the built server (apps/server/dist, or the folder given) in a fresh Node
// process with the production settings, as `npm start` would load them on first use (decision 0040:
// engines and heavy libraries live in chunks loaded on demand). A chunk whose import fails — a
// library missing from node_modules, a path Node's ES module resolver refuses — fails the check,
// named with the module it could not load; otherwise it would fail only at a user's first use.
// The entry points (main.js, create-admin.js) are not imported: importing them starts the server or
// the command. Chunks have a hash in their name ([name]-[hash].js, apps/server/scripts/build.mjs).
//
//   node scripts/check-server-chunks.mjs [dist folder]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'apps/server/dist'));
if (!existsSync(path.join(dist, 'main.js'))) {
  console.error(`No built server at ${dist}: run npm run build first.`);
  process.exit(1);
}
const CHUNK = /-[A-Z0-9]{8}\.js$/;
const chunks = readdirSync(dist)
  .filter((f) => CHUNK.test(f))
  .sort();
if (!chunks.length) {
  console.error(`No chunks in ${dist}: the build is not split as apps/server/scripts/build.mjs splits it.`);
  process.exit(1);
}

// One fresh process imports them all, one after another, and reports each failure as a JSON line.
const probe = `
const chunks = ${JSON.stringify(chunks.map((c) => pathToFileURL(path.join(dist, c)).href))};
for (const url of chunks) {
  try {
    await import(url);
  } catch (e) {
    console.log(JSON.stringify({ chunk: url.slice(url.lastIndexOf('/') + 1), code: e?.code ?? null, message: String(e?.message ?? e) }));
  }
}
`;
const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], {
  cwd: dist,
  encoding: 'utf8',
  // production as npm start runs it; nothing here may start a server or reach a service
  env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' },
  timeout: 120_000,
});
const failures = (run.stdout ?? '')
  .split('\n')
  .filter((l) => l.startsWith('{'))
  .map((l) => JSON.parse(l));
if (run.status !== 0 && !failures.length) {
  console.error(`Importing the chunks of ${dist} failed (exit ${run.status ?? run.signal}):\n${run.stderr}`);
  process.exit(1);
}
for (const f of failures) {
  const missing = /Cannot find (?:module|package) '([^']+)'/.exec(f.message)?.[1];
  console.error(
    `✘ ${f.chunk}: ${missing ? `cannot load ${missing}` : 'fails to load'}${f.code ? ` (${f.code})` : ''}\n    ${f.message.split('\n')[0]}`,
  );
}
if (failures.length) {
  console.error(`${failures.length} of ${chunks.length} chunks of ${dist} do not load.`);
  process.exit(1);
}
console.log(`All ${chunks.length} chunks of ${dist} load with NODE_ENV=production.`);
