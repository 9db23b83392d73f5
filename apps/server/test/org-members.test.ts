import { MSG, ORG_MSG, SET_PASSWORD_LINK_DAYS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgMemberships, orgSubadminRequests, passwordResets, users } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, memberBody, orgWithOwner, setPasswordFromMail, tokenFor } from './org-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

const userByEmail = async (email: string) => (await t.deps.db.select().from(users).where(eq(users.email, email)))[0];

describe('POST /api/org/add-org-subadmin', () => {
  it('is for organization accounts only', async () => {
    await expectGuarded(t, ['org/add-org-subadmin'], ['organization'], memberBody());
    expect((await t.post('org/add-org-subadmin', memberBody(), await tokenFor(t, 'org_subadmin'))).status).toBe(403);
  });

  it('creates a pending sub-admin with a request row and mails a 7-day set-password link', async () => {
    const a = await orgWithOwner(t);
    const branch = (await t.post('org/add-branch', { name: 'Mumbai' }, a.token)).body.id;
    const department = (await t.post('org/add-department', { name: 'HR' }, a.token)).body.id;
    const body = memberBody({ branch_id: branch, department_id: String(department), section_id: '' });
    const res = await t.post('org/add-org-subadmin', body, a.token);
    expect(res).toEqual({
      status: 200,
      body: { message: ORG_MSG.recordAdded, id: expect.any(Number), slug: expect.any(String) },
    });
    const user = await userByEmail(body.email);
    expect(user).toMatchObject({
      id: res.body.id,
      roles: ['org_subadmin'],
      user_type: 8,
      organization_id: a.organization.id,
      is_approved: 0,
      password_hash: null,
    });
    const [request] = await t.deps.db
      .select()
      .from(orgSubadminRequests)
      .where(eq(orgSubadminRequests.user_id, user!.id));
    expect(request).toMatchObject({
      organization_id: a.organization.id,
      branch_id: branch,
      department_id: department,
      section_id: null,
      status: 0,
    });
    const [membership] = await t.deps.db.select().from(orgMemberships).where(eq(orgMemberships.user_id, user!.id));
    expect(membership).toMatchObject({
      organization_id: a.organization.id,
      branch_id: branch,
      department_id: department,
    });

    const mail = (await t.outbox()).filter((m) => m.to === body.email).at(-1)!;
    expect(mail.text).toContain('http://app.test/reset-password/');
    const [reset] = await t.deps.db.select().from(passwordResets).where(eq(passwordResets.user_id, user!.id));
    const days = (reset!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(SET_PASSWORD_LINK_DAYS - 0.01);
    expect(days).toBeLessThanOrEqual(SET_PASSWORD_LINK_DAYS);
    // the stored value is a hash, not the token in the mail
    expect(mail.text).not.toContain(reset!.token_hash);

    // the password can be chosen at once, but sign-in waits for the admin
    const password = await setPasswordFromMail(t, body.email);
    const login = await t.post('login', { email: body.email, password });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe(MSG.awaitingApproval);
    expect(login.body.code).toBe('awaiting_approval');
  });

  it('422 per field; ids of another organization’s lists are refused; nothing is stored', async () => {
    const a = await orgWithOwner(t);
    const b = await orgWithOwner(t);
    const foreignBranch = (await t.post('org/add-branch', { name: 'Foreign' }, b.token)).body.id;
    const taken = await t.createUser();
    const before = (await t.deps.db.select().from(users)).length;
    const empty = await t.post('org/add-org-subadmin', {}, a.token);
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      email: ['The email field is required.'],
      mobile_no: ['The mobile no field is required.'],
    });
    const bad = await t.post(
      'org/add-org-subadmin',
      memberBody({ email: 'x', mobile_no: 'abc', section_id: 'q' }),
      a.token,
    );
    expect(bad.body).toEqual({
      email: ['The email must be a valid email address.'],
      mobile_no: ['The mobile no must be a valid phone number.'],
      section_id: ['The section id must be a number.'],
    });
    const foreign = await t.post(
      'org/add-org-subadmin',
      memberBody({ email: taken.email.toUpperCase(), branch_id: foreignBranch, department_id: 999999 }),
      a.token,
    );
    expect(foreign).toEqual({
      status: 422,
      body: {
        email: [ORG_MSG.emailTaken],
        branch_id: ['The selected branch id is invalid.'],
        department_id: ['The selected department id is invalid.'],
      },
    });
    expect(await t.deps.db.select().from(users)).toHaveLength(before);
    expect(await t.deps.db.select().from(orgSubadminRequests)).toHaveLength(1);
  });
});

describe('POST /api/org/add-org-user', () => {
  it('is for organization accounts and org sub-admins', async () => {
    await expectGuarded(t, ['org/add-org-user'], ['organization', 'org_subadmin'], memberBody());
  });

  it('creates an approved organization user who signs in after choosing a password', async () => {
    const a = await orgWithOwner(t);
    const sub = await t.loginAs({ role: 'org_subadmin', organization_id: a.organization.id });
    for (const token of [a.token, sub.token]) {
      const body = memberBody();
      const res = await t.post('org/add-org-user', body, token);
      expect(res.status).toBe(200);
      expect(await userByEmail(body.email)).toMatchObject({
        roles: ['organization_user'],
        user_type: 5,
        is_approved: 1,
        organization_id: a.organization.id,
      });
      const mail = (await t.outbox()).filter((m) => m.to === body.email).at(-1)!;
      expect(mail.text).toMatch(/reset-password\/[A-Za-z0-9_-]{40,}/);
      const password = await setPasswordFromMail(t, body.email);
      const login = await t.post('login', { email: body.email, password });
      expect(login.status).toBe(200);
      expect(login.body.success.roles).toEqual(['organization_user']);
    }
    expect(
      await t.deps.db
        .select()
        .from(orgSubadminRequests)
        .where(eq(orgSubadminRequests.organization_id, a.organization.id)),
    ).toHaveLength(0);
  });

  it('422 for a taken e-mail', async () => {
    const a = await orgWithOwner(t);
    const body = memberBody();
    expect((await t.post('org/add-org-user', body, a.token)).status).toBe(200);
    const again = await t.post('org/add-org-user', memberBody({ email: body.email }), a.token);
    expect(again).toEqual({ status: 422, body: { email: [ORG_MSG.emailTaken] } });
  });
});
