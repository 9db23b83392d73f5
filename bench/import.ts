/**
 * Excel import benchmark: 10,000 (or the argument's number of) valid rows of every import kind (training users, syllabus topics,
 * certifications, question bank) through the whole call (multipart upload → row count → worker
 * parse → validation → chunked inserts in one transaction), each in a process of its own so its
 * peak memory is its own. The baseline, measured in the same run on the same engine: the same
 * number of rows inserted straight into one table, in the same chunks, with no HTTP, parsing or
 * validation.
 *
 *   npx tsx bench/import.ts [rows]                    (PGlite in a temporary folder)
 *   BENCH_DATABASE_URL=postgres://…/db npx tsx bench/import.ts [rows]   (PGlite, then PostgreSQL)
 *   BENCH_DATABASE_NAME=… names the throwaway PostgreSQL database (otherwise a random name)
 *   BENCH_ENGINES=PostgreSQL or PGlite runs one engine only; BENCH_SETTLE_MS (20 s) is the pause
 *   between the server's start and the measured call
 *   BENCH_KINDS='baseline,question bank' runs those kinds only
 *   BENCH_NODE_FLAGS='--max-old-space-size=256' runs every kind's process with those node flags: a
 *   kind that holds more than the heap allows dies in the call, and the table says so
 *   BENCH_GC_EVERY_MS=1000 forces a full collection that often during the call and adds the highest
 *   heap left after one (what the call holds, without the garbage that RSS counts)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CERTIFICATION_IMPORT_COLUMNS, IMPORT_TEMPLATES } from '@trainlab/contract';
import pg from 'pg';
import type * as XLSXTypes from 'xlsx';
import { buildApp } from '../apps/server/src/app';
import { closeDeps, createDeps } from '../apps/server/src/bootstrap';
import { certificationMasters, syllabusTopics, users } from '../apps/server/src/db/schema';
import { hashPassword } from '../apps/server/src/platform/auth/passwords';
import { loadConfig } from '../apps/server/src/platform/config';
import { insertChunked } from '../apps/server/src/platform/db/insert-chunked';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof XLSXTypes;
const ROWS = Number(process.argv[2] ?? 10_000);
const KINDS = ['baseline', 'training users', 'syllabus', 'certifications', 'question bank'] as const;
type Kind = (typeof KINDS)[number];
type Cell = string | number | null;
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const GC_EVERY_MS = Number(process.env.BENCH_GC_EVERY_MS ?? 0);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

function workbook(header: readonly string[], rows: Cell[][]): Buffer {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([[...header], ...rows]), 'Sheet1');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true, bookSST: true }) as Buffer;
}

const cert = IMPORT_TEMPLATES.certification.sample as Record<string, Cell>;
const bank = IMPORT_TEMPLATES['question-bank'];
const FILES: Record<Exclude<Kind, 'baseline'>, { call: string; role: 'provider' | 'admin'; file: () => Buffer }> = {
  'training users': {
    call: 'lp/import-training-user',
    role: 'provider',
    file: () =>
      workbook(
        IMPORT_TEMPLATES['training-user'].columns,
        Array.from({ length: ROWS }, (_, i) => [`First${i}`, `Last${i}`, `learner${i}@bench.test`, 9000000000 + i]),
      ),
  },
  syllabus: {
    call: 'upload-training-syllabus',
    role: 'provider',
    file: () =>
      workbook(
        IMPORT_TEMPLATES['training-syllabus'].columns,
        Array.from({ length: ROWS }, (_, i) => [`Topic ${i}`, null, null]),
      ),
  },
  certifications: {
    call: 'upload-certification-master',
    role: 'admin',
    file: () =>
      workbook(
        CERTIFICATION_IMPORT_COLUMNS,
        Array.from({ length: ROWS }, (_, i) =>
          CERTIFICATION_IMPORT_COLUMNS.map((c) => (c === 'name' ? `Certification ${i}` : (cert[c] ?? null))),
        ),
      ),
  },
  'question bank': {
    call: 'upload-question-bank',
    role: 'provider',
    file: () =>
      workbook(
        bank.columns,
        Array.from({ length: ROWS }, (_, i) =>
          bank.columns.map((c) =>
            c === 'question' ? `Question ${i}?` : c === 'correct_option' ? (i % 4) + 1 : (bank.sample[c] ?? null),
          ),
        ),
      ),
  },
};

function multipart(fields: Record<string, string>, file: Buffer) {
  const boundary = `----bench${randomBytes(6).toString('hex')}`;
  const parts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const payload = Buffer.concat([
    ...parts,
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * One kind on one database, in this process: prints {calling, heapMb} as the measured call starts,
 * then {ms, peakMb, growthMb, held, status} once it has ended.
 */
