import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, labControls, makeVm, setPrices } from './labs-fixtures';

/**
 * The one price rule (decision 0053), checked the way a person checks a bill: every amount on VM
 * Details and Cloud Payment is recomputed here from the price per hour VM Details shows and the
 * minutes of each row — cost = price per hour × minutes ÷ 60, rounded to the paisa — and the rows
 * add up to the totals and to what checkout charges.
 */

interface Details {
  data: {
    hourly_price: number;
    price: { machine_per_hour: number; storage_per_month: number; storage_per_hour: number };
  };
  usage: { id: number; used_min: number; cost: number; cost_paise: number; status: number }[];
  total_cost_paise: number;
  used_min: number;
}
interface Bill {
  total_cost: number;
  total_cost_paise: number;
  list: { id: number; vm_name: string; used_min: number; total_cost_paise: number }[];
}

/** What a person computes with a calculator: ₹/h × min ÷ 60, in paise, half up. */
const byHand = (rupeesPerHour: number, minutes: number) => Math.round((rupeesPerHour * 100 * minutes) / 60 + 1e-9);

function checkAgainstPrice(details: Details) {
  for (const row of details.usage) {
    expect(row.cost_paise, `row ${row.id}: ${row.used_min} min`).toBe(byHand(details.data.hourly_price, row.used_min));
    expect(row.cost).toBe(row.cost_paise / 100);
  }
  expect(details.total_cost_paise).toBe(details.usage.reduce((s, r) => s + r.cost_paise, 0));
  expect(details.used_min).toBe(details.usage.reduce((s, r) => s + r.used_min, 0));
  // the price per hour is the machine's plus the storage's monthly price spread over 720 hours
  const p = details.data.price;
  expect(p.storage_per_hour).toBeCloseTo(p.storage_per_month / 720, 4);
  expect(details.data.hourly_price).toBeCloseTo(p.machine_per_hour + p.storage_per_hour, 10);
}

function checkBill(bill: Bill, details: Details) {
  for (const row of details.usage.filter((r) => r.status === 3)) {
    const billed = bill.list.find((b) => b.id === row.id);
    expect(billed, `run ${row.id} is on the bill`).toMatchObject({
      used_min: row.used_min,
      total_cost_paise: row.cost_paise,
    });
  }
  expect(bill.total_cost_paise).toBe(bill.list.reduce((s, r) => s + r.total_cost_paise, 0));
  expect(bill.total_cost).toBe(bill.total_cost_paise / 100);
}

