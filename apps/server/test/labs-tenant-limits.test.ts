import { LAB_TENANT_LIMITS, MSG } from '@trainlab/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { labAccounts, vms } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, labControls, makeVm } from './labs-fixtures';

/**
 * The admin's per-tenant lab limits (master data: lab-tenant-limits, update-lab-tenant-limits):
 * validated with 422s, admin only, and enforced at every start at exactly the limit and one past it.
 */

let t: TestApp;
let admin: string;
let provider: string;
let other: string;
let accountId: number;

beforeAll(async () => {
  t = await createTestApp();
  labControls(t);
  admin = (await t.loginAs({ role: 'admin' })).token;
  provider = (await t.loginAs({ role: 'provider', first_name: 'Priya', last_name: 'Labs' })).token;
  other = (await t.loginAs({ role: 'provider' })).token;
  await labAccount(t, provider);
  await labAccount(t, other);
  const list = (await t.post('lab-tenant-limits', {}, admin)).body.list as { id: number; tenant: string }[];
  accountId = list.find((r) => r.tenant === 'Priya Labs')!.id;
});
afterAll(() => t.close());

beforeEach(async () => {
  // every lab of both tenants stopped, no limit set
  await t.deps.db.update(vms).set({ status: 2 });
  await t.deps.db.update(labAccounts).set({ max_running_labs: null, max_running_ram_gb: null });
});

const setLimits = (body: Record<string, unknown>, token = admin) =>
  t.post('update-lab-tenant-limits', { id: accountId, ...body }, token);
const start = (name: string, token = provider) => t.post('vm-start-stop', { action: 'start', name }, token);

describe("lab tenant limits: the admin's calls", () => {
  it('lists each tenant with a lab account, its limits (none at first) and what runs now', async () => {
    const v = await makeVm(t, provider, { ram: 4 });
    expect((await start(v.vm_name)).status).toBe(200);
    const res = await t.post('lab-tenant-limits', {}, admin);
    expect(res.status).toBe(200);
    const mine = res.body.list.find((r: { id: number }) => r.id === accountId);
    expect(mine).toEqual({
      id: accountId,
      kind: 'provider',
      tenant: 'Priya Labs',
      username: 'labadmin',
      max_running_labs: null,
      max_running_ram_gb: null,
      running_labs: 1,
      running_ram_gb: 4,
    });
    expect(res.body.list).toHaveLength(2);
  });

  it('only the admin reads or sets them', async () => {
    expect((await t.post('lab-tenant-limits', {}, provider)).status).toBe(403);
    expect((await setLimits({ max_running_labs: 1000 }, provider)).status).toBe(403);
    expect((await t.post('lab-tenant-limits', {})).status).toBe(401);
  });

  it('validation: whole numbers from 1 to the maximum, empty for none; a missing account is 404', async () => {
    const max = LAB_TENANT_LIMITS.maxRunningLabs;
    const ramMax = LAB_TENANT_LIMITS.maxRunningRamGb;
    expect((await setLimits({ max_running_labs: max, max_running_ram_gb: ramMax })).status).toBe(200);
    for (const bad of [0, -1, max + 1, 1.5, 'abc']) {
      const res = await setLimits({ max_running_labs: bad });
      expect(res.status, String(bad)).toBe(422);
      expect(res.body.max_running_labs).toBeDefined();
    }
    for (const bad of [0, ramMax + 1]) {
      const res = await setLimits({ max_running_ram_gb: bad });
      expect(res.status, String(bad)).toBe(422);
      expect(res.body.max_running_ram_gb).toBeDefined();
    }
    // a refused change changed nothing
    let row = (await t.post('lab-tenant-limits', {}, admin)).body.list.find((r: { id: number }) => r.id === accountId);
    expect(row).toMatchObject({ max_running_labs: max, max_running_ram_gb: ramMax });
    expect((await setLimits({ max_running_labs: '', max_running_ram_gb: null })).status).toBe(200);
    row = (await t.post('lab-tenant-limits', {}, admin)).body.list.find((r: { id: number }) => r.id === accountId);
    expect(row).toMatchObject({ max_running_labs: null, max_running_ram_gb: null });
    expect((await t.post('update-lab-tenant-limits', { id: 999_999, max_running_labs: 2 }, admin)).status).toBe(404);
    expect((await t.post('update-lab-tenant-limits', { max_running_labs: 2 }, admin)).status).toBe(422);
  });
});

describe('lab tenant limits at a start', () => {
  it('running labs: exactly the limit starts, one past it is refused; another tenant is not counted', async () => {
    const labs = [];
    for (let i = 0; i < 3; i++) labs.push(await makeVm(t, provider));
    const elsewhere = await makeVm(t, other);
    expect((await start(elsewhere.vm_name, other)).status).toBe(200);
    expect((await setLimits({ max_running_labs: 2 })).status).toBe(200);
    expect((await start(labs[0]!.vm_name)).status).toBe(200);
    expect((await start(labs[1]!.vm_name)).status).toBe(200);
    const third = await start(labs[2]!.vm_name);
    expect(third.status).toBe(422);
    expect(third.body.other_error).toEqual([MSG.labTenantRunning]);
    // starting a running lab again is no new start
    expect((await start(labs[1]!.vm_name)).status).toBe(200);
    // one stops: the third starts
    expect((await t.post('vm-start-stop', { action: 'stop', name: labs[0]!.vm_name }, provider)).status).toBe(200);
    expect((await start(labs[2]!.vm_name)).status).toBe(200);
  });

  it('RAM: labs holding exactly the limit start, one GB past it is refused', async () => {
    const a = await makeVm(t, provider, { ram: 4 });
    const b = await makeVm(t, provider, { ram: 2 });
    const c = await makeVm(t, provider, { ram: 2 });
    expect((await setLimits({ max_running_ram_gb: 6 })).status).toBe(200);
    expect((await start(a.vm_name)).status).toBe(200);
    expect((await start(b.vm_name)).status).toBe(200);
    const past = await start(c.vm_name);
    expect(past.status).toBe(422);
    expect(past.body.other_error).toEqual([MSG.labTenantRam]);
    expect((await setLimits({ max_running_ram_gb: 7 })).status).toBe(200);
    expect((await start(c.vm_name)).status).toBe(422);
    expect((await setLimits({ max_running_ram_gb: 8 })).status).toBe(200);
    expect((await start(c.vm_name)).status).toBe(200);
  });

  it('starts pressed together never both take the last place', async () => {
    const labs = [];
    for (let i = 0; i < 4; i++) labs.push(await makeVm(t, provider));
    expect((await setLimits({ max_running_labs: 2 })).status).toBe(200);
    const answers = await Promise.all(labs.map((v) => start(v.vm_name)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 422, 422]);
  });
});
