/// <reference path="../../apps/server/test/s3rver.d.ts" />
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { CERT_MSG } from '@trainlab/contract';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../../apps/server/test/free-port';
import { type FakeCall, serviceAccountKey, startFakeCompute } from '../../apps/server/test/gce-fake';
import { startS3 } from '../../apps/server/test/s3-support';
import { linuxVm } from '../support/labs';
import { DEMO_PASSWORD } from '../support/session';

/**
 * Issue 38, decision 0040: every engine and heavy library loaded on first use, used once through
 * the built server (`node apps/server/dist/main.js`, as `npm start` runs it), since a chunk that
 * loads under vitest or tsx may still not load from the bundle. One more server of its own (fresh
 * data folder and port) with the engines switched on and pointed at the local fakes of the server
 * tests: files on S3 (s3rver), Razorpay (a fake of its Orders API), Google Compute labs (the fake
 * Compute API), mail over SMTP (smtp-server). Each test makes the one call that loads its library.
 * The others are used on the build by their own journeys: decision 0040 lists every library and its test.
 */
test.describe.configure({ mode: 'serial' });

const serverDir = path.resolve(import.meta.dirname, '../../apps/server');
const dist = process.env.E2E_SERVER_DIST ?? path.join(serverDir, 'dist');
// E2E_FROM_SOURCE (as the journeys' own server, playwright.config.ts) runs the source through tsx instead
const fromSource = Boolean(process.env.E2E_FROM_SOURCE);
const KEY_ID = 'rzp_test_first_use';
const KEY_SECRET = 'rzp_first_use_key_secret';
const WEBHOOK_SECRET = 'rzp_first_use_webhook_secret';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let work: string;
let PORT = 0;
let BASE = '';
let server: ChildProcess;
let serverLog = '';
let s3: Awaited<ReturnType<typeof startS3>>;
let compute: Awaited<ReturnType<typeof startFakeCompute>>;
let razorpay: Server;
const orders: Record<string, unknown>[] = [];
let smtp: SMTPServer;
const mails: string[] = [];
let api: APIRequestContext;

/** A local fake of Razorpay's Orders API (the one call the SDK makes), checking the SDK's basic auth. */
async function startRazorpay(): Promise<string> {
  razorpay = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString('utf8');
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`) {
        res.statusCode = 401;
        return res.end(JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } }));
      }
      if (req.method === 'POST' && req.url === '/v1/orders') {
        const body = JSON.parse(raw || '{}') as Record<string, unknown>;
        const order = { id: `order_${randomBytes(6).toString('hex')}`, entity: 'order', status: 'created', ...body };
        orders.push(order);
        return res.end(JSON.stringify(order));
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => razorpay.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(razorpay.address() as AddressInfo).port}`;
}

