import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import type { TestApp } from './helpers';
import { expectGuarded } from './org-fixtures';
import { bankBody, trainerTestApp } from './trainers-support';

let t: TestApp;
let cleanup: () => Promise<void>;
let admin: string;
let tanvi: { token: string; id: number };
let ravi: { token: string; id: number };
let accountId: number;

beforeAll(async () => {
  ({ t, cleanup } = await trainerTestApp());
  admin = (await t.loginAs({ role: 'admin' })).token;
  const a = await t.loginAs({ role: 'trainer', first_name: 'Tanvi', last_name: 'Rao' });
  const b = await t.loginAs({ role: 'trainer', first_name: 'Ravi', last_name: 'Kumar' });
  tanvi = { token: a.token, id: a.user.id };
  ravi = { token: b.token, id: b.user.id };
  accountId = (await t.post('add-bank-details', bankBody(), tanvi.token)).body.id;
  await t.post('add-bank-details', bankBody({ bank_name: 'HDFC Bank', account_number: '998877665544' }), tanvi.token);
  await t.post(
    'add-bank-details',
    bankBody({ bank_name: 'Axis Bank', bank_account_name: 'Ravi Kumar', account_number: '111122223333' }),
    ravi.token,
  );
});
afterAll(() => cleanup());

describe('/admin-bank-details-list', () => {
  it('401 without a token, 403 for every role but the admin', async () => {
    await expectGuarded(t, ['admin-bank-details-list'], ['admin']);
  });

  it("lists every trainer's accounts with the trainer, numbers masked; paged, searched and sorted", async () => {
    const res = await t.post('admin-bank-details-list', { sort: 'trainer_name' }, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, page: 1 });
    expect(res.body.list.map((r: { trainer_name: string }) => r.trainer_name)).toEqual([
      'Ravi Kumar',
      'Tanvi Rao',
      'Tanvi Rao',
    ]);
    expect(res.body.list[0]).toMatchObject({
      trainer_id: ravi.id,
      bank_name: 'Axis Bank',
      account_number: 'XXXXXXXX3333',
      ifsc_code: 'SBIN0001234',
    });
    const raw = JSON.stringify(res.body);
    for (const whole of ['123456789012', '998877665544', '111122223333']) expect(raw).not.toContain(whole);

    const paged = await t.post('admin-bank-details-list', { per_page: 2, page: 2, sort: 'trainer_name' }, admin);
    expect(paged.body).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(paged.body.list).toHaveLength(1);
    const searched = await t.post('admin-bank-details-list', { search: 'hdfc' }, admin);
    expect(searched.body.list.map((r: { bank_name: string }) => r.bank_name)).toEqual(['HDFC Bank']);
    expect((await t.post('admin-bank-details-list', { search: 'ravi' }, admin)).body.total).toBe(1);
  });

  it('422 for a bad page or sort', async () => {
    const res = await t.post('admin-bank-details-list', { page: 0, sort: 'account_number' }, admin);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body).sort()).toEqual(['page', 'sort']);
  });
});

describe('the admin reads one account whole', () => {
  it('whole for the admin, and the reveal is in the audit trail; other trainers get 404', async () => {
    const whole = await t.post('get-bank-details', { id: accountId }, admin);
    expect(whole.status).toBe(200);
    expect(whole.body.success.account_number).toBe('123456789012');
    const rows = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'get-bank-details'), eq(auditLog.target_id, String(accountId))));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_role: 'admin', target_type: 'trainer-bank-details' });
    expect(JSON.stringify(rows[0])).not.toContain('123456789012');

    // its trainer reads it whole without an audit row; another trainer does not see it
    expect((await t.post('get-bank-details', { id: accountId }, tanvi.token)).body.success.account_number).toBe(
      '123456789012',
    );
    expect((await t.post('get-bank-details', { id: accountId }, ravi.token)).status).toBe(404);
    const after = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'get-bank-details'));
    expect(after).toHaveLength(1);
  });

  it('managers and learners may not read it (403)', async () => {
    for (const role of ['provider', 'organization', 'user'] as const) {
      const who = await t.loginAs({
        role,
        ...(role === 'organization' ? { organization_id: (await t.createOrganization()).id } : {}),
      });
      expect((await t.post('get-bank-details', { id: accountId }, who.token)).status).toBe(403);
    }
  });
});
