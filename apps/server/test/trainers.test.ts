import { ORG_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, memberBody, setPasswordFromMail } from './org-fixtures';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  admin = (await t.loginAs({ role: 'admin' })).token;
});
afterAll(() => t.close());

describe('trainer calls are admin-only', () => {
  it('401 and 403', async () => {
    await expectGuarded(t, ['trainer-register', 'trainer-list', 'get-trainer', 'update-trainer'], ['admin'], {
      ...memberBody(),
      id: 1,
    });
  });
});

describe('POST /api/trainer-register', () => {
  it('creates an approved trainer who chooses a password from the mailed link and signs in', async () => {
    const body = memberBody({ first_name: 'Tanvi', last_name: 'Rao' });
    const res = await t.post('trainer-register', body, admin);
    expect(res).toEqual({
      status: 200,
      body: { message: 'Trainer register successfully!', id: expect.any(Number), slug: expect.any(String) },
    });
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, res.body.id));
    expect(row).toMatchObject({ roles: ['trainer'], user_type: 7, is_approved: 1, status: 1, password_hash: null });
    const mail = (await t.outbox()).filter((m) => m.to === body.email).at(-1)!;
    expect(mail.text).toContain('http://app.test/reset-password/');
    const password = await setPasswordFromMail(t, body.email);
    const login = await t.post('login', { email: body.email, password });
    expect(login.status).toBe(200);
    expect(login.body.success.roles).toEqual(['trainer']);
  });

  it('422 per field and for a taken e-mail', async () => {
    expect((await t.post('trainer-register', {}, admin)).body).toEqual({
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      email: ['The email field is required.'],
      mobile_no: ['The mobile no field is required.'],
    });
    const existing = await t.createUser();
    const taken = await t.post('trainer-register', memberBody({ email: existing.email }), admin);
    expect(taken).toEqual({ status: 422, body: { email: [ORG_MSG.emailTaken] } });
  });
});

describe('trainer list paging', () => {
  it('pages, searches and sorts on the server; per_page is capped at 100', async () => {
    const tag = `pg${Date.now()}`;
    for (const name of ['Asha', 'Bela', 'Chitra'])
      await t.createUser({ role: 'trainer', first_name: name, last_name: tag });
    await t.createUser({ role: 'provider', last_name: tag });
    const first = await t.post('trainer-list', { search: tag, per_page: 2, sort: '-first_name' }, admin);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(first.body.list.map((r: { first_name: string }) => r.first_name)).toEqual(['Chitra', 'Bela']);
    const second = await t.post('trainer-list', { search: tag, per_page: 2, page: 2, sort: '-first_name' }, admin);
    expect(second.body.list.map((r: { first_name: string }) => r.first_name)).toEqual(['Asha']);
    expect((await t.post('trainer-list', { per_page: 100 }, admin)).status).toBe(200);
    expect((await t.post('trainer-list', { per_page: 101 }, admin)).status).toBe(422);
    expect((await t.post('trainer-list', { sort: 'password' }, admin)).status).toBe(422);
  });
});

describe('trainer list, get and update', () => {
  it('lists trainers only, reads and edits one by id; a non-trainer id answers 404', async () => {
    const trainer = await t.createUser({ role: 'trainer', first_name: 'Vik' });
    const provider = await t.createUser({ role: 'provider' });
    const list = await t.post('trainer-list', undefined, admin);
    expect(list.status).toBe(200);
    expect(list.body.list.every((r: { id: number }) => r.id !== provider.id)).toBe(true);
    const record = {
      id: trainer.id,
      slug: trainer.slug,
      first_name: 'Vik',
      last_name: 'trainer',
      email: trainer.email,
      mobile_no: '9876543210',
      status: 1,
    };
    expect(list.body.list).toContainEqual(record);
    expect(await t.post('get-trainer', { id: String(trainer.id) }, admin)).toEqual({
      status: 200,
      body: { success: record },
    });
    expect((await t.post('get-trainer', { id: provider.id }, admin)).status).toBe(404);
    expect((await t.post('get-trainer', {}, admin)).body).toEqual({ id: ['The id field is required.'] });

    const update = {
      id: trainer.id,
      first_name: 'Vikram',
      last_name: 'Iyer',
      email: 'vikram@example.test',
      mobile_no: '9000000001',
    };
    expect(await t.post('update-trainer', update, admin)).toEqual({
      status: 200,
      body: { message: ORG_MSG.recordUpdated, slug: trainer.slug },
    });
    expect((await t.post('get-trainer', { id: trainer.id }, admin)).body.success).toMatchObject({
      first_name: 'Vikram',
      last_name: 'Iyer',
      email: 'vikram@example.test',
      mobile_no: '9000000001',
    });
    expect((await t.post('update-trainer', { ...update, id: provider.id }, admin)).status).toBe(404);
    const taken = await t.post('update-trainer', { ...update, email: provider.email }, admin);
    expect(taken).toEqual({ status: 422, body: { email: [ORG_MSG.emailTaken] } });
  });
});
