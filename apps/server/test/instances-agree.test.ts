import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlaybackTokens } from '../src/domains/recordings/tokens';
import { loadConfig } from '../src/platform/config';
import { createFieldCipher } from '../src/platform/field-cipher';
import { SharedSecrets } from '../src/platform/shared-secrets';
import { startupVerdict } from '../src/startup-verdict';
import { makeVmUsage } from './catalog-fixtures';
import { createTestApp, freshDatabaseUrl, type TestApp } from './helpers';

/**
 * Two instances on one database agree on every key that signs: a payment signed by the test gateway
 * of one is accepted by the other, and so are a course's playback token and a recording link. With
 * TEST_DATABASE_URL the two run at once on one PostgreSQL database; on PGlite (one process owns its
 * data folder) the second is the first one restarted on the same folder. No key is configured: the
 * first start stores them in the database.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const dataDir = mkdtempSync(path.join(tmpdir(), 'tl-instances-'));
let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
const url = () => (onPostgres ? database.url : path.join(dataDir, 'pglite'));
// the same field key on both, as the settings of several instances must say
const env = {
  LOGIN_RATE_LIMIT: '1000',
  DATA_DIR: dataDir,
  FIELD_ENCRYPTION_KEYS: `shared:${randomBytes(32).toString('base64')}`,
};

let a: TestApp;
let b: TestApp | null = null;
/** the second instance: beside the first on PostgreSQL, the first restarted on PGlite */
async function second(): Promise<TestApp> {
  if (b) return b;
  if (!onPostgres) await a.close();
  b = await createTestApp(env, { databaseUrl: url() });
  return b;
}

beforeAll(async () => {
  database = await freshDatabaseUrl();
  a = await createTestApp(env, { databaseUrl: url() });
});
afterAll(async () => {
  await b?.close();
  if (onPostgres) await a.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('instances on one database agree on their signing keys', () => {
  it('a test-gateway payment, a course playback token and a recording link made by one are accepted by the other', async () => {
    expect(a.deps.config.TEST_GATEWAY_SECRET).toBeUndefined();
    const { token, user } = await a.loginAs({ role: 'provider' });
    const learner = await a.createUser({ role: 'user' });
    await makeVmUsage(a, user.id, [3_000]);
    const order = await a.post('vm-checkout', {}, token);
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const paid = await a.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    expect(paid.status).toBe(200);
    const courseToken = new PlaybackTokens(() => a.deps.secrets.get('COURSE_MEDIA_SECRET')).sign(999_999, learner.id);
    const recordingToken = new PlaybackTokens(() => a.deps.secrets.get('RECORDING_URL_SECRET')).sign(
      999_999,
      learner.id,
    );

    const other = await second();
    // the browser's signed callback reaches the other instance
    const saved = await other.post(
      'save-vm-payment-data',
      {
        payment_id: paid.body.razorpay_payment_id,
        razorpay_order_id: order.body.order_id,
        razorpay_signature: paid.body.razorpay_signature,
      },
      token,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // genuine tokens: past the signature check to "no such topic / recording" (a forged one is a 401)
    const media = (t: string) => other.app.inject({ method: 'GET', url: `/api/course-media/${t}/master.m3u8` });
    expect((await media(courseToken)).statusCode).toBe(404);
    const forged = new PlaybackTokens('a-key-of-no-instance-at-all').sign(999_999, learner.id);
    expect((await media(forged)).statusCode).toBe(401);
    const file = (t: string) => other.app.inject({ method: 'GET', url: `/api/recording-file/999999?t=${t}` });
    expect((await file(recordingToken)).statusCode).toBe(404);
    expect((await file(forged)).statusCode).toBe(401);
  });

  it('production refuses to start when a signing key is neither configured nor stored, and starts once they are', async () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://trainlab.example',
      STAGING_TEST_GATEWAY: 'true',
      FIELD_ENCRYPTION_KEYS: env.FIELD_ENCRYPTION_KEYS,
      COURSE_MEDIA_SECRET: 'a-configured-course-media-key',
    });
    const instance = b ?? a;
    const secrets = new SharedSecrets(config);
    const refused = await startupVerdict(config, instance.deps.db, secrets);
    expect(refused.refusals.join('\n')).toContain('TEST_GATEWAY_SECRET, RECORDING_URL_SECRET');
    expect(refused.refusals.join('\n')).not.toContain('COURSE_MEDIA_SECRET');
    // what prepareDatabase does at start-up: the stored keys are read, the configured one kept
    await secrets.load(instance.deps.db);
    expect((await startupVerdict(config, instance.deps.db, secrets)).refusals).toEqual([]);
    expect(secrets.get('COURSE_MEDIA_SECRET')).toBe('a-configured-course-media-key');
    expect(secrets.get('TEST_GATEWAY_SECRET')).toBe(instance.deps.secrets.get('TEST_GATEWAY_SECRET'));
  });
});

describe('the field encryption key in the data folder', () => {
  it('instances starting together on one data folder make one key, and each reads the values of the others', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'tl-fieldkey-'));
    const module = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/platform/field-cipher.ts');
    const at = Date.now() + 3000;
    const script = `
      const { createFieldCipher } = await import(${JSON.stringify(module)});
      while (Date.now() < ${at}) {}
      process.stdout.write(createFieldCipher({ DATA_DIR: ${JSON.stringify(folder)} }).encrypt('same value'));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
    try {
      const values = await Promise.all([run(), run(), run(), run()]);
      const cipher = createFieldCipher({ DATA_DIR: folder });
      for (const v of values) expect(cipher.decrypt(v)).toBe('same value');
      // nothing but the key is left behind
      expect(readdirSync(folder)).toEqual(['field-encryption.key']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