async function startSmtp(): Promise<number> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      stream.on('end', () => {
        mails.push(raw);
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((r) => smtp.listen(port, '127.0.0.1', () => r()));
  return port;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  if (!fromSource)
    expect(existsSync(path.join(dist, 'main.js')), `no built server at ${dist}: npm run build`).toBe(true);
  work = mkdtempSync(path.join(tmpdir(), 'trainlab-first-use-'));
  const key = serviceAccountKey(work);
  const [s3Started, computeStarted, razorpayUrl, smtpPort] = await Promise.all([
    startS3(),
    freePort().then((p) => startFakeCompute(p, key.publicKey)),
    startRazorpay(),
    startSmtp(),
  ]);
  s3 = s3Started;
  PORT = await freePort();
  BASE = `http://127.0.0.1:${PORT}`;
  compute = computeStarted;
  const args = fromSource ? ['--import', 'tsx', 'src/main.ts'] : [path.join(dist, 'main.js')];
  server = spawn(process.execPath, args, {
    cwd: fromSource ? serverDir : path.dirname(dist),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE,
      DATA_DIR: path.join(work, 'data'),
      DATABASE_URL: '',
      MIGRATIONS_DIR: path.join(serverDir, 'drizzle'),
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      // the engines a production site switches on, each against its local fake
      ...s3.env,
      PAYMENT_GATEWAY: 'razorpay',
      RAZORPAY_KEY_ID: KEY_ID,
      RAZORPAY_KEY_SECRET: KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RAZORPAY_API_URL: razorpayUrl,
      LAB_PROVIDER: 'gce',
      GCE_KEY_FILE: key.file,
      GCE_API_ENDPOINT: compute.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'TrainLab <no-reply@first-use.test>',
      DEV_MAILBOX: 'false',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server.stderr?.on('data', (c: Buffer) => {
    serverLog += c.toString();
  });
  api = await request.newContext({ baseURL: BASE });
  for (let i = 0; ; i++) {
    const up = await api.get('/api/health').then(
      (r) => r.ok(),
      () => false,
    );
    if (up) break;
    expect(server.exitCode, `the built server stopped:\n${serverLog}`).toBeNull();
    expect(i, `the built server did not answer /api/health:\n${serverLog}`).toBeLessThan(400);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  await api?.dispose();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await Promise.all([
    s3?.close(),
    compute?.close(),
    new Promise((r) => (razorpay ? razorpay.close(r) : r(null))),
    new Promise((r) => (smtp ? smtp.close(() => r(null)) : r(null))),
  ]);
  if (work) rmSync(work, { recursive: true, force: true });
});

async function tokenOf(email: string): Promise<string> {
  const res = await api.post('/api/login', { data: { email, password: DEMO_PASSWORD, is_previous: true } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { success: { token: string } }).success.token;
}
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
async function call(token: string, name: string, data: unknown = {}) {
  return api.post(`/api/${name}`, { data, headers: auth(token) });
}

/** Every file under a folder (s3rver keeps each object as files). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('sharp and the S3 file store: a trainer picture is resized and stored on S3', async () => {
  const trainer = await tokenOf('trainer@demo.test');
  const before = filesUnder(s3.directory).length;
  const res = await api.post('/api/update-trainer-profile', {
    headers: auth(trainer),
    multipart: {
      first_name: 'Tara',
      last_name: 'Trainer',
      email: 'trainer@demo.test',
      mobile_no: '9876543210',
      email2: '',
      base_location: 'Pune',
      address: '12 Lane, Pune',
      dob: '1990-04-01',
      aadhar_no: '234567890124',
      pan_no: 'abcde1234f',
      GSTIN_no: '27abcde1234f1z0',
      state_code: '27',
      MSME_reg_no: 'udyam-mh-01-0000001',
      type_of_enterprise: 'Micro',
      category_of_service: 'Training',
      services_rendered: 'Cloud trainings',
      vat_no: '',
      experience_over_all: '8',
      profile_pic: { name: 'me.png', mimeType: 'image/png', buffer: PNG },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(filesUnder(s3.directory).length).toBeGreaterThan(before);
  const got = await call(trainer, 'get-trainer-profile');
  expect(((await got.json()) as { success: { profile_pic: string } }).success.profile_pic).toMatch(
    /^data:image\/jpeg;base64,/,
  );
});

test('xlsx: an import template is made', async () => {
  const admin = await tokenOf('admin@demo.test');
  const res = await call(admin, 'download-template', { type: 'certification' });
  expect(res.status(), await res.text()).toBe(200);
  // an .xlsx is a ZIP
  expect((await res.body()).subarray(0, 2).toString('latin1')).toBe('PK');
});

test('Razorpay SDK, the receipt PDF and nodemailer: an order at the fake API, paid by webhook, its receipt downloaded and mailed over SMTP', async () => {
  const learner = await tokenOf('user@demo.test');
  const courses = await api.post('/api/search-by-courses', { data: {} });
  expect(courses.status(), await courses.text()).toBe(200);
  const course = ((await courses.json()) as { list: { id: number; name: string; amount_paise: number }[] }).list.find(
    (c) => c.amount_paise > 0,
  );
  expect(course, 'a paid course of the demo catalogue').toBeTruthy();
  expect((await call(learner, 'add-cart', { type: 'is_course', type_id: course!.id })).status()).toBe(200);
  const checkout = await call(learner, 'checkout-cart');
  expect(checkout.status(), await checkout.text()).toBe(200);
  const order = (await checkout.json()) as { id: number; gateway: string; order_id: string; amount_paise: number };
  expect(order.gateway).toBe('razorpay');
  // the SDK called the Orders API for the server's amount, in paise
  expect(orders.map((o) => o.id)).toContain(order.order_id);
  expect(orders.find((o) => o.id === order.order_id)?.amount).toBe(order.amount_paise);
  // Razorpay's webhook says it is paid
  const event = JSON.stringify({
    event: 'payment.captured',
    payload: {
      payment: {
        entity: {
          id: `pay_${randomBytes(6).toString('hex')}`,
          order_id: order.order_id,
          amount: order.amount_paise,
          status: 'captured',
        },
      },
    },
  });
  const hook = await api.post('/webhooks/payments/razorpay', {
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': createHmac('sha256', WEBHOOK_SECRET).update(event).digest('hex'),
      'x-razorpay-event-id': `evt_${randomBytes(6).toString('hex')}`,
    },
    data: event,
  });
  expect(hook.status(), await hook.text()).toBe(200);
  const receipt = await call(learner, 'payment-receipt', { id: order.id });
  expect(receipt.status(), await receipt.text()).toBe(200);
  expect(receipt.headers()['content-type']).toContain('application/pdf');
  expect((await receipt.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // the receipt mail (a job) went out over SMTP with the PDF attached
  await expect
    .poll(() => mails.find((m) => m.includes('user@demo.test') && m.includes('application/pdf')) ?? null, {
      timeout: 30_000,
    })
    .not.toBeNull();
});

test('ExcelJS and JSZip: the results workbook and the certificates ZIP of a training', async () => {
  const provider = await tokenOf('provider@demo.test');
  const list = await call(provider, 'all-trainings', {});
  expect(list.status(), await list.text()).toBe(200);
  const slug = ((await list.json()) as { list: { slug: string }[] }).list[0]?.slug;
  expect(slug, 'a training of the demo provider').toBeTruthy();
  const workbook = await call(provider, 'export-assessment-results', { slug });
  expect(workbook.status(), await workbook.text()).toBe(200);
  expect((await workbook.body()).subarray(0, 2).toString('latin1')).toBe('PK');
  // JSZip loads before the learners are looked at: the demo training has no certificate yet, which is
  // a 404 with its message (a library that did not load would be a 500)
  const zip = await call(provider, 'download-training-certificates', { slug });
  expect(zip.status(), await zip.text()).toBe(404);
  expect(await zip.text()).toContain(CERT_MSG.noCertificates);
});

test('Google Compute Engine: a lab is created through the Compute client against its fake API', async () => {
  const provider = await tokenOf('provider@demo.test');
  // the demo provider's lab account is registered and signed in already (apps/server/src/seed/demo.ts)
  const before = compute.calls.length;
  const res = await call(provider, 'gc-create-vm', linuxVm());
  expect(res.status(), await res.text()).toBe(200);
  const inserts = compute.calls
    .slice(before)
    .filter((c: FakeCall) => c.method === 'POST' && /\/instances$/.test(c.path));
  expect(inserts).toHaveLength(1);
});