async function child(kind: Kind, url: string, file: string | undefined) {
  const gc = (globalThis as { gc?: () => void }).gc;
  let peak = process.memoryUsage().rss;
  // RSS counts garbage V8 has not collected yet: with BENCH_GC_EVERY_MS the call is also sampled
  // right after a forced full collection, and the highest such heap is what the call holds
  let heapBefore = 0;
  let heldPeak = 0;
  let lastGc = 0;
  let measuring = false;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    if (!measuring || !GC_EVERY_MS || !gc || performance.now() - lastGc < GC_EVERY_MS) return;
    gc();
    lastGc = performance.now();
    heldPeak = Math.max(heldPeak, process.memoryUsage().heapUsed - heapBefore);
  }, 5);
  // over the product's 10,000 rows the limit is raised by configuration, as an operator would
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    IMPORT_MAX_ROWS: String(Math.max(10_000, ROWS)),
    IMPORT_MAX_FILE_BYTES: String(Math.max(5, Math.ceil(ROWS / 2_000)) * 1024 * 1024),
  });
  const deps = await createDeps(config, url);
  await deps.database.migrate();
  const app = await buildApp(deps);
  await app.ready();
  const [owner] = await deps.db
    .insert(users)
    .values({
      slug: `bench-${randomBytes(4).toString('hex')}`,
      first_name: 'Bench',
      last_name: 'Owner',
      email: `owner-${randomBytes(4).toString('hex')}@bench.test`,
      password_hash: await hashPassword('Secret@123'),
      roles: [kind === 'certifications' ? 'admin' : 'provider'],
      user_type: kind === 'certifications' ? 1 : 2,
    })
    .returning();
  await deps.db.insert(certificationMasters).values([
    { type: 'CertificationType', name: String(cert.certification_type) },
    { type: 'Product', name: String(cert.product) },
    { type: 'RolesType', name: String(cert.role) },
    { type: 'Exam', name: String(cert.exam) },
    { type: 'CertificationRoles', name: String(cert.certification_role) },
  ]);
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: owner!.email, password: 'Secret@123' },
  });
  const token = login.json().success.token as string;
  // the per-training imports go into a training of the owner's (the admin's import needs none)
  const training =
    kind === 'certifications'
      ? { id: 0, slug: '' }
      : ((
          await app.inject({
            method: 'POST',
            url: '/api/create-training',
            headers: { authorization: `Bearer ${token}` },
            payload: {
              name: 'Import benchmark',
              start_date: new Date(Date.now() + 86_400_000).toISOString(),
              end_date: new Date(Date.now() + 5 * 86_400_000).toISOString(),
              total_training_day: 1,
              number_of_participants: ROWS,
              description: 'Import benchmark',
              requirements: [],
            },
          })
        ).json() as { id: number; slug: string });
  // the file is the client's: built by the parent process, so neither its building nor its garbage
  // is in this process (a capped heap caps the server's work only)
  const upload = kind === 'baseline' ? null : multipart({ slug: training.slug }, readFileSync(file!));
  // The server's start-up work (background runners, modules loaded on first use) goes on for some
  // seconds after ready and grew the heap by up to 400 MB inside the measured window on
  // PostgreSQL: let it settle, then collect the set-up's garbage, so the growth is the call's.
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_SETTLE_MS ?? 20_000)));
  gc?.();
  const before = process.memoryUsage().rss;
  heapBefore = process.memoryUsage().heapUsed;
  // a process that dies from here on (say, past a capped heap) died in the call, not in its set-up
  console.log(JSON.stringify({ calling: true, heapMb: Number(mb(heapBefore)) }));
  peak = before;
  lastGc = performance.now();
  measuring = true;
  let status = 200;
  const t0 = performance.now();
  if (kind === 'baseline') {
    const values = Array.from({ length: ROWS }, (_, i) => ({ training_id: training.id, session_topic: `Topic ${i}` }));
    await deps.db.transaction((tx) => insertChunked(tx, syllabusTopics, values));
  } else {
    const spec = FILES[kind];
    const { payload, type } = upload!;
    const res = await app.inject({
      method: 'POST',
      url: `/api/${spec.call}`,
      headers: { 'content-type': type, authorization: `Bearer ${token}` },
      payload,
    });
    status = res.statusCode;
    if (status !== 200) console.log(JSON.stringify({ refused: res.body.slice(0, 200) }));
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  const held = GC_EVERY_MS && gc ? Number(mb(heldPeak)) : undefined;
  console.log(
    JSON.stringify({ ms: Math.round(ms), peakMb: Number(mb(peak)), growthMb: Number(mb(peak - before)), held, status }),
  );
  await app.close();
  await closeDeps(deps);
}

