import { MSG, ORG_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linesOfBusiness, orgSubadminRequests, users } from '../src/db/schema';
import { createTestApp, PASSWORD, type TestApp } from './helpers';
import { expectGuarded, memberBody, orgWithOwner, setPasswordFromMail, uniqueEmail } from './org-fixtures';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  admin = (await t.loginAs({ role: 'admin' })).token;
});
afterAll(() => t.close());

const userRow = async (id: number) => (await t.deps.db.select().from(users).where(eq(users.id, id)))[0]!;
const mailsTo = async (email: string) => (await t.outbox()).filter((m) => m.to === email);

/** A learning provider registered through /register: waiting for approval. */
async function registeredProvider() {
  const email = uniqueEmail('provider');
  const res = await t.post('register', {
    first_name: 'Pia',
    last_name: 'Provider',
    email,
    password: PASSWORD,
    mobile_no: '9876543210',
    user_type: 3,
  });
  expect(res.status).toBe(200);
  const [row] = await t.deps.db.select().from(users).where(eq(users.email, email));
  return row!;
}

describe('admin approval calls are admin-only', () => {
  it('401 and 403', async () => {
    await expectGuarded(
      t,
      [
        'admin/get-users-list',
        'admin/get-child-users-list',
        'admin/update-learninig-provider-request',
        'admin/new-org-subadmin-request',
        'admin/update-org-subadmin-request',
        'admin/dashboard-data',
      ],
      ['admin'],
      { role: 3, type: 'request', slug: 'x', id: 1, odid: 1, status: 1 },
    );
  });
});

