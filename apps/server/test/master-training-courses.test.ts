import type { Role } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainingModules, trainingTopics } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';
import { expectAccess, roleTokens } from './master-support';

let t: TestApp;
let tokens: Record<Role, string>;
let categoryId: number;
beforeAll(async () => {
  t = await createTestApp();
  tokens = await roleTokens(t);
  categoryId = (await t.post('create-category', { name: 'Cloud' }, tokens.admin)).body.id;
});
afterAll(() => t.close());

const course = (over: Record<string, unknown> = {}) => ({
  name: 'Kubernetes',
  category: categoryId,
  level: 'Beginner',
  duration: 3,
  duration_type: 'Days',
  price: '499.99',
  ...over,
});

async function makeCourse(name: string) {
  const c = await t.post('create-training-course', course({ name }), tokens.admin);
  const m = await t.post(
    'create-training-module',
    { name: `${name} M1`, course: c.body.id, price: 10, duration: 2 },
    tokens.admin,
  );
  const topics = await t.post(
    'create-training-topic',
    { course: c.body.id, module: m.body.id, topics: ['Intro', 'Pods'] },
    tokens.admin,
  );
  return { course: c.body.id as number, module: m.body.id as number, topics: topics.body.ids as number[] };
}

describe('training courses', () => {
  it('every call is admin only', async () => {
    await expectAccess(t, tokens, 'training-course-list', {}, ['admin']);
    await expectAccess(t, tokens, 'get-all-training-course-list', {}, ['admin']);
    await expectAccess(t, tokens, 'create-training-course', course(), ['admin']);
    await expectAccess(t, tokens, 'delete-training-course', { course_id: 1 }, ['admin']);
    await expectAccess(t, tokens, 'training-module-list', { course_id: 1 }, ['admin']);
    await expectAccess(t, tokens, 'create-training-module', { name: 'M', course: 1, price: 1, duration: 1 }, ['admin']);
    await expectAccess(t, tokens, 'delete-training-module', { module_id: 1 }, ['admin']);
    await expectAccess(t, tokens, 'create-training-topic', { course: 1, module: 1, topics: ['a'] }, ['admin']);
    await expectAccess(t, tokens, 'delete-training-topic', { topic_id: 1 }, ['admin']);
  });

  it('create-training-course, then the flat and the nested lists', async () => {
    const res = await t.post('create-training-course', course({ name: 'Ansible' }), tokens.admin);
    expect(res).toMatchObject({ status: 200, body: { message: 'Record Added Successfully!', id: expect.any(Number) } });
    const flat = await t.post('get-all-training-course-list', {}, tokens.admin);
    expect(flat.body.list).toContainEqual({
      id: res.body.id,
      name: 'Ansible',
      category: categoryId,
      category_name: 'Cloud',
      level: 'Beginner',
      duration: 3,
      duration_type: 'Days',
      price: 499.99,
    });
    const made = await makeCourse('Docker');
    const nested = await t.post('training-course-list', undefined, tokens.admin);
    const docker = nested.body.list.find((c: { id: number }) => c.id === made.course);
    expect(docker.modules).toEqual([
      {
        id: made.module,
        name: 'Docker M1',
        course: made.course,
        price: 10,
        duration: 2,
        topics: [
          { id: made.topics[0], name: 'Intro' },
          { id: made.topics[1], name: 'Pods' },
        ],
      },
    ]);
    expect(nested.body.list.find((c: { id: number }) => c.id === res.body.id).modules).toEqual([]);
  });

  it('create-training-course: 422 for each field and an unknown category', async () => {
    expect(await t.post('create-training-course', {}, tokens.admin)).toEqual({
      status: 422,
      body: {
        name: ['The name field is required.'],
        category: ['The category field is required.'],
        level: ['The level field is required.'],
        duration: ['The duration field is required.'],
        duration_type: ['The duration type field is required.'],
        price: ['The price field is required.'],
      },
    });
    expect(
      (
        await t.post(
          'create-training-course',
          course({ level: 'Guru', duration: 0, duration_type: 'Fortnight', price: -5 }),
          tokens.admin,
        )
      ).body,
    ).toEqual({
      level: ['The selected level is invalid.'],
      duration: ['The duration must be greater than 0.'],
      duration_type: ['The selected duration type is invalid.'],
      price: ['The price must be at least 0.'],
    });
    for (const duration_type of ['Hours', 'Days', 'Weeks', 'Month', 'Year']) {
      expect(
        (await t.post('create-training-course', course({ name: duration_type, duration_type }), tokens.admin)).status,
      ).toBe(200);
    }
    expect(await t.post('create-training-course', course({ category: 999999 }), tokens.admin)).toEqual({
      status: 422,
      body: { category: ['The selected category is invalid.'] },
    });
  });

  it('delete-training-course deletes its modules and topics', async () => {
    const made = await makeCourse('Terraform');
    const other = await makeCourse('Helm');
    expect(await t.post('delete-training-course', { course_id: made.course }, tokens.admin)).toEqual({
      status: 200,
      body: { message: 'Course Deleted Successfully!' },
    });
    expect(await t.deps.db.select().from(trainingModules).where(eq(trainingModules.course_id, made.course))).toEqual(
      [],
    );
    expect(await t.deps.db.select().from(trainingTopics).where(eq(trainingTopics.course_id, made.course))).toEqual([]);
    expect(
      (await t.deps.db.select().from(trainingTopics).where(eq(trainingTopics.course_id, other.course))).length,
    ).toBe(2);
    expect((await t.post('delete-training-course', { course_id: made.course }, tokens.admin)).status).toBe(404);
    expect((await t.post('delete-training-course', {}, tokens.admin)).body).toEqual({
      course_id: ['The course id field is required.'],
    });
  });

  it('modules: list, create (422 per field, unknown course), delete with topics', async () => {
    const made = await makeCourse('Linux');
    const list = await t.post('training-module-list', { course_id: made.course }, tokens.admin);
    expect(list.body.list).toHaveLength(1);
    expect(list.body.list[0].topics).toHaveLength(2);
    expect((await t.post('training-module-list', { course_id: 999999 }, tokens.admin)).status).toBe(404);
    expect((await t.post('training-module-list', {}, tokens.admin)).body).toEqual({
      course_id: ['The course id field is required.'],
    });

    expect(await t.post('create-training-module', {}, tokens.admin)).toEqual({
      status: 422,
      body: {
        name: ['The name field is required.'],
        course: ['The course field is required.'],
        price: ['The price field is required.'],
        duration: ['The duration field is required.'],
      },
    });
    expect(
      (
        await t.post(
          'create-training-module',
          { name: 'M', course: made.course, price: 'x', duration: -1 },
          tokens.admin,
        )
      ).body,
    ).toEqual({ price: ['The price must be a number.'], duration: ['The duration must be greater than 0.'] });
    expect(
      await t.post('create-training-module', { name: 'M', course: 999999, price: 1, duration: 1 }, tokens.admin),
    ).toEqual({ status: 422, body: { course: ['The selected course is invalid.'] } });
    const m2 = await t.post(
      'create-training-module',
      { name: 'M2', course: made.course, price: 0, duration: 1.5 },
      tokens.admin,
    );
    expect(m2).toMatchObject({ status: 200, body: { message: 'Record Added Successfully!' } });

    expect(await t.post('delete-training-module', { module_id: made.module }, tokens.admin)).toEqual({
      status: 200,
      body: { message: 'Record deleted successfully!' },
    });
    expect(await t.deps.db.select().from(trainingTopics).where(eq(trainingTopics.module_id, made.module))).toEqual([]);
    const after = await t.post('training-module-list', { course_id: made.course }, tokens.admin);
    expect(after.body.list.map((m: { name: string }) => m.name)).toEqual(['M2']);
    expect((await t.post('delete-training-module', { module_id: made.module }, tokens.admin)).status).toBe(404);
    expect((await t.post('delete-training-module', {}, tokens.admin)).body).toEqual({
      module_id: ['The module id field is required.'],
    });
  });

  it('topics: create needs non-empty topics and a module of that course; delete', async () => {
    const a = await makeCourse('Python');
    const b = await makeCourse('Go');
    expect(await t.post('create-training-topic', {}, tokens.admin)).toEqual({
      status: 422,
      body: {
        course: ['The course field is required.'],
        module: ['The module field is required.'],
        topics: ['The topics field is required.'],
      },
    });
    for (const topics of [[], ['ok', '  '], 'Intro']) {
      const res = await t.post('create-training-topic', { course: a.course, module: a.module, topics }, tokens.admin);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body)).toEqual(['topics']);
    }
    expect(
      await t.post('create-training-topic', { course: a.course, module: b.module, topics: ['x'] }, tokens.admin),
    ).toEqual({ status: 422, body: { module: ['The selected module is invalid.'] } });
    expect(
      await t.post('create-training-topic', { course: 999999, module: a.module, topics: ['x'] }, tokens.admin),
    ).toEqual({ status: 422, body: { course: ['The selected course is invalid.'] } });
    const ok = await t.post(
      'create-training-topic',
      { course: a.course, module: a.module, topics: [' Decorators ', 'Generators'] },
      tokens.admin,
    );
    expect(ok).toMatchObject({
      status: 200,
      body: { message: 'Record Added Successfully!', ids: [expect.any(Number), expect.any(Number)] },
    });
    const modules = (await t.post('training-module-list', { course_id: a.course }, tokens.admin)).body.list;
    expect(modules[0].topics.map((x: { name: string }) => x.name)).toEqual([
      'Intro',
      'Pods',
      'Decorators',
      'Generators',
    ]);

    expect(await t.post('delete-training-topic', { topic_id: ok.body.ids[0] }, tokens.admin)).toEqual({
      status: 200,
      body: { message: 'Record deleted successfully!' },
    });
    const again = (await t.post('training-module-list', { course_id: a.course }, tokens.admin)).body.list;
    expect(again[0].topics.map((x: { name: string }) => x.name)).toEqual(['Intro', 'Pods', 'Generators']);
    expect((await t.post('delete-training-topic', { topic_id: ok.body.ids[0] }, tokens.admin)).status).toBe(404);
    expect((await t.post('delete-training-topic', {}, tokens.admin)).body).toEqual({
      topic_id: ['The topic id field is required.'],
    });
  });
});
