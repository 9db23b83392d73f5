import type { Role } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { ALL_ROLES, expectAccess, roleTokens } from './master-support';

let t: TestApp;
let tokens: Record<Role, string>;
beforeAll(async () => {
  t = await createTestApp();
  tokens = await roleTokens(t);
});
afterAll(() => t.close());

const update = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  linux: 0.04,
  windows: 0.08,
  storage: 0.2,
  cl_linux: 0.03,
  cl_windows: '0.06',
  cl_storage: 0.15,
  ...over,
});

describe('VM pricing', () => {
  it('get-pricing: any signed-in role, seeded with the spec figures', async () => {
    expect((await t.post('get-pricing', {})).status).toBe(401);
    for (const role of ALL_ROLES) expect((await t.post('get-pricing', undefined, tokens[role])).status).toBe(200);
    const res = await t.post('get-pricing', {}, tokens.provider);
    expect(res.body.storage_price).toBe(0.17);
    expect(res.body.cl_storage_price).toBe(0.136);
    expect(res.body.list.map((r: Record<string, number>) => [r.memory, r.virtual_cpu, r.linux, r.windows])).toEqual([
      [2, 1, 0.03, 0.07],
      [4, 2, 0.05, 0.2],
      [8, 2, 0.1, 0.3],
      [16, 4, 0.2, 0.6],
      [32, 8, 0.42, 1.4],
    ]);
    expect(res.body.list[0]).toEqual({
      id: expect.any(Number),
      memory: 2,
      virtual_cpu: 1,
      cl_linux_price: 0.024,
      cl_windows_price: 0.056,
      linux: 0.03,
      windows: 0.07,
    });
    // reading again does not seed twice
    expect((await t.post('get-pricing', {}, tokens.admin)).body.list).toHaveLength(5);
  });

  it('update-vm-pricing is admin only', async () => {
    await expectAccess(t, tokens, 'update-vm-pricing', update(1), ['admin']);
  });

  it('update-vm-pricing updates that row and the storage prices', async () => {
    const before = (await t.post('get-pricing', {}, tokens.admin)).body;
    const row = before.list[1];
    expect(await t.post('update-vm-pricing', update(row.id), tokens.admin)).toEqual({
      status: 200,
      body: { message: 'Record updated successfully!' },
    });
    const after = (await t.post('get-pricing', {}, tokens.admin)).body;
    expect(after.list[1]).toEqual({
      id: row.id,
      memory: 4,
      virtual_cpu: 2,
      linux: 0.04,
      windows: 0.08,
      cl_linux_price: 0.03,
      cl_windows_price: 0.06,
    });
    expect(after.list[0]).toEqual(before.list[0]);
    expect(after.storage_price).toBe(0.2);
    expect(after.cl_storage_price).toBe(0.15);
  });

  it('update-vm-pricing: every field required, numbers at least 0; 404 for an unknown row', async () => {
    expect(await t.post('update-vm-pricing', {}, tokens.admin)).toEqual({
      status: 422,
      body: {
        id: ['The id field is required.'],
        linux: ['The linux field is required.'],
        windows: ['The windows field is required.'],
        storage: ['The storage field is required.'],
        cl_linux: ['The cl linux field is required.'],
        cl_windows: ['The cl windows field is required.'],
        cl_storage: ['The cl storage field is required.'],
      },
    });
    const id = (await t.post('get-pricing', {}, tokens.admin)).body.list[0].id;
    expect(
      (
        await t.post(
          'update-vm-pricing',
          update(id, { linux: -0.1, windows: 'cheap', storage: '', cl_linux: -1, cl_windows: 'x', cl_storage: -2 }),
          tokens.admin,
        )
      ).body,
    ).toEqual({
      linux: ['The linux must be at least 0.'],
      windows: ['The windows must be a number.'],
      storage: ['The storage field is required.'],
      cl_linux: ['The cl linux must be at least 0.'],
      cl_windows: ['The cl windows must be a number.'],
      cl_storage: ['The cl storage must be at least 0.'],
    });
    expect((await t.post('update-vm-pricing', update(999999), tokens.admin)).status).toBe(404);
  });
});