describe('learning provider requests', () => {
  it('/admin/get-users-list: type "request" lists the waiting providers, anything else the approved ones', async () => {
    const waiting = await registeredProvider();
    const approved = await t.createUser({ role: 'provider' });
    const rejected = await t.createUser({ role: 'provider', is_approved: 2 });
    const user = await t.createUser({ role: 'user', is_approved: 0 });
    const requests = await t.post('admin/get-users-list', { role: 3, type: 'request' }, admin);
    expect(requests.status).toBe(200);
    const ids = (list: { id: number }[]) => list.map((u) => u.id);
    expect(ids(requests.body.list)).toContain(waiting.id);
    for (const id of [approved.id, rejected.id, user.id]) expect(ids(requests.body.list)).not.toContain(id);
    expect(requests.body.list.find((u: { id: number }) => u.id === waiting.id)).toEqual({
      id: waiting.id,
      slug: waiting.slug,
      first_name: 'Pia',
      last_name: 'Provider',
      email: waiting.email,
      mobile_no: '9876543210',
      status: 1,
      is_approved: 0,
      created_at: waiting.created_at.toISOString(),
    });
    const providers = await t.post('admin/get-users-list', { role: '3', type: 'approved' }, admin);
    expect(ids(providers.body.list)).toContain(approved.id);
    expect(ids(providers.body.list)).not.toContain(waiting.id);
    expect(ids(providers.body.list)).not.toContain(rejected.id);
    expect((await t.post('admin/get-users-list', { role: 'provider' }, admin)).body).toEqual(providers.body);
  });

  it('/admin/get-users-list pages, searches and sorts on the server', async () => {
    const tag = `lp${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await t.createUser({ role: 'provider', first_name: `${tag}${i}` });
    const page = await t.post(
      'admin/get-users-list',
      { role: 3, search: tag, per_page: 2, sort: '-first_name' },
      admin,
    );
    expect(page.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(page.body.list.map((u: { first_name: string }) => u.first_name)).toEqual([`${tag}2`, `${tag}1`]);
    const next = await t.post('admin/get-users-list', { role: 3, search: tag, per_page: 2, page: 2 }, admin);
    expect(next.body.list).toHaveLength(1);
    expect((await t.post('admin/get-users-list', { role: 3, sort: 'password_hash' }, admin)).status).toBe(422);
  });

  it('/admin/get-users-list 422 on role', async () => {
    expect((await t.post('admin/get-users-list', {}, admin)).body).toEqual({ role: ['The role field is required.'] });
    expect((await t.post('admin/get-users-list', { role: 42 }, admin)).body).toEqual({
      role: ['The selected role is invalid.'],
    });
  });

  it('accept: 0 → 1, mails "approved, you can log in", and the provider signs in', async () => {
    const p = await registeredProvider();
    expect((await t.post('login', { email: p.email, password: PASSWORD })).status).toBe(403);
    const res = await t.post('admin/update-learninig-provider-request', { id: p.id, status: 1 }, admin);
    expect(res).toEqual({ status: 200, body: { message: ORG_MSG.requestAccepted, is_approved: 1 } });
    expect((await userRow(p.id)).is_approved).toBe(1);
    const mail = (await mailsTo(p.email)).at(-1)!;
    expect(mail.text).toMatch(/approved, you can log in/);
    expect((await t.post('login', { email: p.email, password: PASSWORD })).status).toBe(200);
    // a decided request cannot be decided again
    const again = await t.post('admin/update-learninig-provider-request', { id: p.id, status: 0 }, admin);
    expect(again).toEqual({ status: 422, body: { status: [ORG_MSG.requestAlreadyProcessed] } });
    expect((await userRow(p.id)).is_approved).toBe(1);
  });

  it('reject: 0 → 2, mails the applicant, and sign-in stays closed', async () => {
    const p = await registeredProvider();
    const res = await t.post('admin/update-learninig-provider-request', { id: p.id, status: '0' }, admin);
    expect(res.body).toEqual({ message: ORG_MSG.requestRejected, is_approved: 2 });
    expect((await userRow(p.id)).is_approved).toBe(2);
    expect((await mailsTo(p.email)).at(-1)!.subject).toMatch(/not approved/);
    const login = await t.post('login', { email: p.email, password: PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe(MSG.awaitingApproval);
    expect(login.body.code).toBe('awaiting_approval');
  });

  it('404 for an unknown id or an account that is not a provider or organization account', async () => {
    const plain = await t.createUser({ role: 'user', is_approved: 0 });
    for (const id of [999999, plain.id]) {
      expect((await t.post('admin/update-learninig-provider-request', { id, status: 1 }, admin)).status).toBe(404);
    }
    expect((await userRow(plain.id)).is_approved).toBe(0);
    const bad = await t.post('admin/update-learninig-provider-request', { status: 7 }, admin);
    expect(bad.body).toEqual({ id: ['The id field is required.'], status: ['The selected status is invalid.'] });
  });

  it('/admin/get-child-users-list: the provider users of that provider only', async () => {
    const a = await t.createUser({ role: 'provider' });
    const b = await t.createUser({ role: 'provider' });
    const mine = await t.createUser({ role: 'provider_user', provider_id: a.id, first_name: 'Kiran' });
    await t.createUser({ role: 'provider_user', provider_id: b.id });
    const res = await t.post('admin/get-child-users-list', { slug: a.slug }, admin);
    expect(res.status).toBe(200);
    expect(res.body.list).toEqual([
      {
        id: mine.id,
        slug: mine.slug,
        first_name: 'Kiran',
        last_name: 'provider_user',
        email: mine.email,
        mobile_no: '9876543210',
        status: 1,
        created_at: mine.created_at.toISOString(),
      },
    ]);
    expect((await t.post('admin/get-child-users-list', { slug: 'no-such-provider' }, admin)).status).toBe(404);
    expect((await t.post('admin/get-child-users-list', { slug: mine.slug }, admin)).status).toBe(404);
    expect((await t.post('admin/get-child-users-list', {}, admin)).body).toEqual({
      slug: ['The slug field is required.'],
    });
  });
});

describe('org sub-admin requests', () => {
  async function proposed(orgName = 'Sub Org') {
    const a = await orgWithOwner(t, { name: orgName });
    const body = memberBody();
    const res = await t.post('org/add-org-subadmin', body, a.token);
    expect(res.status).toBe(200);
    const [request] = await t.deps.db
      .select()
      .from(orgSubadminRequests)
      .where(eq(orgSubadminRequests.user_id, res.body.id));
    const password = await setPasswordFromMail(t, body.email);
    return { ...a, body, userId: res.body.id as number, odid: request!.id, password };
  }

  it('/admin/new-org-subadmin-request lists pending requests with organization and line of business', async () => {
    const p = await proposed('Lob Org');
    const [lob] = await t.deps.db.insert(linesOfBusiness).values({ name: 'Aviation' }).returning();
    await t.deps.db.update(users).set({ lob_id: lob!.id }).where(eq(users.id, p.owner.id));
    const noLob = await proposed('No Lob Org');
    const res = await t.post('admin/new-org-subadmin-request', { type: 'request' }, admin);
    expect(res.status).toBe(200);
    const row = res.body.list.find((r: { odid: number }) => r.odid === p.odid);
    expect(row).toEqual({
      odid: p.odid,
      user_id: p.userId,
      slug: expect.any(String),
      first_name: 'Meera',
      last_name: 'Nair',
      email: p.body.email,
      mobile_no: '9876543210',
      oname: 'Lob Org',
      lob: 'Aviation',
      status: 0,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(res.body.list.find((r: { odid: number }) => r.odid === noLob.odid).lob).toBeNull();
    const accepted = await t.post('admin/new-org-subadmin-request', {}, admin);
    expect(accepted.body.list.map((r: { odid: number }) => r.odid)).not.toContain(p.odid);
  });

  it('accept: request 1, account approved, mail sent, sign-in opens; listed among the sub-admins', async () => {
    const p = await proposed();
    const res = await t.post('admin/update-org-subadmin-request', { odid: p.odid, status: 1 }, admin);
    expect(res).toEqual({ status: 200, body: { message: ORG_MSG.requestAccepted, is_approved: 1 } });
    expect((await userRow(p.userId)).is_approved).toBe(1);
    expect((await mailsTo(p.body.email)).at(-1)!.text).toMatch(/approved, you can log in/);
    const login = await t.post('login', { email: p.body.email, password: p.password });
    expect(login.status).toBe(200);
    expect(login.body.success.roles).toEqual(['org_subadmin']);
    const subadmins = await t.post('admin/new-org-subadmin-request', { type: 'accepted' }, admin);
    expect(subadmins.body.list.find((r: { odid: number }) => r.odid === p.odid)).toMatchObject({ status: 1 });
    const pending = await t.post('admin/new-org-subadmin-request', { type: 'request' }, admin);
    expect(pending.body.list.map((r: { odid: number }) => r.odid)).not.toContain(p.odid);
    // decided once
    const again = await t.post('admin/update-org-subadmin-request', { odid: p.odid, status: 0 }, admin);
    expect(again.status).toBe(422);
    expect((await userRow(p.userId)).is_approved).toBe(1);
  });

  it('reject: request 2, account is_approved 2, mail sent, sign-in stays closed', async () => {
    const p = await proposed();
    const res = await t.post('admin/update-org-subadmin-request', { odid: p.odid, status: 0 }, admin);
    expect(res.body).toEqual({ message: ORG_MSG.requestRejected, is_approved: 2 });
    const [request] = await t.deps.db.select().from(orgSubadminRequests).where(eq(orgSubadminRequests.id, p.odid));
    expect(request!.status).toBe(2);
    expect(request!.decided_at).toBeInstanceOf(Date);
    expect((await userRow(p.userId)).is_approved).toBe(2);
    expect((await mailsTo(p.body.email)).at(-1)!.subject).toMatch(/not approved/);
    expect((await t.post('login', { email: p.body.email, password: p.password })).status).toBe(403);
    for (const type of ['request', 'accepted']) {
      const list = (await t.post('admin/new-org-subadmin-request', { type }, admin)).body.list;
      expect(list.map((r: { odid: number }) => r.odid)).not.toContain(p.odid);
    }
  });

  it('404 for an unknown odid, 422 without fields', async () => {
    expect((await t.post('admin/update-org-subadmin-request', { odid: 999999, status: 1 }, admin)).status).toBe(404);
    expect((await t.post('admin/update-org-subadmin-request', {}, admin)).body).toEqual({
      odid: ['The odid field is required.'],
      status: ['The status field is required.'],
    });
  });
});

describe('POST /api/admin/dashboard-data', () => {
  it('counts what waits and the totals', async () => {
    const fresh = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    try {
      const { token } = await fresh.loginAs({ role: 'admin' });
      const org = await fresh.createOrganization();
      await fresh.createOrganization({ is_approved: 0 });
      await fresh.createOrganization({ is_approved: 0 });
      await fresh.createUser({ role: 'provider' });
      await fresh.createUser({ role: 'provider', is_approved: 0 });
      await fresh.createUser({ role: 'organization', organization_id: org.id, is_approved: 0 });
      const owner = await fresh.loginAs({ role: 'organization', organization_id: org.id });
      await fresh.post('org/add-org-subadmin', memberBody(), owner.token);
      await fresh.post('org/add-org-user', memberBody(), owner.token);
      const starts = new Date(Date.now() + 86_400_000);
      const created = await fresh.post(
        'create-training',
        {
          name: 'Counted training',
          start_date: starts.toISOString(),
          end_date: new Date(starts.getTime() + 86_400_000).toISOString(),
          total_training_day: 1,
          number_of_participants: 5,
          description: 'Counted on the admin home',
          requirements: [],
        },
        owner.token,
      );
      expect(created.status).toBe(200);
      const res = await fresh.post('admin/dashboard-data', {}, token);
      expect(res).toEqual({
        status: 200,
        body: {
          pending: { organizations: 2, providers: 1, organization_accounts: 1, sub_admins: 1 },
          totals: {
            organizations: 3,
            providers: 1,
            users: {
              admin: 1,
              user: 0,
              provider: 2,
              provider_user: 0,
              organization_user: 1,
              organization: 2,
              trainer: 0,
              org_subadmin: 1,
            },
            trainings: 1,
          },
        },
      });
    } finally {
      await fresh.close();
    }
  });
});
