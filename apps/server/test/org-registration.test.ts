import { MSG, ORG_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../src/db/schema';
import { createTestApp, PASSWORD, type TestApp } from './helpers';
import { expectGuarded, uniqueEmail } from './org-fixtures';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  admin = (await t.loginAs({ role: 'admin' })).token;
});
afterAll(() => t.close());

const orgBody = (over: Record<string, unknown> = {}) => ({
  name: 'Globex Learning',
  email: uniqueEmail('globex'),
  org_domain: 'globex.example',
  sp_link: 'https://globex.example/saml/sp',
  ip_link: 'https://idp.globex.example/saml',
  description: 'Corporate academy',
  ...over,
});

const ADMIN_LISTS = ['get-organizations', 'get-orgs', 'get-org-approved', 'get-org-approve'];

describe('POST /api/create-organization', () => {
  it('is public: the organization waits for approval and the applicant gets a receipt', async () => {
    const body = orgBody({ org_domain: '@Globex.Example' });
    const res = await t.post('create-organization', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: ORG_MSG.organizationRegistered, id: expect.any(Number) });
    const [row] = await t.deps.db.select().from(organizations).where(eq(organizations.id, res.body.id));
    expect(row).toMatchObject({
      name: 'Globex Learning',
      email: body.email,
      org_domain: 'globex.example',
      is_approved: 0,
      status: 1,
      slug: res.body.slug,
    });
    expect((await t.outbox()).some((m) => m.to === body.email)).toBe(true);
    // not offered to registering accounts until approved
    expect((await t.post('get-org-register')).body.list.some((o: { id: number }) => o.id === row!.id)).toBe(false);
  });

  it('sp_link and description are optional; a parent organization may be named', async () => {
    const parent = await t.createOrganization();
    const res = await t.post(
      'create-organization',
      orgBody({ sp_link: '', description: undefined, org_id: parent.id }),
    );
    expect(res.status).toBe(200);
    const [row] = await t.deps.db.select().from(organizations).where(eq(organizations.id, res.body.id));
    expect(row).toMatchObject({ sp_link: null, description: null, parent_id: parent.id });
  });

  it('422 per field, and nothing is stored', async () => {
    const before = (await t.deps.db.select().from(organizations)).length;
    const res = await t.post('create-organization', {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      name: ['The name field is required.'],
      email: ['The email field is required.'],
      org_domain: ['The org domain field is required.'],
      ip_link: ['The ip link field is required.'],
    });
    const bad = await t.post(
      'create-organization',
      orgBody({ email: 'nope', sp_link: 'not a link', ip_link: 'ftp://x', org_domain: 'a b', org_id: 999999 }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.email).toEqual(['The email must be a valid email address.']);
    expect(bad.body.sp_link).toEqual(['The sp link must be a valid URL.']);
    expect(bad.body.ip_link).toEqual(['The ip link must be a valid URL.']);
    expect(bad.body.org_domain).toEqual(['The org domain format is invalid.']);
    const parent = await t.post('create-organization', orgBody({ org_id: 999999 }));
    expect(parent.body).toEqual({ org_id: ['The selected org id is invalid.'] });
    expect(await t.deps.db.select().from(organizations)).toHaveLength(before);
  });

  it('422 when the e-mail already registered an organization', async () => {
    const body = orgBody();
    expect((await t.post('create-organization', body)).status).toBe(200);
    const again = await t.post('create-organization', orgBody({ email: body.email.toUpperCase() }));
    expect(again.status).toBe(422);
    expect(again.body.email).toEqual([ORG_MSG.emailTaken]);
  });
});

describe('admin organization lists', () => {
  it('401 without a token, 403 for every role but admin', async () => {
    await expectGuarded(t, [...ADMIN_LISTS, 'org-approved', 'org-status'], ['admin'], {
      org_id: 1,
      status: 1,
      is_approved: 1,
    });
  });

  it('full records; approved and waiting lists split on is_approved', async () => {
    const waiting = await t.post('create-organization', orgBody({ name: 'Waiting Org' }));
    const approved = await t.createOrganization({ name: 'Approved Org', description: 'Approved one' });
    const all = await t.post('get-organizations', {}, admin);
    expect(all.status).toBe(200);
    const record = all.body.list.find((o: { id: number }) => o.id === approved.id);
    expect(record).toEqual({
      id: approved.id,
      slug: approved.slug,
      name: 'Approved Org',
      email: approved.email,
      description: 'Approved one',
      status: 1,
      is_approved: 1,
      org_domain: approved.org_domain,
      sp_link: null,
      ip_link: approved.ip_link,
      org_id: null,
      created_at: approved.created_at.toISOString(),
    });
    expect((await t.post('get-orgs', undefined, admin)).body.list).toEqual(all.body.list);
    const ids = async (path: string) =>
      (await t.post(path, {}, admin)).body.list.map((o: { id: number }) => o.id) as number[];
    expect(await ids('get-org-approved')).toContain(approved.id);
    expect(await ids('get-org-approved')).not.toContain(waiting.body.id);
    expect(await ids('get-org-approve')).toContain(waiting.body.id);
    expect(await ids('get-org-approve')).not.toContain(approved.id);
  });

  it('pages, searches and sorts on the server; a bad sort or page size is a 422', async () => {
    const tag = `pg${Date.now().toString(36)}`;
    for (let i = 0; i < 5; i++) await t.createOrganization({ name: `${tag} Org ${i}` });
    const first = await t.post('get-organizations', { search: tag, per_page: 2, sort: '-name' }, admin);
    expect(first.body).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(first.body.list.map((o: { name: string }) => o.name)).toEqual([`${tag} Org 4`, `${tag} Org 3`]);
    const last = await t.post('get-organizations', { search: tag, per_page: 2, page: 3, sort: 'name' }, admin);
    expect(last.body.list.map((o: { name: string }) => o.name)).toEqual([`${tag} Org 4`]);
    expect((await t.post('get-org-approved', { search: tag }, admin)).body.total).toBe(5);
    expect((await t.post('get-org-approve', { search: tag }, admin)).body.total).toBe(0);
    expect((await t.post('get-organizations', { sort: 'password' }, admin)).status).toBe(422);
    expect((await t.post('get-organizations', { per_page: 101 }, admin)).status).toBe(422);
    expect((await t.post('get-organizations', { per_page: 100 }, admin)).status).toBe(200);
  });
});

