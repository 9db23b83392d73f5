/**
 * What each library costs the process that loads it (decision 0040): for each, a fresh node
 * process imports it alone from apps/server and reports the milliseconds of the import and the
 * resident memory it added, beside a process importing nothing (the first row, subtracted from the
 * others). Which of them load at start on the default configuration is the last column: the rest
 * load with their engine or their feature's first call.
 *
 *   npx tsx bench/startup-profile.ts
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server');

const AT_START = [
  'fastify',
  'drizzle-orm',
  'zod',
  'jose',
  'argon2',
  '@electric-sql/pglite',
  'pg',
  '@tus/server',
  'prom-client',
  'ics',
];
const ON_USE = [
  '@google-cloud/compute',
  '@aws-sdk/client-s3',
  'razorpay',
  'janode',
  'ioredis',
  'nodemailer',
  '@node-saml/node-saml',
  'openid-client',
  'selfsigned',
  'pdf-lib',
  '@pdf-lib/fontkit',
  'qrcode',
  'sharp',
  'exceljs',
  'xlsx',
  'jszip',
  'ssh2',
];

function measure(spec: string | null): { ms: number; mb: number } {
  const code = `const r0 = process.memoryUsage().rss; const t0 = performance.now();
    ${spec ? `await import(${JSON.stringify(spec)});` : 'await Promise.resolve();'}
    console.log(JSON.stringify({ ms: performance.now() - t0, mb: (process.memoryUsage().rss - r0) / 1048576 }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: server, encoding: 'utf8' });
  return JSON.parse(out);
}

const before = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const empty = measure(null);
console.log(`One import per fresh process; load average before ${before}`);
console.log('| module | ms | MB | loaded at start |');
console.log('| --- | --- | --- | --- |');
for (const spec of [...AT_START, ...ON_USE]) {
  const m = measure(spec);
  const mb = Math.max(0, m.mb - empty.mb);
  console.log(
    `| ${spec} | ${Math.round(m.ms)} | ${mb.toFixed(1)} | ${AT_START.includes(spec) ? 'yes' : 'no: with its engine or first call'} |`,
  );
}
