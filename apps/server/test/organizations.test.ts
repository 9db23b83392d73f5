import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('lines of business', () => {
  it('get-line-of-business is public and sorted', async () => {
    const { token } = await t.loginAs({ role: 'admin' });
    await t.post('add-line-of-business', { name: 'Telecom' }, token);
    await t.post('add-line-of-business', { name: 'Agriculture' }, token);
    const res = await t.post('get-line-of-business');
    expect(res.status).toBe(200);
    expect(res.body.list.map((l: { name: string }) => l.name)).toEqual(['Agriculture', 'Telecom']);
  });

  it('add-line-of-business: 401, 403 for roles that may not, 422, success for admin/organization/org_subadmin', async () => {
    expect((await t.post('add-line-of-business', { name: 'X' })).status).toBe(401);
    for (const role of rolesExcept('admin', 'organization', 'org_subadmin')) {
      const { token } = await t.loginAs({ role });
      expect((await t.post('add-line-of-business', { name: `By ${role}` }, token)).status).toBe(403);
    }
    const { token } = await t.loginAs({ role: 'organization' });
    expect((await t.post('add-line-of-business', {}, token)).body).toEqual({ name: ['The name field is required.'] });
    const ok = await t.post('add-line-of-business', { name: 'Logistics' }, token);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ message: 'Record Added Successfully!', id: expect.any(Number) });
    const dup = await t.post('add-line-of-business', { name: 'logistics' }, token);
    expect(dup.status).toBe(422);
    expect(dup.body.name).toEqual(['The name has already been taken.']);
  });
});

describe('get-org-register', () => {
  it('lists only approved, active organizations', async () => {
    const ok = await t.createOrganization({ name: 'Visible Org' });
    await t.createOrganization({ name: 'Pending Org', is_approved: 0 });
    await t.createOrganization({ name: 'Inactive Org', status: 0 });
    const res = await t.post('get-org-register', undefined);
    expect(res.status).toBe(200);
    expect(res.body.list).toEqual([{ id: ok.id, name: 'Visible Org' }]);
  });
});
