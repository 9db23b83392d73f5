import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { makeTraining, person } from './trainings-fixtures';

let t: TestApp;
let provider: string;
let otherProvider: string;
let org: string;
let subadmin: string;
let otherOrg: string;

type Row = { id: number; first_name: string; last_name: string; email: string; mobile_no: string };
const names = (list: Row[]) => list.map((r) => `${r.first_name} ${r.last_name}`).sort();

async function enrol(token: string, people: ReturnType<typeof person>[]) {
  const tr = await makeTraining(t, token);
  for (const p of people) {
    const res = await t.post('lp/add-training-user', { ...p, slug: tr.slug }, token);
    expect(res.status).toBe(200);
  }
}

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  otherProvider = (await t.loginAs({ role: 'provider' })).token;
  const o = await orgWithOwner(t);
  org = o.token;
  subadmin = (await t.loginAs({ role: 'org_subadmin', organization_id: o.organization.id })).token;
  otherOrg = (await orgWithOwner(t)).token;
  await enrol(provider, [
    person('Asha', { first_name: 'Asha', last_name: 'Rao', mobile_no: '9000000001' }),
    person('Ravi', { first_name: 'Ravi', last_name: 'Kumar', mobile_no: '9000000002' }),
  ]);
  await enrol(otherProvider, [person('Other', { first_name: 'Asha', last_name: 'Elsewhere' })]);
  await enrol(org, [person('Meena', { first_name: 'Meena', last_name: 'Iyer', mobile_no: '9000000003' })]);
  await enrol(otherOrg, [person('Nope', { first_name: 'Meena', last_name: 'Outside' })]);
  // a trainer and a self-registered user are nobody's learners
  await t.loginAs({ role: 'trainer', first_name: 'Asha', last_name: 'Trainer' });
  await t.loginAs({ role: 'user', first_name: 'Asha', last_name: 'Solo' });
});
afterAll(() => t.close());

describe('POST /api/get-tenant-learners', () => {
  it('401 and 403 for roles that do not manage learners', async () => {
    await expectGuarded(t, ['get-tenant-learners'], ['provider', 'organization', 'org_subadmin']);
  });

  it('a provider sees its own provider users only, searched and paged', async () => {
    const all = await t.post('get-tenant-learners', {}, provider);
    expect(all.status).toBe(200);
    expect(names(all.body.list)).toEqual(['Asha Rao', 'Ravi Kumar']);
    expect(all.body).toMatchObject({ total: 2, page: 1 });
    expect(all.body.list.find((r: Row) => r.first_name === 'Asha')).toMatchObject({
      id: expect.any(Number),
      email: expect.stringContaining('@example.test'),
      mobile_no: '9000000001',
    });

    // 'Asha' is also another provider's learner, a trainer and a self-registered user: only ours
    const asha = await t.post('get-tenant-learners', { search: 'asha' }, provider);
    expect(names(asha.body.list)).toEqual(['Asha Rao']);
    expect((await t.post('get-tenant-learners', { search: 'Ravi Kumar' }, provider)).body.total).toBe(1);
    expect((await t.post('get-tenant-learners', { search: '9000000002' }, provider)).body.list).toMatchObject([
      { first_name: 'Ravi' },
    ]);
    expect((await t.post('get-tenant-learners', { search: 'Meena' }, provider)).body).toMatchObject({
      list: [],
      total: 0,
    });

    const page2 = await t.post('get-tenant-learners', { per_page: 1, page: 2, sort: 'first_name' }, provider);
    expect(page2.body).toMatchObject({ total: 2, page: 2, per_page: 1 });
    expect(names(page2.body.list)).toEqual(['Ravi Kumar']);

    const other = await t.post('get-tenant-learners', { search: 'asha' }, otherProvider);
    expect(names(other.body.list)).toEqual(['Asha Elsewhere']);
  });

  it('an organization and its sub-admins share the organization users; another organization sees its own', async () => {
    for (const token of [org, subadmin]) {
      const res = await t.post('get-tenant-learners', {}, token);
      expect(res.status).toBe(200);
      expect(names(res.body.list)).toEqual(['Meena Iyer']);
    }
    expect(names((await t.post('get-tenant-learners', {}, otherOrg)).body.list)).toEqual(['Meena Outside']);
  });

  it('refuses a sort it does not declare', async () => {
    const res = await t.post('get-tenant-learners', { sort: 'password_hash' }, provider);
    expect(res.status).toBe(422);
    expect(res.body.sort).toHaveLength(1);
  });
});
