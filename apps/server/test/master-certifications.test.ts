import { CERTIFICATION_MASTER_TYPES, type Role } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { ALL_ROLES, expectAccess, roleTokens, seedMasters } from './master-support';

let t: TestApp;
let tokens: Record<Role, string>;
let masters: Awaited<ReturnType<typeof seedMasters>>;
beforeAll(async () => {
  t = await createTestApp();
  tokens = await roleTokens(t);
  masters = await seedMasters(t, tokens.admin);
});
afterAll(() => t.close());

const form = () => ({
  name: 'AWS Certified Solutions Architect',
  level: 'Intermediate',
  ...masters,
  exam_link: 'https://aws.example/exam',
  product_link: 'https://aws.example/',
  duration: '130 minutes',
  certification_description: 'Design on AWS.',
  certification_prerequisites: 'One year on AWS.',
  certification_details: '65 questions.',
  remark: 'Popular',
  cost_doller: 150,
  cost_inr: '12500.50',
  recommended_experiance: 0,
});

describe('certification master', () => {
  it('create-certification-master is admin only; the list is public', async () => {
    await expectAccess(t, tokens, 'create-certification-master', { type: 'Product', name: 'X' }, ['admin']);
    const anon = await t.post('certification-master-list', {});
    expect(anon.status).toBe(200);
    expect(anon.body.list.length).toBeGreaterThanOrEqual(5);
    for (const role of ALL_ROLES) {
      expect((await t.post('certification-master-list', {}, tokens[role])).status).toBe(200);
    }
  });

  it('adds items of each type and filters the list by type', async () => {
    const res = await t.post(
      'create-certification-master',
      { type: 'CertificationType', name: 'Google', description: null, overview: '' },
      tokens.admin,
    );
    expect(res).toMatchObject({ status: 200, body: { message: 'Record Added Successfully!', id: expect.any(Number) } });
    const list = await t.post('certification-master-list', { type: 'CertificationType' });
    expect(list.body.list).toEqual([
      {
        id: masters.certification_type,
        type: 'CertificationType',
        name: 'AWS',
        description: 'AWS description',
        overview: 'AWS overview',
      },
      { id: res.body.id, type: 'CertificationType', name: 'Google', description: null, overview: null },
    ]);
    const all = await t.post('certification-master-list', { type: '' });
    expect(new Set(all.body.list.map((m: { type: string }) => m.type))).toEqual(new Set(CERTIFICATION_MASTER_TYPES));
    expect(await t.post('certification-master-list', { type: 'Vendor' })).toEqual({
      status: 422,
      body: { type: ['The selected type is invalid.'] },
    });
  });

  it('validates: name always, Exam needs overview and description, RolesType needs description', async () => {
    expect(await t.post('create-certification-master', {}, tokens.admin)).toEqual({
      status: 422,
      body: { type: ['The type field is required.'], name: ['The name field is required.'] },
    });
    expect((await t.post('create-certification-master', { type: 'Vendor', name: 'X' }, tokens.admin)).body).toEqual({
      type: ['The selected type is invalid.'],
    });
    expect((await t.post('create-certification-master', { type: 'Exam', name: 'AZ-900' }, tokens.admin)).body).toEqual({
      description: ['The description field is required.'],
      overview: ['The overview field is required.'],
    });
    expect(
      (await t.post('create-certification-master', { type: 'RolesType', name: 'Dev' }, tokens.admin)).body,
    ).toEqual({ description: ['The description field is required.'] });
    expect(
      (
        await t.post(
          'create-certification-master',
          { type: 'Exam', name: 'AZ-900', description: 'd', overview: ' ' },
          tokens.admin,
        )
      ).body,
    ).toEqual({ overview: ['The overview field is required.'] });
    for (const type of ['Product', 'CertificationType', 'CertificationRoles']) {
      expect(
        (await t.post('create-certification-master', { type, name: `Only name ${type}` }, tokens.admin)).status,
      ).toBe(200);
    }
  });

  it("a duplicate name within a type is 'The Name has already been taken.'; other types may reuse it", async () => {
    expect(
      await t.post('create-certification-master', { type: 'Product', name: 'amazon web services' }, tokens.admin),
    ).toEqual({
      status: 422,
      body: { name: ['The Name has already been taken.'] },
    });
    expect(
      (
        await t.post(
          'create-certification-master',
          { type: 'CertificationRoles', name: 'Amazon Web Services' },
          tokens.admin,
        )
      ).status,
    ).toBe(200);
  });
});