async function freshPg(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  // BENCH_DATABASE_NAME: one fixed throwaway database, dropped and made again for every kind
  const name =
    process.env.BENCH_DATABASE_NAME ??
    `${process.env.BENCH_DATABASE_PREFIX ?? 'bench_import'}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function parent() {
  let engines: { name: string; open: () => Promise<{ url: string; drop: () => Promise<void> }> }[] = [
    {
      name: 'PGlite',
      open: async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
        return { url: dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    },
  ];
  if (process.env.BENCH_DATABASE_URL) {
    engines.push({ name: 'PostgreSQL', open: () => freshPg(process.env.BENCH_DATABASE_URL!) });
  }
  // BENCH_ENGINES=PostgreSQL (or PGlite) runs one engine only
  if (process.env.BENCH_ENGINES)
    engines = engines.filter((e) => process.env.BENCH_ENGINES!.split(',').includes(e.name));
  // BENCH_KINDS=baseline,question bank runs those kinds only
  const kinds = process.env.BENCH_KINDS ? KINDS.filter((k) => process.env.BENCH_KINDS!.split(',').includes(k)) : KINDS;
  const heldColumn = GC_EVERY_MS > 0;
  console.log(
    `| ${ROWS} rows | engine | time | peak RSS | growth during the call |${heldColumn ? ' heap held (after gc) |' : ''}`,
  );
  console.log(`|---|---|---|---|---|${heldColumn ? '---|' : ''}`);
  const files = mkdtempSync(path.join(tmpdir(), 'bench-import-files-'));
  const fileOf = new Map<Kind, string>();
  for (const kind of kinds) {
    if (kind === 'baseline') continue;
    const file = path.join(files, `${kind.replace(/\W+/g, '-')}.xlsx`);
    writeFileSync(file, FILES[kind].file());
    fileOf.set(kind, file);
  }
  for (const engine of engines) {
    for (const kind of kinds) {
      const db = await engine.open();
      const run = spawnSync(
        process.execPath,
        [
          '--expose-gc',
          ...NODE_FLAGS,
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          String(ROWS),
          '--child',
          kind,
          db.url,
          ...(fileOf.has(kind) ? [fileOf.get(kind)!] : []),
        ],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      );
      await db.drop();
      const lines = run.stdout.trim().split('\n');
      const line = lines.find((l) => l.startsWith('{"ms"')) ?? '';
      const refused = lines.find((l) => l.startsWith('{"refused"'));
      if (refused) console.error(`${kind} on ${engine.name}: ${refused}`);
      try {
        const r = JSON.parse(line) as { ms: number; peakMb: number; growthMb: number; held?: number; status: number };
        console.log(
          `| ${kind} | ${engine.name} | ${(r.ms / 1000).toFixed(1)} s${r.status === 200 ? '' : ` (HTTP ${r.status})`} | ${r.peakMb} MB | ${r.growthMb} MB |${heldColumn ? ` ${r.held ?? '?'} MB |` : ''}`,
        );
      } catch {
        const calling = lines.find((l) => l.startsWith('{"calling"'));
        const oom = /heap out of memory/.test(run.stderr);
        const where = calling
          ? `in the call (heap after set-up: ${(JSON.parse(calling) as { heapMb: number }).heapMb} MB)`
          : 'before the call';
        console.log(
          `| ${kind} | ${engine.name} | failed ${where}: ${oom ? 'heap out of memory' : run.stderr.slice(-300)} | | |`,
        );
      }
    }
  }
  rmSync(files, { recursive: true, force: true });
}

const childAt = process.argv.indexOf('--child');
if (childAt > 0) await child(process.argv[childAt + 1] as Kind, process.argv[childAt + 2]!, process.argv[childAt + 3]);
else await parent();
