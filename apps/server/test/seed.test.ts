import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../src/seed/demo';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  await seedDemo(t.deps.db);
});
afterAll(() => t.close());

const login = async (email: string) => {
  const res = await t.post('login', { email, password: DEMO_PASSWORD });
  expect(res.status, email).toBe(200);
  return res.body.success.token as string;
};

describe('demo data', () => {
  it('every demo account signs in with its role', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const res = await t.post('login', { email: account.email, password: DEMO_PASSWORD });
      expect(res.body.success.roles, account.email).toEqual([account.role]);
    }
  });

  it('gives each role something real to look at', async () => {
    const provider = await login('provider@demo.test');
    expect((await t.post('all-trainings', {}, provider)).body.list).toHaveLength(1);
    const learner = await login('learner@demo.test');
    expect((await t.post('lpu/get-trainings', {}, learner)).body.list).toHaveLength(1);
    const org = await login('org@demo.test');
    expect((await t.post('all-trainings', {}, org)).body.list).toHaveLength(1);
    const subadmin = await login('orgadmin@demo.test');
    expect((await t.post('all-trainings', {}, subadmin)).body.list).toHaveLength(1);
    const trainer = await login('trainer@demo.test');
    expect((await t.post('trainer/assigned-trainings', {}, trainer)).body.list).toHaveLength(1);
    const admin = await login('admin@demo.test');
    const accepted = await t.post('admin/new-org-subadmin-request', { type: 'accepted' }, admin);
    expect(accepted.body.list.map((r: { email: string }) => r.email)).toContain('orgadmin@demo.test');
    expect((await t.post('service-list', {}, admin)).body.list).toHaveLength(3);
  });
});