describe('approval: 0 → 1 (Yes) → 0 (No)', () => {
  it('approving mails the organization and lets its accounts in; withdrawing shuts them out again', async () => {
    const body = orgBody({ name: 'Initech' });
    const created = await t.post('create-organization', body);
    const orgId = created.body.id as number;
    const owner = await t.createUser({ role: 'organization', organization_id: orgId });
    const login = () => t.post('login', { email: owner.email, password: PASSWORD });

    const blocked = await login();
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(MSG.accountInactive);
    expect(blocked.body.code).toBe('account_inactive');

    const mailsBefore = (await t.outbox()).filter((m) => m.to === body.email).length;
    const yes = await t.post('org-approved', { org_id: orgId, is_approved: 1 }, admin);
    expect(yes).toEqual({
      status: 200,
      body: { message: ORG_MSG.organizationApproved, org_id: orgId, is_approved: 1, status: 1 },
    });
    const mails = (await t.outbox()).filter((m) => m.to === body.email);
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails.at(-1)!.subject).toMatch(/approved/i);
    const ok = await login();
    expect(ok.status).toBe(200);
    const session = ok.body.success.token as string;
    expect((await t.post('get-org-register')).body.list.map((o: { id: number }) => o.id)).toContain(orgId);

    // approving twice changes nothing and mails nobody again
    expect((await t.post('org-approved', { org_id: orgId, is_approved: '1' }, admin)).status).toBe(200);
    expect((await t.outbox()).filter((m) => m.to === body.email)).toHaveLength(mailsBefore + 1);

    const no = await t.post('org-approved', { org_id: orgId, is_approved: 0 }, admin);
    expect(no.body).toMatchObject({ message: ORG_MSG.organizationUnapproved, is_approved: 0 });
    // the open session is revoked and no new one can start
    expect((await t.post('change-password', {}, session)).status).toBe(401);
    expect((await login()).status).toBe(403);
  });

  it('404 for an unknown organization, 422 on bad input', async () => {
    expect((await t.post('org-approved', { org_id: 999999, is_approved: 1 }, admin)).status).toBe(404);
    const bad = await t.post('org-approved', { is_approved: 5 }, admin);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body).sort()).toEqual(['is_approved', 'org_id']);
  });
});

describe('activation: /org-status', () => {
  it('deactivating keeps the organization and all its accounts out and revokes their sessions', async () => {
    const org = await t.createOrganization();
    const owner = await t.loginAs({ role: 'organization', organization_id: org.id });
    const member = await t.loginAs({ role: 'organization_user', organization_id: org.id });
    const sub = await t.loginAs({ role: 'org_subadmin', organization_id: org.id });
    const outsider = await t.loginAs({ role: 'organization_user', organization_id: (await t.createOrganization()).id });

    const off = await t.post('org-status', { org_id: org.id, status: 0 }, admin);
    expect(off.body).toEqual({ message: ORG_MSG.organizationDeactivated, org_id: org.id, is_approved: 1, status: 0 });
    for (const a of [owner, member, sub]) {
      expect((await t.post('change-password', {}, a.token)).status).toBe(401);
      const res = await t.post('login', { email: a.user.email, password: PASSWORD });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(MSG.accountInactive);
      expect(res.body.code).toBe('account_inactive');
    }
    // another organization's session is untouched
    expect((await t.post('current-token', { email: outsider.user.email }, outsider.token)).body).toBe(outsider.token);
    expect((await t.post('get-org-register')).body.list.map((o: { id: number }) => o.id)).not.toContain(org.id);

    const on = await t.post('org-status', { org_id: org.id, status: 1 }, admin);
    expect(on.body).toMatchObject({ message: ORG_MSG.organizationActivated, status: 1 });
    expect((await t.post('login', { email: member.user.email, password: PASSWORD })).status).toBe(200);
  });

  it('404 for an unknown organization, 422 without fields', async () => {
    expect((await t.post('org-status', { org_id: 999999, status: 0 }, admin)).status).toBe(404);
    const bad = await t.post('org-status', {}, admin);
    expect(bad.body).toEqual({ org_id: ['The org id field is required.'], status: ['The status field is required.'] });
  });
});
