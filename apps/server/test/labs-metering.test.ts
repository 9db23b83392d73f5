import { MSG, VM_STATUS } from '@trainlab/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { jobs, labAccounts, vms, vmUsages } from '../src/db/schema';
import { idleCheck, touchLab } from '../src/domains/labs/lifecycle';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, labControls, makeVm, setPrices } from './labs-fixtures';

/**
 * Hand-computed cases. Prices: Linux platform 90 rupees an hour (9000 paise); the cloud price (45)
 * is the platform's own cost and is never billed (decision 0053); no storage price unless a case
 * sets one.
 */
let t: TestApp;
let lab: ReturnType<typeof labControls>;
let admin: string;
let provider: string;
let providerId: number;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', LAB_PROVIDER: 'memory' });
  lab = labControls(t);
  admin = (await t.loginAs({ role: 'admin' })).token;
  const p = await t.loginAs({ role: 'provider' });
  provider = p.token;
  providerId = p.user.id;
  await labAccount(t, provider);
});
afterAll(() => t.close());
beforeEach(async () => {
  lab.at('2026-11-20T09:00:00.000Z');
  await setPrices(t, admin, { linux: 90, cl_linux: 45 });
});

const act = async (action: 'start' | 'stop', name: string, at: string) => {
  lab.at(at);
  const res = await t.post('vm-start-stop', { action, name }, provider);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const runs = async (name: string) => {
  const [vm] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
  return t.deps.db
    .select()
    .from(vmUsages)
    .where(and(eq(vmUsages.vm_id, vm!.id)));
};
/** A restart of our server on the same database and the same (still running) engine. */
const restart = async (at: string) => {
  lab.at(at);
  const again = await buildApp(t.deps);
  await again.ready();
  await again.close();
};

describe('cost = minutes × hourly platform price in force (by RAM and OS) + storage', () => {
  it('across an hour boundary: 10:45 → 11:30 is 45 minutes at 90/h = 67.50 (6750 paise)', async () => {
    const v = await makeVm(t, provider);
    await act('start', v.vm_name, '2026-11-20T10:45:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T11:30:00.000Z');
    const [run] = await runs(v.vm_name);
    expect(run).toMatchObject({ status: 3, used_min: 45, cost_paise: 6750, payment_id: null });
    const details = await t.post('vm-details', { name: v.vm_name }, provider);
    expect(details.body.usage[0]).toMatchObject({ used_min: 45, cost: 67.5, cost_paise: 6750 });
    expect(details.body).toMatchObject({ total_cost: 67.5, total_cost_paise: 6750, used_min: 45 });
    expect(details.body.data.hourly_price).toBe(90);
  });

  it('storage adds its monthly price spread over 720 hours: 10 GB at 7.20/GB-month = 0.10/h', async () => {
    await setPrices(t, admin, { linux: 90, cl_linux: 45, storage: 7.2, cl_storage: 3 });
    const v = await makeVm(t, provider, { storage: 10 });
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T12:00:00.000Z');
    const [run] = await runs(v.vm_name);
    // 2 h × (9000 + 10) paise
    expect(run).toMatchObject({ used_min: 120, cost_paise: 18020 });
  });

  it('Windows labs use the Windows prices of their RAM row', async () => {
    await setPrices(t, admin, { linux: 90, cl_linux: 45, windows: 150, cl_windows: 50 });
    const v = await makeVm(t, provider, { image: 'windows', protocol: 'rdp', ram: 4, storage: 50 });
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T10:12:00.000Z');
    // 12 min × 150/h = 30.00
    expect((await runs(v.vm_name))[0]).toMatchObject({ used_min: 12, cost_paise: 3000 });
  });

  it('a price change mid-run bills each stretch at its own price: 20 min at 90/h + 30 min at 180/h = 120.00', async () => {
    const v = await makeVm(t, provider);
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    lab.at('2026-11-20T10:20:00.000Z');
    await setPrices(t, admin, { linux: 180, cl_linux: 60 });
    // while it runs, the details price the open run up to now at the stretches' prices
    lab.at('2026-11-20T10:30:00.000Z');
    const open = await t.post('vm-details', { name: v.vm_name }, provider);
    expect(open.body.usage[0]).toMatchObject({ status: 2, used_min: 30, cost_paise: 3000 + 3000 });
    await act('stop', v.vm_name, '2026-11-20T10:50:00.000Z');
    expect((await runs(v.vm_name))[0]).toMatchObject({ used_min: 50, cost_paise: 3000 + 9000 });
  });

  it('each start opens a row and each stop closes it: two runs, two rows', async () => {
    const v = await makeVm(t, provider);
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T10:10:00.000Z');
    await act('start', v.vm_name, '2026-11-20T13:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T13:01:00.000Z');
    const rows = await runs(v.vm_name);
    expect(rows.map((r) => [r.used_min, r.cost_paise])).toEqual([
      [10, 1500],
      [1, 150],
    ]);
  });
});

describe('a restart of our server never loses or doubles a running meter', () => {
  it('still running on the engine: the one open run continues and is billed in full', async () => {
    const v = await makeVm(t, provider);
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    await restart('2026-11-20T10:30:00.000Z');
    await restart('2026-11-20T10:31:00.000Z');
    expect((await runs(v.vm_name)).filter((r) => r.status === 2)).toHaveLength(1);
    await act('stop', v.vm_name, '2026-11-20T11:00:00.000Z');
    const rows = await runs(v.vm_name);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 3, used_min: 60, cost_paise: 9000 });
  });

  it('stopped on the engine while we were down: closed at the restart, the record says Stop', async () => {
    const v = await makeVm(t, provider);
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    lab.engine.machines.set(v.vm_name, 'stopped');
    await restart('2026-11-20T10:40:00.000Z');
    expect((await runs(v.vm_name))[0]).toMatchObject({ status: 3, used_min: 40, cost_paise: 6000 });
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    expect(row!.status).toBe(VM_STATUS.stop);
  });

  it('running on the engine though we recorded it stopped: a run is opened at the restart', async () => {
    const v = await makeVm(t, provider);
    lab.engine.machines.set(v.vm_name, 'running');
    await restart('2026-11-20T10:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T10:06:00.000Z');
    expect(await runs(v.vm_name)).toMatchObject([{ status: 3, used_min: 6, cost_paise: 900 }]);
  });

  it('one open run per lab is enforced by the database too', async () => {
    const v = await makeVm(t, provider);
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    const [vm] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    await expect(
      t.deps.db.insert(vmUsages).values({ vm_id: vm!.id, status: 2, vm_start: new Date() }),
    ).rejects.toThrow();
    await act('stop', v.vm_name, '2026-11-20T10:01:00.000Z');
  });
});

