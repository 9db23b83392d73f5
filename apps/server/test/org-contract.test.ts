import { API } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// the domain's own table, to prove every one of its calls is walked here
import { ORGANIZATION_CALLS } from '../../../packages/contract/src/calls/organizations';
import { createTestApp, type TestApp } from './helpers';
import { memberBody, orgWithOwner, uniqueEmail } from './org-fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

type Name = keyof typeof ORGANIZATION_CALLS;

describe('organization calls answer what the contract declares', () => {
  it('every call, with a valid request, returns a body its response schema accepts', async () => {
    const seen = new Set<Name>();
    const check = async (name: Name, body: unknown, token?: string) => {
      const call = API[name];
      const res = await t.post(call.path, body, token);
      expect(res.status, `${call.path} ${JSON.stringify(res.body)}`).toBe(200);
      const parsed = call.response.safeParse(res.body);
      expect(parsed.success, `${call.path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      seen.add(name);
      return res.body;
    };

    const admin = (await t.loginAs({ role: 'admin' })).token;
    const a = await orgWithOwner(t);
    const sub = await t.loginAs({ role: 'org_subadmin', organization_id: a.organization.id });
    const ou = await t.loginAs({ role: 'organization_user', organization_id: a.organization.id });
    const provider = await t.loginAs({ role: 'provider' });
    const pu = await t.createUser({ role: 'provider_user', provider_id: provider.user.id });
    const pending = await t.createUser({ role: 'provider', is_approved: 0 });

    const created = await check('createOrganization', {
      name: 'Contract Org',
      email: uniqueEmail('org'),
      org_domain: 'contract.example',
      ip_link: 'https://idp.contract.example',
    });
    for (const n of ['getOrganizations', 'getOrgs', 'getOrgApproved', 'getOrgApprove'] as const) {
      await check(n, {}, admin);
    }
    await check('orgApproved', { org_id: created.id, is_approved: 1 }, admin);
    await check('orgStatus', { org_id: created.id, status: 1 }, admin);
    await check('adminGetUsersList', { role: 3, type: 'request' }, admin);
    await check('adminGetChildUsersList', { slug: provider.user.slug }, admin);
    await check('adminUpdateLearningProviderRequest', { id: pending.id, status: 1 }, admin);
    const branch = await check('orgAddBranch', { name: 'B' }, a.token);
    await check('orgAddDepartment', { name: 'D' }, sub.token);
    await check('orgAddSection', { name: 'S' }, a.token);
    for (const n of ['orgGetBranches', 'orgGetDepartments', 'orgGetSections'] as const) await check(n, {}, sub.token);
    await check('orgAddOrgSubadmin', memberBody({ branch_id: branch.id }), a.token);
    const user = await check('orgAddOrgUser', memberBody(), sub.token);
    const requests = await check('adminNewOrgSubadminRequest', { type: 'request' }, admin);
    await check('adminUpdateOrgSubadminRequest', { odid: requests.list[0].odid, status: 1 }, admin);
    await check('adminNewOrgSubadminRequest', {}, admin);
    await check('orgDashboardData', {}, a.token);
    await check('ouDashboardData', {}, ou.token);
    await check('adminDashboardData', {}, admin);
    await check('getAllLpUsers', {}, provider.token);
    await check('getUserDetails', { slug: pu.slug }, provider.token);
    await check('updateUserProfile', { ...memberBody(), slug: user.slug, email: uniqueEmail('edited') }, a.token);
    const trainer = await check('trainerRegister', memberBody(), admin);
    await check('trainerList', {}, admin);
    await check('getTrainer', { id: trainer.id }, admin);
    await check('updateTrainer', { ...memberBody(), id: trainer.id }, admin);

    expect([...seen].sort()).toEqual((Object.keys(ORGANIZATION_CALLS) as Name[]).sort());
  });
});
