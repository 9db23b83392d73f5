import { expect } from 'vitest';
import { linuxVm } from '../../../e2e/support/labs';
import { MemoryLabs } from '../src/adapters/labs';
import type { TestApp } from './helpers';

export const LAB_PASSWORD = 'Lab#Secret1';

/** A test app on the simulated engine, with a clock the test moves by hand. */
export function labControls(t: TestApp) {
  const engine = new MemoryLabs();
  t.deps.labs = engine;
  let now = new Date('2026-11-20T10:00:00.000Z');
  t.deps.clock = () => now;
  return {
    engine,
    at: (iso: string) => {
      now = new Date(iso);
    },
    advance: (minutes: number) => {
      now = new Date(now.getTime() + minutes * 60_000);
    },
    now: () => now,
  };
}

export const accountBody = (over: Record<string, unknown> = {}) => ({
  username: 'labadmin',
  email: 'labs@example.test',
  first_name: 'Lab',
  last_name: 'Owner',
  password: LAB_PASSWORD,
  password2: LAB_PASSWORD,
  ...over,
});

/** Registers and authorizes the caller's tenant's lab account. */
export async function labAccount(t: TestApp, token: string) {
  const reg = await t.post('register-gc-account', accountBody(), token);
  expect(reg.status, JSON.stringify(reg.body)).toBe(200);
  const auth = await t.post('authorize-gc-account', { username: 'labadmin', password: LAB_PASSWORD }, token);
  expect(auth.status, JSON.stringify(auth.body)).toBe(200);
}

// one lab body for the server tests, the journeys and the benches
export { linuxVm };

/** Creates one lab and answers its vm_name and shown-once password. */
export async function makeVm(t: TestApp, token: string, over: Record<string, unknown> = {}) {
  const res = await t.post('gc-create-vm', linuxVm(over), token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.list[0] as { vm_name: string; name: string; username: string; password: string };
}

/** Sets every price: platform and cloud per hour for all RAM rows, storage per GB-month. */
export async function setPrices(
  t: TestApp,
  admin: string,
  p: { linux: number; cl_linux: number; windows?: number; cl_windows?: number; storage?: number; cl_storage?: number },
) {
  const list = (await t.post('get-pricing', {}, admin)).body.list as { id: number }[];
  for (const row of list) {
    const res = await t.post(
      'update-vm-pricing',
      {
        id: row.id,
        linux: p.linux,
        cl_linux: p.cl_linux,
        windows: p.windows ?? 1,
        cl_windows: p.cl_windows ?? 1,
        storage: p.storage ?? 0,
        cl_storage: p.cl_storage ?? 0,
      },
      admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}
