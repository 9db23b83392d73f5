import { type Role, SERVICE_OPTIONS } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { expectAccess, roleTokens } from './master-support';

let t: TestApp;
let tokens: Record<Role, string>;
beforeAll(async () => {
  t = await createTestApp();
  tokens = await roleTokens(t);
});
afterAll(() => t.close());

const READERS: Role[] = ['admin', 'provider', 'organization', 'org_subadmin'];

describe('services', () => {
  it('access: writes and get-service admin only; the lists also for provider, organization, org_subadmin', async () => {
    await expectAccess(t, tokens, 'create-service', { service: SERVICE_OPTIONS[0], price: 1 }, ['admin']);
    await expectAccess(t, tokens, 'get-service', { id: 1 }, ['admin']);
    await expectAccess(t, tokens, 'update-service', { id: 1, service: SERVICE_OPTIONS[0], price: 1 }, ['admin']);
    await expectAccess(t, tokens, 'service-list', {}, READERS);
    await expectAccess(t, tokens, 'get-services-price', {}, READERS);
    for (const role of READERS) {
      expect((await t.post('service-list', undefined, tokens[role])).status).toBe(200);
      expect((await t.post('get-services-price', undefined, tokens[role])).status).toBe(200);
    }
  });

  it("create-service answers 'Service create successfully!' and the lists show it", async () => {
    const res = await t.post(
      'create-service',
      { service: 'TRAINING (Per Day)', price: '1500', valid_date: '2026-12-31' },
      tokens.admin,
    );
    expect(res).toEqual({ status: 200, body: { message: 'Service create successfully!', id: expect.any(Number) } });
    const pre = await t.post('create-service', { service: 'PRE-ASSESSMENT (Per Test)', price: 20 }, tokens.admin);
    expect(pre.status).toBe(200);
    const list = await t.post('service-list', undefined, tokens.provider);
    expect(list.body.list).toEqual([
      { id: res.body.id, service: 'TRAINING (Per Day)', price: 1500, valid_date: '2026-12-31T00:00:00.000Z' },
      { id: pre.body.id, service: 'PRE-ASSESSMENT (Per Test)', price: 20, valid_date: null },
    ]);
    expect((await t.post('get-services-price', {}, tokens.organization)).body).toEqual({
      list: [
        { service: 'TRAINING (Per Day)', price: 1500 },
        { service: 'PRE-ASSESSMENT (Per Test)', price: 20 },
      ],
    });
    expect(await t.post('get-service', { id: res.body.id }, tokens.admin)).toEqual({
      status: 200,
      body: {
        success: {
          id: res.body.id,
          service: 'TRAINING (Per Day)',
          price: 1500,
          valid_date: '2026-12-31T00:00:00.000Z',
        },
      },
    });
  });

  it('create-service: 422 per field; one record per service', async () => {
    expect(await t.post('create-service', {}, tokens.admin)).toEqual({
      status: 422,
      body: { service: ['The service field is required.'], price: ['The price field is required.'] },
    });
    expect(
      (await t.post('create-service', { service: 'CONSULTING', price: 'free', valid_date: '31/12/2026' }, tokens.admin))
        .body,
    ).toEqual({
      service: ['The selected service is invalid.'],
      price: ['The price must be a number.'],
      valid_date: ['The valid date is not a valid date.'],
    });
    expect((await t.post('create-service', { service: SERVICE_OPTIONS[1], price: -1 }, tokens.admin)).body).toEqual({
      price: ['The price must be at least 0.'],
    });
    await t.post('create-service', { service: 'POST-ASSESSMENT (Per Test)', price: 30 }, tokens.admin);
    expect(await t.post('create-service', { service: 'POST-ASSESSMENT (Per Test)', price: 31 }, tokens.admin)).toEqual({
      status: 422,
      body: { service: ['The service has already been taken.'] },
    });
  });

  it('update-service changes the record with that id', async () => {
    const list = (await t.post('service-list', {}, tokens.admin)).body.list as { id: number; service: string }[];
    const training = list.find((s) => s.service === 'TRAINING (Per Day)')!;
    const pre = list.find((s) => s.service === 'PRE-ASSESSMENT (Per Test)')!;
    const res = await t.post(
      'update-service',
      { id: training.id, service: 'TRAINING (Per Day)', price: 1750.5, valid_date: '' },
      tokens.admin,
    );
    expect(res).toEqual({ status: 200, body: { message: 'Service create successfully!', id: training.id } });
    expect((await t.post('get-service', { id: training.id }, tokens.admin)).body.success).toEqual({
      id: training.id,
      service: 'TRAINING (Per Day)',
      price: 1750.5,
      valid_date: null,
    });
    expect((await t.post('get-service', { id: pre.id }, tokens.admin)).body.success.price).toBe(20);
  });

  it('update-service: 422 per field, a service taken by another record, 404 for an unknown id', async () => {
    const list = (await t.post('service-list', {}, tokens.admin)).body.list as { id: number; service: string }[];
    expect(await t.post('update-service', {}, tokens.admin)).toEqual({
      status: 422,
      body: {
        id: ['The id field is required.'],
        service: ['The service field is required.'],
        price: ['The price field is required.'],
      },
    });
    expect(
      await t.post('update-service', { id: list[0]!.id, service: list[1]!.service, price: 1 }, tokens.admin),
    ).toEqual({ status: 422, body: { service: ['The service has already been taken.'] } });
    expect(
      (await t.post('update-service', { id: 999999, service: SERVICE_OPTIONS[0], price: 1 }, tokens.admin)).status,
    ).toBe(404);
    expect((await t.post('get-service', { id: 999999 }, tokens.admin)).status).toBe(404);
    expect((await t.post('get-service', {}, tokens.admin)).body).toEqual({ id: ['The id field is required.'] });
  });
});
