import { ORG_MSG } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, orgWithOwner, setPasswordFromMail, tokenFor } from './org-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

const UNITS = [
  ['department', 'org/get-departments', 'org/add-department'],
  ['branch', 'org/get-branches', 'org/add-branch'],
  ['section', 'org/get-sections', 'org/add-section'],
] as const;

describe.each(UNITS)('%s list of an organization', (_kind, getPath, addPath) => {
  it('401, and 403 for roles other than organization and org_subadmin', async () => {
    await expectGuarded(t, [getPath, addPath], ['organization', 'org_subadmin'], { name: 'X' });
  });

  it('adds and lists names of the caller’s organization only, sorted', async () => {
    const a = await orgWithOwner(t);
    const b = await orgWithOwner(t);
    const aSub = await t.loginAs({ role: 'org_subadmin', organization_id: a.organization.id });
    const first = await t.post(addPath, { name: 'Zeta' }, a.token);
    expect(first).toEqual({ status: 200, body: { message: ORG_MSG.recordAdded, id: expect.any(Number) } });
    expect((await t.post(addPath, { name: 'Alpha' }, aSub.token)).status).toBe(200);
    // the same name is fine in another organization
    expect((await t.post(addPath, { name: 'Alpha' }, b.token)).status).toBe(200);
    const list = await t.post(getPath, undefined, a.token);
    expect(list.status).toBe(200);
    expect(list.body.list.map((u: { name: string }) => u.name)).toEqual(['Alpha', 'Zeta']);
    expect((await t.post(getPath, {}, aSub.token)).body).toEqual(list.body);
    expect((await t.post(getPath, {}, b.token)).body.list.map((u: { name: string }) => u.name)).toEqual(['Alpha']);
  });

  it('422: name required, and unique within the organization (case-insensitive)', async () => {
    const { token } = await orgWithOwner(t);
    expect((await t.post(addPath, { name: '  ' }, token)).body).toEqual({ name: ['The name field is required.'] });
    expect((await t.post(addPath, { name: 'Finance' }, token)).status).toBe(200);
    const dup = await t.post(addPath, { name: 'FINANCE' }, token);
    expect(dup).toEqual({ status: 422, body: { name: ['The name has already been taken.'] } });
    expect((await t.post(getPath, {}, token)).body.list).toHaveLength(1);
  });
});

describe('an organization account without an organization', () => {
  it('is refused with 403', async () => {
    const { token } = await t.loginAs({ role: 'organization', organization_id: null });
    const res = await t.post('org/get-departments', {}, token);
    expect(res).toEqual({ status: 403, body: { message: ORG_MSG.noOrganization, code: 'forbidden' } });
    expect((await t.post('org/dashboard-data', {}, token)).status).toBe(403);
  });
});

describe('POST /api/org/dashboard-data', () => {
  it('401/403 outside organization and org_subadmin', async () => {
    await expectGuarded(t, ['org/dashboard-data'], ['organization', 'org_subadmin']);
  });

  it('counts members and lists, and shows the latest users of the caller’s organization only', async () => {
    const a = await orgWithOwner(t, { name: 'Dash Org' });
    const other = await orgWithOwner(t);
    await t.post('org/add-department', { name: 'Sales' }, a.token);
    await t.post('org/add-branch', { name: 'Pune' }, a.token);
    await t.post('org/add-branch', { name: 'Delhi' }, a.token);
    const u1 = await t.post(
      'org/add-org-user',
      { first_name: 'Usha', last_name: 'One', email: 'usha1@example.test', mobile_no: '9876500001' },
      a.token,
    );
    await t.post(
      'org/add-org-user',
      { first_name: 'Usha', last_name: 'Two', email: 'usha2@example.test', mobile_no: '9876500002' },
      a.token,
    );
    await t.post(
      'org/add-org-subadmin',
      { first_name: 'Sam', last_name: 'Pending', email: 'sam.p@example.test', mobile_no: '9876500003' },
      a.token,
    );
    await t.createUser({ role: 'org_subadmin', organization_id: a.organization.id, email: 'sub.ok@example.test' });
    await t.post(
      'org/add-org-user',
      { first_name: 'Not', last_name: 'Mine', email: 'other@example.test', mobile_no: '9876500004' },
      other.token,
    );

    const res = await t.post('org/dashboard-data', {}, a.token);
    expect(res.status).toBe(200);
    expect(res.body.organization).toEqual({ id: a.organization.id, slug: a.organization.slug, name: 'Dash Org' });
    expect(res.body.counts).toEqual({
      sub_admins: 1,
      pending_sub_admins: 1,
      // the owner, two members, two sub-admins: everyone the list below shows
      organization_users: 5,
      departments: 1,
      branches: 2,
      sections: 0,
    });
    const emails = res.body.list.map((u: { email: string }) => u.email);
    expect(emails.slice(0, 4)).toEqual([
      'sub.ok@example.test',
      'sam.p@example.test',
      'usha2@example.test',
      'usha1@example.test',
    ]);
    expect(emails).not.toContain('other@example.test');
    // the Users tile and Latest users agree (under 10 people, the list is all of them)
    expect(res.body.list).toHaveLength(res.body.counts.organization_users);
    expect(res.body.list[0]).toEqual({
      id: expect.any(Number),
      slug: expect.any(String),
      name: 'Test org_subadmin',
      email: 'sub.ok@example.test',
      role: 'org_subadmin',
      created_at: expect.stringMatching(/Z$/),
    });
    expect(res.body.list.find((u: { id: number }) => u.id === u1.body.id)).toMatchObject({
      name: 'Usha One',
      role: 'organization_user',
    });
  });

  it('keeps at most 10 users', async () => {
    const a = await orgWithOwner(t);
    for (let i = 0; i < 12; i++) {
      await t.createUser({ role: 'organization_user', organization_id: a.organization.id });
    }
    expect((await t.post('org/dashboard-data', {}, a.token)).body.list).toHaveLength(10);
  });
});

describe('POST /api/ou/dashboard-data', () => {
  it('is for organization users only', async () => {
    await expectGuarded(t, ['ou/dashboard-data'], ['organization_user']);
    expect((await t.post('ou/dashboard-data', {}, await tokenFor(t, 'organization'))).status).toBe(403);
  });

  it('names the organization and the branch, department and section assigned', async () => {
    const a = await orgWithOwner(t, { name: 'Home Org' });
    const branch = (await t.post('org/add-branch', { name: 'Chennai' }, a.token)).body.id;
    const section = (await t.post('org/add-section', { name: 'Batch 7' }, a.token)).body.id;
    const body = { first_name: 'Ira', last_name: 'Das', email: 'ira.das@example.test', mobile_no: '9876511111' };
    expect(
      (await t.post('org/add-org-user', { ...body, branch_id: branch, section_id: section }, a.token)).status,
    ).toBe(200);
    const password = await setPasswordFromMail(t, body.email);
    const login = await t.post('login', { email: body.email, password });
    const res = await t.post('ou/dashboard-data', {}, login.body.success.token);
    expect(res).toEqual({
      status: 200,
      body: { success: { organization: 'Home Org', branch: 'Chennai', department: null, section: 'Batch 7' } },
    });
  });

  it('answers nulls for an account that was never placed', async () => {
    const org = await t.createOrganization({ name: 'Bare Org' });
    const { token } = await t.loginAs({ role: 'organization_user', organization_id: org.id });
    expect((await t.post('ou/dashboard-data', {}, token)).body.success).toEqual({
      organization: 'Bare Org',
      branch: null,
      department: null,
      section: null,
    });
  });
});
