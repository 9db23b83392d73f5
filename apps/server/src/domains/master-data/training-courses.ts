import { API, MSG } from '@trainlab/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { categories, trainingCourses, trainingModules, trainingTopics } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';
import { isForeignKeyViolation } from './shared';

const invalid = (field: string) => invalidField(field, `The selected ${field} is invalid.`);

/** Inserts whose parent may vanish between the check and the write answer the same 422. */
async function orInvalid<T>(field: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isForeignKeyViolation(e)) throw invalid(field);
    throw e;
  }
}

async function courseRows(db: Db) {
  return db
    .select({
      id: trainingCourses.id,
      name: trainingCourses.name,
      category: trainingCourses.category_id,
      category_name: categories.name,
      level: trainingCourses.level,
      duration: trainingCourses.duration,
      duration_type: trainingCourses.duration_type,
      price: trainingCourses.price,
    })
    .from(trainingCourses)
    .innerJoin(categories, eq(categories.id, trainingCourses.category_id))
    .orderBy(asc(trainingCourses.name), asc(trainingCourses.id));
}

/** Modules (with their topics) of the given courses. */
async function modulesOf(db: Db, courseIds: number[]) {
  if (courseIds.length === 0) return [];
  const modules = await db
    .select({
      id: trainingModules.id,
      name: trainingModules.name,
      course: trainingModules.course_id,
      price: trainingModules.price,
      duration: trainingModules.duration,
    })
    .from(trainingModules)
    .where(inArray(trainingModules.course_id, courseIds))
    .orderBy(asc(trainingModules.id));
  const topics = modules.length
    ? await db
        .select({ id: trainingTopics.id, name: trainingTopics.name, module: trainingTopics.module_id })
        .from(trainingTopics)
        .where(
          inArray(
            trainingTopics.module_id,
            modules.map((m) => m.id),
          ),
        )
        .orderBy(asc(trainingTopics.id))
    : [];
  return modules.map((m) => ({
    ...m,
    topics: topics.filter((t) => t.module === m.id).map(({ id, name }) => ({ id, name })),
  }));
}

export function trainingCourseRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.trainingCourseList, async () => {
    const courses = await courseRows(deps.db);
    const modules = await modulesOf(
      deps.db,
      courses.map((c) => c.id),
    );
    return { list: courses.map((c) => ({ ...c, modules: modules.filter((m) => m.course === c.id) })) };
  });

  defineCall(app, deps, API.getAllTrainingCourseList, async () => ({ list: await courseRows(deps.db) }));

  defineCall(
    app,
    deps,
    API.createTrainingCourse,
    audited(API.createTrainingCourse, { type: 'training-course' }, async ({ body }) => {
      const [category] = await deps.db
        .select({ id: categories.id })
        .from(categories)
        .where(eq(categories.id, body.category));
      if (!category) throw invalid('category');
      const [row] = await orInvalid('category', () =>
        deps.db
          .insert(trainingCourses)
          .values({
            name: body.name,
            category_id: category.id,
            level: body.level,
            duration: body.duration,
            duration_type: body.duration_type,
            price: body.price,
          })
          .returning({ id: trainingCourses.id }),
      );
      return { message: MSG.recordAdded, id: row!.id };
    }),
  );

  defineCall(
    app,
    deps,
    API.deleteTrainingCourse,
    audited(
      API.deleteTrainingCourse,
      { type: 'training-course', table: trainingCourses, key: 'course_id', column: trainingCourses.id },
      async ({ body }) => {
        // modules and topics go with the course (ON DELETE CASCADE)
        const deleted = await deps.db
          .delete(trainingCourses)
          .where(eq(trainingCourses.id, body.course_id))
          .returning({ id: trainingCourses.id });
        if (deleted.length === 0) throw notFound();
        return { message: MSG.courseDeleted };
      },
    ),
  );

  defineCall(app, deps, API.trainingModuleList, async ({ body }) => {
    const [course] = await deps.db
      .select({ id: trainingCourses.id })
      .from(trainingCourses)
      .where(eq(trainingCourses.id, body.course_id));
    if (!course) throw notFound();
    return { list: await modulesOf(deps.db, [course.id]) };
  });

  defineCall(
    app,
    deps,
    API.createTrainingModule,
    audited(API.createTrainingModule, { type: 'training-module' }, async ({ body }) => {
      const [course] = await deps.db
        .select({ id: trainingCourses.id })
        .from(trainingCourses)
        .where(eq(trainingCourses.id, body.course));
      if (!course) throw invalid('course');
      const [row] = await orInvalid('course', () =>
        deps.db
          .insert(trainingModules)
          .values({ course_id: course.id, name: body.name, price: body.price, duration: body.duration })
          .returning({ id: trainingModules.id }),
      );
      return { message: MSG.recordAdded, id: row!.id };
    }),
  );

  defineCall(
    app,
    deps,
    API.deleteTrainingModule,
    audited(
      API.deleteTrainingModule,
      { type: 'training-module', table: trainingModules, key: 'module_id', column: trainingModules.id },
      async ({ body }) => {
        const deleted = await deps.db
          .delete(trainingModules)
          .where(eq(trainingModules.id, body.module_id))
          .returning({ id: trainingModules.id });
        if (deleted.length === 0) throw notFound();
        return { message: MSG.recordDeleted };
      },
    ),
  );

  defineCall(
    app,
    deps,
    API.createTrainingTopic,
    audited(API.createTrainingTopic, { type: 'training-topic' }, async ({ body }) => {
      const [course] = await deps.db
        .select({ id: trainingCourses.id })
        .from(trainingCourses)
        .where(eq(trainingCourses.id, body.course));
      if (!course) throw invalid('course');
      const [module] = await deps.db
        .select({ id: trainingModules.id, course_id: trainingModules.course_id })
        .from(trainingModules)
        .where(eq(trainingModules.id, body.module));
      if (!module || module.course_id !== course.id) throw invalid('module');
      const rows = await orInvalid('module', () =>
        deps.db
          .insert(trainingTopics)
          .values(body.topics.map((name) => ({ course_id: course.id, module_id: module.id, name })))
          .returning({ id: trainingTopics.id }),
      );
      return { message: MSG.recordAdded, ids: rows.map((r) => r.id) };
    }),
  );

  defineCall(
    app,
    deps,
    API.deleteTrainingTopic,
    audited(
      API.deleteTrainingTopic,
      { type: 'training-topic', table: trainingTopics, key: 'topic_id', column: trainingTopics.id },
      async ({ body }) => {
        const deleted = await deps.db
          .delete(trainingTopics)
          .where(eq(trainingTopics.id, body.topic_id))
          .returning({ id: trainingTopics.id });
        if (deleted.length === 0) throw notFound();
        return { message: MSG.recordDeleted };
      },
    ),
  );
}
