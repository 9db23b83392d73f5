import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linesOfBusiness, users } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const valid = (over: Record<string, unknown> = {}) => ({
  first_name: 'Neha',
  last_name: 'Sharma',
  password: 'Password1!',
  mobile_no: '9876543210',
  email: `neha-${Math.random().toString(36).slice(2)}@example.test`,
  user_type: 2,
  ...over,
});

describe('POST /api/register', () => {
  it('user_type 2 is active at once and can log in', async () => {
    const body = valid();
    const res = await t.post('register', body);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MSG.registeredUser);
    expect(res.body.success).toMatchObject({ roles: ['user'], email: body.email, token: '' });
    const [row] = await t.deps.db.select().from(users).where(eq(users.email, body.email));
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    const login = await t.post('login', { email: body.email, password: body.password });
    expect(login.status).toBe(200);
    expect(login.body.success.roles).toEqual(['user']);
  });

  it('user_type 3 waits for approval and cannot log in until approved', async () => {
    const body = valid({ user_type: 3 });
    const res = await t.post('register', body);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MSG.registeredAwaitingApproval);
    expect(res.body.success.roles).toEqual(['provider']);
    const denied = await t.post('login', { email: body.email, password: body.password });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(MSG.awaitingApproval);
    expect(denied.body.code).toBe('awaiting_approval');
    await t.deps.db.update(users).set({ is_approved: 1 }).where(eq(users.email, body.email));
    expect((await t.post('login', { email: body.email, password: body.password })).status).toBe(200);
  });

  it('user_type 6 needs an approved organization and a line of business', async () => {
    const missing = await t.post('register', valid({ user_type: 6 }));
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body).sort()).toEqual(['lob_id', 'org_id']);

    const pendingOrg = await t.createOrganization({ is_approved: 0 });
    const [lob] = await t.deps.db.insert(linesOfBusiness).values({ name: 'Retail' }).returning();
    const bad = await t.post('register', valid({ user_type: 6, org_id: pendingOrg.id, lob_id: lob!.id }));
    expect(bad.status).toBe(422);
    expect(bad.body.org_id).toEqual(['The selected org id is invalid.']);

    const org = await t.createOrganization();
    const body = valid({ user_type: 6, org_id: org.id, lob_id: lob!.id });
    const ok = await t.post('register', body);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(MSG.registeredAwaitingApproval);
    const [row] = await t.deps.db.select().from(users).where(eq(users.email, body.email));
    expect(row).toMatchObject({ organization_id: org.id, lob_id: lob!.id, is_approved: 0, roles: ['organization'] });
    expect((await t.post('login', { email: body.email, password: body.password })).status).toBe(403);
  });

  it.each([
    ['first_name', { first_name: '' }, 'The first name field is required.'],
    ['last_name', { last_name: '   ' }, 'The last name field is required.'],
    ['email', { email: 'nope' }, 'The email must be a valid email address.'],
    ['password', { password: 'short' }, 'The password must be at least 8 characters.'],
    ['mobile_no', { mobile_no: '' }, 'The mobile no field is required.'],
    ['mobile_no', { mobile_no: 'abc' }, 'The mobile no must be a valid phone number.'],
    ['user_type', { user_type: 1 }, 'The selected user type is invalid.'],
    ['user_type', { user_type: undefined }, 'The user type field is required.'],
  ])('422 on %s', async (field, over, message) => {
    const before = await t.deps.db.select().from(users);
    const res = await t.post('register', valid(over));
    expect(res.status).toBe(422);
    expect(res.body[field]).toEqual([message]);
    expect(await t.deps.db.select().from(users)).toHaveLength(before.length);
  });

  it('422 when the e-mail is taken (case-insensitive)', async () => {
    const body = valid();
    await t.post('register', body);
    const again = await t.post('register', valid({ email: body.email.toUpperCase() }));
    expect(again.status).toBe(422);
    expect(again.body.email).toEqual(['The email has already been taken.']);
  });

  it('cannot self-register as admin or any other role', async () => {
    for (const type of [1, 4, 5, 7, 8]) {
      const res = await t.post('register', valid({ user_type: type }));
      expect(res.status).toBe(422);
    }
  });
});