describe('idle stop (per tenant, through the jobs table)', () => {
  it('no connection and no input for the limit: the lab stops itself; input pushes the limit', async () => {
    await t.deps.db.update(labAccounts).set({ idle_stop_seconds: 60 }).where(eq(labAccounts.owner_user_id, providerId));
    const v = await makeVm(t, provider);
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    const [vm] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, v.vm_name));
    const queued = await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'lab-idle-check'));
    expect(queued.some((j) => (j.payload as { vm_id: number }).vm_id === vm!.id)).toBe(true);
    lab.at('2026-11-20T10:00:30.000Z');
    expect(await idleCheck(t.deps, vm!.id)).toBe('waiting');
    lab.at('2026-11-20T10:00:50.000Z');
    await touchLab(t.deps, vm!.id);
    lab.at('2026-11-20T10:01:10.000Z');
    expect(await idleCheck(t.deps, vm!.id)).toBe('waiting');
    // an open connection keeps it awake however long
    await touchLab(t.deps, vm!.id, 1);
    lab.at('2026-11-20T10:30:00.000Z');
    expect(await idleCheck(t.deps, vm!.id)).toBe('waiting');
    await touchLab(t.deps, vm!.id, -1);
    lab.at('2026-11-20T10:30:59.000Z');
    expect(await idleCheck(t.deps, vm!.id)).toBe('waiting');
    lab.at('2026-11-20T10:31:00.000Z');
    expect(await idleCheck(t.deps, vm!.id)).toBe('stopped');
    expect(lab.engine.machines.get(v.vm_name)).toBe('stopped');
    expect((await runs(v.vm_name))[0]).toMatchObject({ status: 3, used_min: 31, cost_paise: 4650 });
    await t.deps.db
      .update(labAccounts)
      .set({ idle_stop_seconds: 1800 })
      .where(eq(labAccounts.owner_user_id, providerId));
  });
});

describe('monthly caps per tenant, checked before a start', () => {
  it('running hours: a start is refused once the month’s hours reach the cap', async () => {
    const p = await t.loginAs({ role: 'provider' });
    await labAccount(t, p.token);
    await t.deps.db.update(labAccounts).set({ cap_hours_month: 1 }).where(eq(labAccounts.owner_user_id, p.user.id));
    const v = await makeVm(t, p.token);
    const go = async (action: 'start' | 'stop', at: string) => {
      lab.at(at);
      return t.post('vm-start-stop', { action, name: v.vm_name }, p.token);
    };
    // last month's use does not count
    await go('start', '2026-10-31T20:00:00.000Z');
    await go('stop', '2026-10-31T23:00:00.000Z');
    await go('start', '2026-11-20T10:00:00.000Z');
    await go('stop', '2026-11-20T10:59:00.000Z');
    // 59 minutes: one below the cap, may start
    expect((await go('start', '2026-11-20T11:00:00.000Z')).status).toBe(200);
    await go('stop', '2026-11-20T11:01:00.000Z');
    // 60 minutes: at the cap
    const refused = await go('start', '2026-11-20T12:00:00.000Z');
    expect(refused.status).toBe(422);
    expect(refused.body.other_error).toEqual([MSG.labCapHours]);
    expect(lab.engine.machines.get(v.vm_name)).toBe('stopped');
  });

  it('spend in paise: a start is refused once the month’s cost reaches the cap', async () => {
    const p = await t.loginAs({ role: 'provider' });
    await labAccount(t, p.token);
    await t.deps.db.update(labAccounts).set({ cap_paise_month: 9000 }).where(eq(labAccounts.owner_user_id, p.user.id));
    const v = await makeVm(t, p.token);
    const go = async (action: 'start' | 'stop', at: string) => {
      lab.at(at);
      return t.post('vm-start-stop', { action, name: v.vm_name }, p.token);
    };
    await go('start', '2026-11-20T10:00:00.000Z');
    await go('stop', '2026-11-20T10:59:00.000Z'); // 8850 paise
    expect((await go('start', '2026-11-20T11:00:00.000Z')).status).toBe(200);
    await go('stop', '2026-11-20T11:01:00.000Z'); // 9000 paise
    const refused = await go('start', '2026-11-20T12:00:00.000Z');
    expect(refused.status).toBe(422);
    expect(refused.body.other_error).toEqual([MSG.labCapSpend]);
  });
});
