import { ORG_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, orgWithOwner } from './org-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

const profile = (slug: string, over: Record<string, unknown> = {}) => ({
  slug,
  first_name: 'Edited',
  last_name: 'Name',
  email: `edited-${Math.random().toString(36).slice(2)}@example.test`,
  mobile_no: '9123456789',
  ...over,
});
const slugs = (list: { slug: string }[]) => list.map((u) => u.slug);

describe('managed users: who may call', () => {
  it('401, and 403 for user, provider_user, organization_user and trainer', async () => {
    await expectGuarded(
      t,
      ['get-all-lp-users', 'get-user-details', 'update-user-profile'],
      ['provider', 'organization', 'org_subadmin', 'admin'],
      profile('x'),
    );
  });
});

describe('a provider manages its own provider users', () => {
  it('lists, shows and edits them; provider B’s users answer 404', async () => {
    const a = await t.loginAs({ role: 'provider' });
    const b = await t.loginAs({ role: 'provider' });
    const mine = await t.createUser({ role: 'provider_user', provider_id: a.user.id, first_name: 'Anil' });
    const theirs = await t.createUser({ role: 'provider_user', provider_id: b.user.id });
    const plain = await t.createUser({ role: 'user' });

    const list = await t.post('get-all-lp-users', {}, a.token);
    expect(list.status).toBe(200);
    expect(list.body.list).toEqual([
      {
        id: mine.id,
        slug: mine.slug,
        first_name: 'Anil',
        last_name: 'provider_user',
        email: mine.email,
        mobile_no: '9876543210',
        roles: ['provider_user'],
        status: 1,
      },
    ]);
    const details = await t.post('get-user-details', { slug: mine.slug }, a.token);
    expect(details).toEqual({ status: 200, body: { success: list.body.list[0] } });

    for (const other of [theirs, plain, b.user]) {
      expect((await t.post('get-user-details', { slug: other.slug }, a.token)).status).toBe(404);
      const edit = await t.post('update-user-profile', profile(other.slug), a.token);
      expect(edit.status).toBe(404);
    }
    const [unchanged] = await t.deps.db.select().from(users).where(eq(users.id, theirs.id));
    expect(unchanged!.first_name).toBe('Test');

    const body = profile(mine.slug, { email: 'Anil.New@Example.test' });
    const edit = await t.post('update-user-profile', body, a.token);
    expect(edit).toEqual({ status: 200, body: { message: ORG_MSG.recordUpdated, slug: mine.slug } });
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, mine.id));
    expect(row).toMatchObject({
      first_name: 'Edited',
      last_name: 'Name',
      email: 'anil.new@example.test',
      mobile_no: '9123456789',
    });
  });
});

describe('an organization manages its members', () => {
  it('organization A cannot see or edit organization B’s users', async () => {
    const a = await orgWithOwner(t);
    const b = await orgWithOwner(t);
    const aSub = await t.loginAs({ role: 'org_subadmin', organization_id: a.organization.id });
    const aUser = await t.createUser({ role: 'organization_user', organization_id: a.organization.id });
    const bUser = await t.createUser({ role: 'organization_user', organization_id: b.organization.id });
    const bSub = await t.createUser({ role: 'org_subadmin', organization_id: b.organization.id });

    const listed = slugs((await t.post('get-all-lp-users', {}, a.token)).body.list);
    expect(listed.sort()).toEqual([aSub.user.slug, aUser.slug].sort());
    // the sub-admin sees the same members of its organization
    expect(slugs((await t.post('get-all-lp-users', {}, aSub.token)).body.list).sort()).toEqual(listed.sort());

    for (const token of [a.token, aSub.token]) {
      for (const foreign of [bUser, bSub, b.owner]) {
        expect((await t.post('get-user-details', { slug: foreign.slug }, token)).status).toBe(404);
        expect((await t.post('update-user-profile', profile(foreign.slug), token)).status).toBe(404);
      }
      // the organization account itself is not a managed member
      expect((await t.post('get-user-details', { slug: a.owner.slug }, token)).status).toBe(404);
    }
    const [untouched] = await t.deps.db.select().from(users).where(eq(users.id, bUser.id));
    expect(untouched!.email).toBe(bUser.email);

    expect((await t.post('update-user-profile', profile(aUser.slug), aSub.token)).status).toBe(200);
    expect((await t.post('get-user-details', { slug: aUser.slug }, a.token)).body.success.first_name).toBe('Edited');
  });
});

describe('the admin manages every account but admins', () => {
  it('lists non-admin accounts and edits any of them', async () => {
    const { token } = await t.loginAs({ role: 'admin' });
    const otherAdmin = await t.createUser({ role: 'admin' });
    const trainer = await t.createUser({ role: 'trainer' });
    const list = slugs((await t.post('get-all-lp-users', {}, token)).body.list);
    expect(list).toContain(trainer.slug);
    expect(list).not.toContain(otherAdmin.slug);
    expect((await t.post('get-user-details', { slug: otherAdmin.slug }, token)).status).toBe(404);
    expect((await t.post('update-user-profile', profile(trainer.slug), token)).status).toBe(200);
  });
});

describe('update-user-profile validation', () => {
  it('422 per field and for an e-mail another account has (case-insensitive); keeping one’s own e-mail is fine', async () => {
    const p = await t.loginAs({ role: 'provider' });
    const u = await t.createUser({ role: 'provider_user', provider_id: p.user.id });
    const other = await t.createUser();
    const empty = await t.post('update-user-profile', {}, p.token);
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      slug: ['The slug field is required.'],
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      email: ['The email field is required.'],
      mobile_no: ['The mobile no field is required.'],
    });
    const taken = await t.post('update-user-profile', profile(u.slug, { email: other.email.toUpperCase() }), p.token);
    expect(taken).toEqual({ status: 422, body: { email: [ORG_MSG.emailTaken] } });
    expect((await t.post('update-user-profile', profile(u.slug, { email: u.email }), p.token)).status).toBe(200);
    expect((await t.post('get-user-details', {}, p.token)).body).toEqual({ slug: ['The slug field is required.'] });
  });
});
