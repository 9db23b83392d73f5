import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { BANK_HEADER, bankRow, uploadBank } from './assessments-fixtures';
import { makeVmUsage } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { memberBody, orgWithOwner } from './org-fixtures';
import { TEST_SECRET } from './payments-support';
import { makeTraining, person, trainingBody } from './trainings-fixtures';

/**
 * The database failing at each write step of an audited call (a failing statement injected with
 * a trigger, on PGlite and PostgreSQL alike): the change and its audit row are both committed or
 * both absent. A statement-level trigger on every table counts the call's writes with a sequence
 * (sequences ignore rollbacks) and fails the k-th one as a terminated connection does (57P01); the
 * call answers 503 with Retry-After and every table is exactly as before. With no fault, the same
 * call changes its tables and writes one audit row.
 */
let t: TestApp;
let admin: string;
let provider: { token: string; id: number };
let org: string;

type Res = { status: number; body: unknown };
interface Case {
  action: string;
  /** what one attempt needs, made before the fault is armed (a fresh name, a training to delete) */
  prepare: () => Promise<() => Promise<Res>>;
}

const fresh = () => Math.random().toString(36).slice(2, 8);

const CASES: Case[] = [
  {
    action: 'create-category',
    prepare: async () => () => t.post('create-category', { name: `Category ${fresh()}` }, admin),
  },
  {
    action: 'create-training',
    prepare: async () => () => t.post('create-training', trainingBody({ name: `Training ${fresh()}` }), provider.token),
  },
  {
    // an account, its enrolment, its set-password link and the mail in the outbox
    action: 'lp/add-training-user',
    prepare: async () => {
      const training = await makeTraining(t, provider.token, { name: `Enrol ${fresh()}` });
      return () => t.post('lp/add-training-user', { ...person(fresh()), slug: training.slug }, provider.token);
    },
  },
  {
    action: 'org/add-org-user',
    prepare: async () => () => t.post('org/add-org-user', memberBody(), org),
  },
  {
    // an import: its own transaction becomes a savepoint of the call's
    action: 'upload-question-bank',
    prepare: async () => () =>
      uploadBank(t, [BANK_HEADER, bankRow(`One ${fresh()}?`), bankRow(`Two ${fresh()}?`)], org),
  },
  {
    // an order under an advisory lock, its lines
    action: 'vm-checkout',
    prepare: async () => {
      await makeVmUsage(t, provider.id, [1_500]);
      return () => t.post('vm-checkout', {}, provider.token);
    },
  },
  {
    action: 'delete-trainings',
    prepare: async () => {
      const training = await makeTraining(t, provider.token, { name: `Doomed ${fresh()}` });
      return () => t.post('delete-trainings', { slug: training.slug }, provider.token);
    },
  },
];

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', TEST_GATEWAY_SECRET: TEST_SECRET });
  admin = (await t.loginAs({ role: 'admin' })).token;
  const p = await t.loginAs({ role: 'provider' });
  provider = { token: p.token, id: p.user.id };
  org = (await orgWithOwner(t)).token;
  await armFaults();
});
afterAll(() => t?.close());

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A trigger on every table: the `at`-th write statement from now fails (0: none does). */
async function armFaults(): Promise<void> {
  await t.deps.db.execute(sql.raw('create sequence tl_fault_seq'));
  await failAt(0);
  const tables = rowsOf<{ tablename: string }>(
    await t.deps.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`),
  );
  for (const { tablename } of tables) {
    await t.deps.db.execute(
      sql.raw(
        `create trigger tl_fault before insert or update or delete on "${tablename}" for each statement execute function tl_fault()`,
      ),
    );
  }
}

async function failAt(at: number): Promise<void> {
  await t.deps.db.execute(
    sql.raw(`create or replace function tl_fault() returns trigger language plpgsql as $$
      begin
        if nextval('tl_fault_seq') = ${at} then
          raise exception 'terminating connection due to administrator command' using errcode = '57P01';
        end if;
        return null;
      end $$`),
  );
  await t.deps.db.execute(sql.raw(`select setval('tl_fault_seq', 1, false)`));
}

/** How many write statements ran since the last failAt. */
async function writesCounted(): Promise<number> {
  const [row] = rowsOf<{ last_value: string | number; is_called: boolean }>(
    await t.deps.db.execute(sql.raw('select last_value, is_called from tl_fault_seq')),
  );
  return row!.is_called ? Number(row!.last_value) : 0;
}

/** Every table's rows, as a digest per table. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = rowsOf<{ tablename: string }>(
    await t.deps.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`),
  );
  const out: Record<string, string> = {};
  for (const { tablename } of tables) {
    const [row] = rowsOf<{ n: number; digest: string }>(
      await t.deps.db.execute(
        sql.raw(
          `select count(*)::int as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as digest from "${tablename}" x`,
        ),
      ),
    );
    out[tablename] = `${row!.n}:${row!.digest}`;
  }
  return out;
}

const changedTables = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(b).filter((k) => a[k] !== b[k]);

const auditRows = async (action: string) =>
  (await t.deps.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.action, action))).length;

describe('an audited change and its audit row are committed together or not at all', () => {
  for (const c of CASES) {
    it(`${c.action}: a fault at each write step leaves every table as it was`, async () => {
      // the call once without a fault: its writes are counted, its change and its row are there
      const first = await c.prepare();
      const rowsBefore = await auditRows(c.action);
      const before = await snapshot();
      await failAt(0);
      const ok = await first();
      const steps = await writesCounted();
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(await auditRows(c.action)).toBe(rowsBefore + 1);
      const changed = changedTables(before, await snapshot());
      expect(changed).toContain('audit_log');
      expect(changed.filter((x) => x !== 'audit_log').length, `${c.action} changed nothing`).toBeGreaterThan(0);
      // the audit row is a step of its own, after the change
      expect(steps).toBeGreaterThanOrEqual(2);

      for (let step = 1; step <= steps; step++) {
        const attempt = await c.prepare();
        const state = await snapshot();
        await failAt(step);
        const res = await attempt();
        await failAt(0);
        expect(res.status, `${c.action}, fault at write ${step} of ${steps}: ${JSON.stringify(res.body)}`).toBe(503);
        expect(changedTables(state, await snapshot()), `${c.action}, fault at write ${step} of ${steps}`).toEqual([]);
      }
      expect(await auditRows(c.action)).toBe(rowsBefore + 1);
    }, 120_000);
  }

  it('a refused change (422) leaves no write and no row', async () => {
    const rowsBefore = await auditRows('lp/add-training-user');
    const training = await makeTraining(t, provider.token, { name: `Twice ${fresh()}` });
    const learner = person(fresh());
    expect((await t.post('lp/add-training-user', { ...learner, slug: training.slug }, provider.token)).status).toBe(
      200,
    );
    const state = await snapshot();
    const again = await t.post('lp/add-training-user', { ...learner, slug: training.slug }, provider.token);
    expect(again.status).toBe(422);
    expect(changedTables(state, await snapshot())).toEqual([]);
    expect(await auditRows('lp/add-training-user')).toBe(rowsBefore + 1);
  });
});
