/**
 * Excel import benchmark: 10,000 valid certification rows through the whole pipeline
 * (multipart upload → worker parse → row validation → master lookup → one transaction), on an
 * in-memory PGlite database. Run from the repository root: npx tsx bench/import.ts [rows]
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { CERTIFICATION_IMPORT_COLUMNS, certificationImportRow, IMPORT_TEMPLATES } from '@trainlab/contract';
import type * as XLSXTypes from 'xlsx';
import { buildApp } from '../apps/server/src/app';
import { certificationMasters, users } from '../apps/server/src/db/schema';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import { closeDeps, createDeps } from '../apps/server/src/platform/bootstrap';
import { loadConfig } from '../apps/server/src/platform/config';
import { importRows } from '../apps/server/src/platform/excel';

const require = createRequire(import.meta.url);
const XLSX = require('xlsx') as typeof XLSXTypes;

const ROWS = Number(process.argv[2] ?? 10_000);
const sample = IMPORT_TEMPLATES.certification.sample as Record<string, string | number>;

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function buildFile(): Buffer {
  const header = [...CERTIFICATION_IMPORT_COLUMNS];
  const rows = Array.from({ length: ROWS }, (_, i) =>
    header.map((c) =>
      c === 'name' ? `Certification ${i + 1}` : c === 'cost_doller' ? 100 + (i % 50) : (sample[c] ?? ''),
    ),
  );
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([header, ...rows]), 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

async function main() {
  const file = buildFile();
  console.log(`file: ${ROWS} rows, ${mb(file.length)} (.xlsx)`);

  // 1. the pipeline alone: worker parse + validation
  const rssBefore = process.memoryUsage().rss;
  let t0 = performance.now();
  const rows = await importRows({
    file,
    filename: 'bench.xlsx',
    schema: certificationImportRow,
    columns: IMPORT_TEMPLATES.certification.columns,
    maxRows: ROWS,
  });
  const parseMs = performance.now() - t0;
  console.log(`importRows (parse in worker + validate): ${rows.length} rows in ${parseMs.toFixed(0)} ms`);

  // 2. the whole call, through HTTP, into the database
  const deps = await createDeps(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), 'memory://');
  const app = await buildApp(deps);
  await app.ready();
  await deps.db.insert(certificationMasters).values([
    { type: 'CertificationType', name: String(sample.certification_type) },
    { type: 'Product', name: String(sample.product) },
    { type: 'RolesType', name: String(sample.role), description: 'd' },
    { type: 'Exam', name: String(sample.exam), description: 'd', overview: 'o' },
    { type: 'CertificationRoles', name: String(sample.certification_role) },
  ]);
  await deps.db.insert(users).values({
    slug: 'bench-admin',
    first_name: 'Bench',
    last_name: 'Admin',
    email: 'bench-admin@example.test',
    password_hash: await hashPassword('Secret@123'),
    roles: ['admin'],
    user_type: 1,
  });
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: 'bench-admin@example.test', password: 'Secret@123' },
  });
  const token = login.json().success.token as string;
  const boundary = `----bench${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  t0 = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/upload-certification-master',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
    payload,
  });
  const callMs = performance.now() - t0;
  console.log(`POST /api/upload-certification-master: ${res.statusCode} ${res.body} in ${callMs.toFixed(0)} ms`);

  clearInterval(sampler);
  const maxRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    `peak memory (whole process, worker included): ${mb(Math.max(peakRss, maxRss))}; rss before import ${mb(rssBefore)}`,
  );
  await app.close();
  await closeDeps(deps);
  if (res.statusCode !== 200) process.exitCode = 1;
}

await main();
