import { API, MSG } from '@trainlab/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { categories } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';
import { makeSlug } from '../../platform/slug';
import { isUniqueViolation } from './shared';

const NAME_TAKEN = 'The name has already been taken.';

export function categoryRoutes(app: FastifyInstance, deps: Deps): void {
  const nameTakenBy = async (name: string) => {
    const [row] = await deps.db
      .select({ id: categories.id })
      .from(categories)
      .where(sql`lower(${categories.name}) = ${name.toLowerCase()}`);
    return row?.id;
  };

  defineCall(app, deps, API.categoryList, async () => ({
    list: await deps.db
      .select({ id: categories.id, name: categories.name, slug: categories.slug })
      .from(categories)
      .orderBy(asc(categories.name)),
  }));

  defineCall(
    app,
    deps,
    API.createCategory,
    audited(API.createCategory, { type: 'category' }, async ({ body }) => {
      if (await nameTakenBy(body.name)) throw invalidField('name', NAME_TAKEN);
      try {
        const [row] = await deps.db
          .insert(categories)
          .values({ name: body.name, slug: makeSlug(body.name) })
          .returning();
        return { message: MSG.recordAdded, id: row!.id, slug: row!.slug };
      } catch (e) {
        if (isUniqueViolation(e)) throw invalidField('name', NAME_TAKEN);
        throw e;
      }
    }),
  );

  defineCall(
    app,
    deps,
    API.updateCategory,
    audited(API.updateCategory, { type: 'category', table: categories, key: 'id' }, async ({ body }) => {
      const [current] = await deps.db.select().from(categories).where(eq(categories.id, body.id));
      if (!current) throw notFound();
      const owner = await nameTakenBy(body.name);
      if (owner && owner !== current.id) throw invalidField('name', NAME_TAKEN);
      try {
        await deps.db.update(categories).set({ name: body.name }).where(eq(categories.id, current.id));
      } catch (e) {
        if (isUniqueViolation(e)) throw invalidField('name', NAME_TAKEN);
        throw e;
      }
      return { message: MSG.recordUpdated, id: current.id, slug: current.slug };
    }),
  );
}