describe('certifications', () => {
  it('create, get, update, delete are admin only; list and details are public', async () => {
    await expectAccess(t, tokens, 'create-certification', form(), ['admin']);
    await expectAccess(t, tokens, 'get-certification', { id: 1 }, ['admin']);
    await expectAccess(t, tokens, 'update-certification', { ...form(), id: 1 }, ['admin']);
    await expectAccess(t, tokens, 'delete-certification', { id: 1 }, ['admin']);
    expect((await t.post('certification-list', {})).status).toBe(200);
  });

  it('create-certification stores the record; list, get and details read it back with names', async () => {
    const res = await t.post('create-certification', form(), tokens.admin);
    expect(res).toMatchObject({ status: 200, body: { message: 'Record Added Successfully!', id: expect.any(Number) } });
    const expected = {
      id: res.body.id,
      name: 'AWS Certified Solutions Architect',
      level: 'Intermediate',
      certification_type: 'AWS',
      certification_type_id: masters.certification_type,
      product: masters.product,
      product_name: 'Amazon Web Services',
      product_link: 'https://aws.example/',
      role: masters.role,
      role_name: 'Architect',
      exam: masters.exam,
      exam_name: 'SAA-C03',
      exam_link: 'https://aws.example/exam',
      duration: '130 minutes',
      certification_role: 'Solutions Architect',
      certification_role_id: masters.certification_role,
      certification_description: 'Design on AWS.',
      certification_prerequisites: 'One year on AWS.',
      certification_details: '65 questions.',
      remark: 'Popular',
      cost_doller: 150,
      cost_inr: 12500.5,
      recommended_experience: 0,
      is_set: 0,
    };
    expect(await t.post('get-certification', { id: res.body.id }, tokens.admin)).toEqual({
      status: 200,
      body: { success: expected },
    });
    expect(await t.post('get-certification-details', { id: String(res.body.id) })).toEqual({
      status: 200,
      body: { success: expected },
    });
    const list = await t.post('certification-list', {});
    expect(list.body.list).toContainEqual(expected);
  });

  it('recommended_experiance defaults to 0 and is read back as recommended_experience', async () => {
    const { recommended_experiance: _, ...rest } = form();
    const res = await t.post('create-certification', { ...rest, name: 'Default experience' }, tokens.admin);
    expect(res.status).toBe(200);
    const got = await t.post('get-certification', { id: res.body.id }, tokens.admin);
    expect(got.body.success.recommended_experience).toBe(0);
    const withExp = await t.post(
      'create-certification',
      { ...form(), name: 'Two years', recommended_experiance: '2' },
      tokens.admin,
    );
    expect(
      (await t.post('get-certification', { id: withExp.body.id }, tokens.admin)).body.success.recommended_experience,
    ).toBe(2);
  });

  it('create-certification: 422 for each validated field', async () => {
    const empty = await t.post('create-certification', {}, tokens.admin);
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      name: ['The name field is required.'],
      level: ['The level field is required.'],
      certification_description: ['The certification description field is required.'],
      cost_doller: ['The cost doller field is required.'],
      cost_inr: ['The cost inr field is required.'],
      certification_type: ['The certification type field is required.'],
      product: ['The product field is required.'],
      role: ['The role field is required.'],
      exam: ['The exam field is required.'],
      certification_role: ['The certification role field is required.'],
    });
    const bad = await t.post(
      'create-certification',
      {
        ...form(),
        level: 'Expert',
        exam_link: 'not a link',
        product_link: 'ftp://x',
        cost_doller: -1,
        cost_inr: 'abc',
        recommended_experiance: 'lots',
      },
      tokens.admin,
    );
    expect(bad.body).toEqual({
      level: ['The selected level is invalid.'],
      exam_link: ['The exam link must be a valid URL.'],
      product_link: ['The product link must be a valid URL.'],
      cost_doller: ['The cost doller must be at least 0.'],
      cost_inr: ['The cost inr must be a number.'],
      recommended_experiance: ['The recommended experiance must be a number.'],
    });
  });

  it('pick-list ids must name master items of the matching type', async () => {
    const res = await t.post(
      'create-certification',
      {
        ...form(),
        certification_type: masters.product,
        product: 999999,
        role: masters.exam,
        exam: masters.role,
        certification_role: masters.certification_type,
      },
      tokens.admin,
    );
    expect(res).toEqual({
      status: 422,
      body: {
        certification_type: ['The selected certification type is invalid.'],
        product: ['The selected product is invalid.'],
        role: ['The selected role is invalid.'],
        exam: ['The selected exam is invalid.'],
        certification_role: ['The selected certification role is invalid.'],
      },
    });
  });

  it('certification-list pages and sorts on the server; a bad sort is a 422', async () => {
    const tag = `Paged${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) {
      expect((await t.post('create-certification', { ...form(), name: `${tag} ${i}` }, tokens.admin)).status).toBe(200);
    }
    const first = await t.post('certification-list', { search: tag, per_page: 2, sort: '-name' });
    expect(first.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(first.body.list.map((c: { name: string }) => c.name)).toEqual([`${tag} 2`, `${tag} 1`]);
    const second = await t.post('certification-list', { search: tag, per_page: 2, page: 2, sort: '-name' });
    expect(second.body.list.map((c: { name: string }) => c.name)).toEqual([`${tag} 0`]);
    expect((await t.post('certification-list', { sort: 'cost' })).status).toBe(422);
  });

  it('certification-list searches by name, product, type and exam', async () => {
    const google = await t.post(
      'create-certification-master',
      { type: 'CertificationType', name: 'Microsoft' },
      tokens.admin,
    );
    await t.post(
      'create-certification',
      { ...form(), name: 'Azure Fundamentals 100%', certification_type: google.body.id },
      tokens.admin,
    );
    const names = async (search: unknown) =>
      (await t.post('certification-list', { search })).body.list.map((c: { name: string }) => c.name);
    expect(await names('azure')).toEqual(['Azure Fundamentals 100%']);
    expect(await names('microsoft')).toEqual(['Azure Fundamentals 100%']);
    expect(await names('100%')).toEqual(['Azure Fundamentals 100%']);
    expect(await names('%')).toEqual(['Azure Fundamentals 100%']);
    expect((await names('amazon web')).length).toBeGreaterThanOrEqual(2);
    expect(await names('SAA-C03')).toContain('AWS Certified Solutions Architect');
    expect(await names('no such thing')).toEqual([]);
    expect((await names('')).length).toBeGreaterThanOrEqual(4);
  });

  it('update-certification changes the record with that id', async () => {
    const created = await t.post('create-certification', { ...form(), name: 'Before' }, tokens.admin);
    const other = await t.post('create-certification', { ...form(), name: 'Untouched' }, tokens.admin);
    const res = await t.post(
      'update-certification',
      { ...form(), id: created.body.id, name: 'After', level: 'Advance', cost_doller: 99 },
      tokens.admin,
    );
    expect(res).toEqual({ status: 200, body: { message: 'Record updated successfully!', id: created.body.id } });
    const got = (await t.post('get-certification', { id: created.body.id }, tokens.admin)).body.success;
    expect(got).toMatchObject({ name: 'After', level: 'Advance', cost_doller: 99 });
    expect((await t.post('get-certification', { id: other.body.id }, tokens.admin)).body.success.name).toBe(
      'Untouched',
    );
  });

  it('update-certification: 422 per field and for a wrong master, 404 for an unknown id', async () => {
    const created = await t.post('create-certification', { ...form(), name: 'To update' }, tokens.admin);
    expect((await t.post('update-certification', { ...form(), id: undefined }, tokens.admin)).body).toEqual({
      id: ['The id field is required.'],
    });
    expect(
      (await t.post('update-certification', { ...form(), id: created.body.id, name: '', level: 'x' }, tokens.admin))
        .body,
    ).toEqual({ name: ['The name field is required.'], level: ['The selected level is invalid.'] });
    expect(
      (await t.post('update-certification', { ...form(), id: created.body.id, product: masters.exam }, tokens.admin))
        .body,
    ).toEqual({ product: ['The selected product is invalid.'] });
    expect((await t.post('update-certification', { ...form(), id: 999999 }, tokens.admin)).status).toBe(404);
  });

  it('get and details: 404 for an unknown id, 422 without one', async () => {
    expect((await t.post('get-certification', { id: 999999 }, tokens.admin)).status).toBe(404);
    expect((await t.post('get-certification-details', { id: 999999 })).status).toBe(404);
    expect(await t.post('get-certification-details', {})).toEqual({
      status: 422,
      body: { id: ['The id field is required.'] },
    });
    expect((await t.post('get-certification', { id: 'MTI=' }, tokens.admin)).body).toEqual({
      id: ['The id must be a number.'],
    });
  });

  it('delete-certification deletes (and only that one); 404 afterwards', async () => {
    const a = await t.post('create-certification', { ...form(), name: 'Delete me' }, tokens.admin);
    const b = await t.post('create-certification', { ...form(), name: 'Keep me' }, tokens.admin);
    expect(await t.post('delete-certification', { id: a.body.id }, tokens.admin)).toEqual({
      status: 200,
      body: { message: 'Record deleted successfully!' },
    });
    expect((await t.post('get-certification', { id: a.body.id }, tokens.admin)).status).toBe(404);
    expect((await t.post('get-certification', { id: b.body.id }, tokens.admin)).status).toBe(200);
    expect((await t.post('delete-certification', { id: a.body.id }, tokens.admin)).status).toBe(404);
    expect(await t.post('delete-certification', {}, tokens.admin)).toEqual({
      status: 422,
      body: { id: ['The id field is required.'] },
    });
  });
});
