import type { Role } from '@trainlab/contract';
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

describe('categories', () => {
  it('only the admin may list, create or update', async () => {
    await expectAccess(t, tokens, 'category-list', {}, ['admin']);
    await expectAccess(t, tokens, 'create-category', { name: 'Cloud' }, ['admin']);
    await expectAccess(t, tokens, 'update-category', { id: 1, name: 'Cloud' }, ['admin']);
  });

  it('create-category adds a category with a slug; the list is sorted by name', async () => {
    const res = await t.post('create-category', { name: 'Networking' }, tokens.admin);
    expect(res).toMatchObject({
      status: 200,
      body: {
        message: 'Record Added Successfully!',
        id: expect.any(Number),
        slug: expect.stringMatching(/^networking-/),
      },
    });
    await t.post('create-category', { name: 'Cloud Computing' }, tokens.admin);
    const list = await t.post('category-list', undefined, tokens.admin);
    expect(list.status).toBe(200);
    expect(list.body.list.map((c: { name: string }) => c.name)).toEqual(['Cloud Computing', 'Networking']);
    expect(list.body.list[1]).toEqual({ id: res.body.id, name: 'Networking', slug: res.body.slug });
  });

  it('create-category: name required and unique (case-insensitive)', async () => {
    expect(await t.post('create-category', {}, tokens.admin)).toEqual({
      status: 422,
      body: { name: ['The name field is required.'] },
    });
    expect((await t.post('create-category', { name: '   ' }, tokens.admin)).body).toEqual({
      name: ['The name field is required.'],
    });
    await t.post('create-category', { name: 'Security' }, tokens.admin);
    expect(await t.post('create-category', { name: 'SECURITY' }, tokens.admin)).toEqual({
      status: 422,
      body: { name: ['The name has already been taken.'] },
    });
  });

  it('update-category renames by id and keeps the slug', async () => {
    const created = await t.post('create-category', { name: 'Data' }, tokens.admin);
    const res = await t.post(
      'update-category',
      { id: created.body.id, name: 'Data Science', slug: created.body.slug },
      tokens.admin,
    );
    expect(res).toEqual({
      status: 200,
      body: { message: 'Record updated successfully!', id: created.body.id, slug: created.body.slug },
    });
    const list = await t.post('category-list', {}, tokens.admin);
    expect(list.body.list).toContainEqual({ id: created.body.id, name: 'Data Science', slug: created.body.slug });
    // the same name again on the same record is fine
    expect((await t.post('update-category', { id: created.body.id, name: 'data science' }, tokens.admin)).status).toBe(
      200,
    );
  });

  it('update-category: 422 per field, taken name, 404 for an unknown id', async () => {
    expect(await t.post('update-category', {}, tokens.admin)).toEqual({
      status: 422,
      body: { id: ['The id field is required.'], name: ['The name field is required.'] },
    });
    expect((await t.post('update-category', { id: 'abc', name: 'x' }, tokens.admin)).body).toEqual({
      id: ['The id must be a number.'],
    });
    const a = await t.post('create-category', { name: 'Alpha' }, tokens.admin);
    await t.post('create-category', { name: 'Beta' }, tokens.admin);
    expect(await t.post('update-category', { id: a.body.id, name: 'beta' }, tokens.admin)).toEqual({
      status: 422,
      body: { name: ['The name has already been taken.'] },
    });
    expect((await t.post('update-category', { id: 999999, name: 'Gamma' }, tokens.admin)).status).toBe(404);
  });
});
