import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainingUsers } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { makeTraining } from './trainings-fixtures';

/** Calls made the way the original product's own client makes them (issue: fixes found by a real client). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

/** A POST with no body and no content type, as older clients send calls without parameters. */
const bare = (path: string, token: string) =>
  t.app.inject({ method: 'POST', url: `/api/${path}`, headers: { authorization: `Bearer ${token}` } });

describe('/lpu/get-trainings (My Trainings) for every non-admin role', () => {
  const roles = ['user', 'provider', 'provider_user', 'organization', 'organization_user', 'trainer'] as const;

  it.each(roles)('%s gets its enrolments, an empty list when there are none, with a bodiless POST', async (role) => {
    const org = role.startsWith('organization') ? await t.createOrganization() : null;
    const { token, user } = await t.loginAs({ role, organization_id: org?.id ?? null });
    const empty = await bare('lpu/get-trainings', token);
    expect(empty.statusCode).toBe(200);
    expect(JSON.parse(empty.body).list).toEqual([]);

    const provider = await t.loginAs({ role: 'provider' });
    const training = await makeTraining(t, provider.token);
    await t.deps.db.insert(trainingUsers).values({ training_id: training.id, user_id: user.id });
    const mine = await bare('lpu/get-trainings', token);
    expect(mine.statusCode).toBe(200);
    expect(JSON.parse(mine.body).list.map((r: { slug: string }) => r.slug)).toEqual([training.slug]);
  });

  it('stays closed to the admin and to anonymous callers', async () => {
    const admin = await t.loginAs({ role: 'admin' });
    expect((await t.post('lpu/get-trainings', {}, admin.token)).status).toBe(403);
    expect((await t.post('lpu/get-trainings', {})).status).toBe(401);
  });
});

describe('/logout as existing clients send it', () => {
  it('{"token": null} ends the bearer session', async () => {
    const { token } = await t.loginAs();
    const res = await t.post('logout', { token: null }, token);
    expect(res.status).toBe(200);
    expect((await t.post('change-password', {}, token)).status).toBe(401);
  });

  it('a bodiless logout ends the bearer session', async () => {
    const { token } = await t.loginAs();
    expect((await bare('logout', token)).statusCode).toBe(200);
    expect((await t.post('lpu/get-trainings', {}, token)).status).toBe(401);
  });

  it("another account's token in the body ends only the caller's own session", async () => {
    const me = await t.loginAs();
    const other = await t.loginAs();
    expect((await t.post('logout', { token: other.token }, me.token)).status).toBe(200);
    expect((await t.post('lpu/get-trainings', {}, me.token)).status).toBe(401);
    expect((await t.post('lpu/get-trainings', {}, other.token)).status).toBe(200);
  });
});

describe('admin lists accept the numeric type older clients send', () => {
  let admin: string;
  let waitingEmail: string;
  let approvedEmail: string;
  beforeAll(async () => {
    admin = (await t.loginAs({ role: 'admin' })).token;
    waitingEmail = (await t.createUser({ role: 'provider', is_approved: 0 })).email;
    approvedEmail = (await t.createUser({ role: 'provider', is_approved: 1 })).email;
  });
  const emails = (res: { body: { list: { email: string }[] } }) => res.body.list.map((r) => r.email);

  it.each([
    0,
    '0',
    'request',
  ])('/admin/get-users-list type %j lists the accounts waiting for approval', async (type) => {
    const res = await t.post('admin/get-users-list', { role: 3, type }, admin);
    expect(res.status).toBe(200);
    expect(emails(res)).toContain(waitingEmail);
    expect(emails(res)).not.toContain(approvedEmail);
  });

  it.each([1, '1'])('/admin/get-users-list type %j lists the accepted accounts', async (type) => {
    const res = await t.post('admin/get-users-list', { role: 3, type }, admin);
    expect(res.status).toBe(200);
    expect(emails(res)).toContain(approvedEmail);
    expect(emails(res)).not.toContain(waitingEmail);
  });

  it.each([0, 1, '0', '1', 'request'])('/admin/new-org-subadmin-request accepts type %j', async (type) => {
    const res = await t.post('admin/new-org-subadmin-request', { type }, admin);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.list)).toBe(true);
  });
});