describe('a lab run in the test, at the spec’s prices', () => {
  let t: TestApp;
  let lab: ReturnType<typeof labControls>;
  let provider: string;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', LAB_PROVIDER: 'memory' });
    lab = labControls(t);
    provider = (await t.loginAs({ role: 'provider' })).token;
    admin = (await t.loginAs({ role: 'admin' })).token;
    await labAccount(t, provider);
  });
  afterAll(() => t.close());

  const act = async (action: 'start' | 'stop', name: string, at: string) => {
    lab.at(at);
    const res = await t.post('vm-start-stop', { action, name }, provider);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('4 GB Linux with 20 GB: ₹0.05 machine + ₹3.40 storage a month (₹0.0047 an hour) = ₹0.0547 an hour', async () => {
    const v = await makeVm(t, provider, { ram: 4, storage: 20 });
    const details = (await t.post('vm-details', { name: v.vm_name }, provider)).body as Details;
    expect(details.data.price).toEqual({ machine_per_hour: 0.05, storage_per_month: 3.4, storage_per_hour: 0.0047 });
    expect(details.data.hourly_price).toBe(0.0547);
    // the create form's /get-pricing shows the same machine and storage prices
    const sheet = (await t.post('get-pricing', {}, provider)).body;
    expect(sheet.list.find((r: { memory: number }) => r.memory === 4).linux).toBe(0.05);
    expect(sheet.storage_price * 20).toBeCloseTo(3.4, 10);

    // 90, 45 and 1 minute: 8.205 → 8, 4.1025 → 4, 0.0912 → 0 paise
    await act('start', v.vm_name, '2026-11-20T10:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T11:30:00.000Z');
    await act('start', v.vm_name, '2026-11-20T12:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T12:45:00.000Z');
    await act('start', v.vm_name, '2026-11-20T13:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-20T13:01:00.000Z');
    const after = (await t.post('vm-details', { name: v.vm_name }, provider)).body as Details;
    expect(after.usage.map((r) => [r.used_min, r.cost_paise])).toEqual([
      [90, 8],
      [45, 4],
      [1, 0],
    ]);
    checkAgainstPrice(after);
    // Cloud Payment lists every session VM Details shows, the ₹0.00 minute included
    const bill = (await t.post('vm-payment-data', {}, provider)).body as Bill;
    expect(bill.list.map((r) => r.used_min)).toEqual([90, 45, 1]);
    expect(bill.list.every((r) => r.vm_name === v.vm_name)).toBe(true);
    checkBill(bill, after);
    expect(bill.total_cost_paise).toBe(12);
    // checkout charges exactly the bill's total, for every row on it
    const checkout = await t.post('vm-checkout', {}, provider);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(checkout.body.amount_paise).toBe(12);
  });

  it('a run is charged by its minutes, rounded to the nearest: 89 min 29.999 s is 89, 89 min 30 s is 90', async () => {
    await setPrices(t, admin, { linux: 30, cl_linux: 99, storage: 0, cl_storage: 5 });
    const v = await makeVm(t, provider, { ram: 2, storage: 10 });
    await act('start', v.vm_name, '2026-11-21T10:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-21T11:29:29.999Z');
    await act('start', v.vm_name, '2026-11-21T12:00:00.000Z');
    await act('stop', v.vm_name, '2026-11-21T13:29:30.000Z');
    const details = (await t.post('vm-details', { name: v.vm_name }, provider)).body as Details;
    // ₹30 an hour, the cloud price (₹99) not billed: 89 min = ₹44.50, 90 min = ₹45.00
    expect(details.data.hourly_price).toBe(30);
    expect(details.usage.map((r) => [r.used_min, r.cost_paise])).toEqual([
      [89, 4450],
      [90, 4500],
    ]);
    checkAgainstPrice(details);
  });

  it('an open run is priced up to now by the same rule, and a price change bills each stretch at its price', async () => {
    await setPrices(t, admin, { linux: 6, cl_linux: 1, storage: 0, cl_storage: 0 });
    const v = await makeVm(t, provider, { ram: 2, storage: 10 });
    await act('start', v.vm_name, '2026-11-22T10:00:00.000Z');
    lab.at('2026-11-22T10:07:00.000Z');
    const open = (await t.post('vm-details', { name: v.vm_name }, provider)).body as Details;
    expect(open.usage[0]).toMatchObject({ status: 2, used_min: 7, cost_paise: 70 });
    checkAgainstPrice(open);
    // an open run is not on the bill until it closes
    const bill = (await t.post('vm-payment-data', {}, provider)).body as Bill;
    expect(bill.list.some((r) => r.id === open.usage[0]!.id)).toBe(false);
    // 20 min at ₹6/h (200 paise) then 10 min at ₹12/h (200 paise): the minutes add up to the run's
    lab.at('2026-11-22T10:20:00.000Z');
    await setPrices(t, admin, { linux: 12, cl_linux: 1, storage: 0, cl_storage: 0 });
    await act('stop', v.vm_name, '2026-11-22T10:30:00.000Z');
    const closed = (await t.post('vm-details', { name: v.vm_name }, provider)).body as Details;
    expect(closed.usage[0]).toMatchObject({ status: 3, used_min: 30, cost_paise: 400 });
  });

  it('nothing to pay when every unpaid run cost ₹0.00: Pay is refused, the runs stay listed', async () => {
    const other = await t.loginAs({ role: 'provider' });
    await labAccount(t, other.token);
    await setPrices(t, admin, { linux: 0.03, cl_linux: 0.02, storage: 0.17, cl_storage: 0.1 });
    const v = await makeVm(t, other.token, { ram: 2, storage: 10 });
    lab.at('2026-11-23T10:00:00.000Z');
    await t.post('vm-start-stop', { action: 'start', name: v.vm_name }, other.token);
    lab.at('2026-11-23T10:01:00.000Z');
    await t.post('vm-start-stop', { action: 'stop', name: v.vm_name }, other.token);
    const bill = (await t.post('vm-payment-data', {}, other.token)).body as Bill;
    expect(bill).toMatchObject({ total_cost_paise: 0, list: [{ used_min: 1, total_cost_paise: 0 }] });
    const refused = await t.post('vm-checkout', {}, other.token);
    expect(refused.status).toBe(422);
  });
});

describe('the demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    await seedDemo(t.deps.db, 'memory');
  });
  afterAll(() => t.close());

  it('the demo lab’s rows, total and bill are its price per hour × minutes', async () => {
    const login = await t.post('login', { email: 'provider@demo.test', password: DEMO_PASSWORD });
    const token = login.body.success.token as string;
    const list = (await t.post('vm-list', {}, token)).body.list as { vm_name: string }[];
    expect(list).toHaveLength(1);
    const details = (await t.post('vm-details', { name: list[0]!.vm_name }, token)).body as Details;
    expect(details.data.hourly_price).toBe(0.0547);
    expect(details.usage.map((r) => r.used_min)).toEqual([90, 45]);
    checkAgainstPrice(details);
    checkBill((await t.post('vm-payment-data', {}, token)).body as Bill, details);
  });
});
