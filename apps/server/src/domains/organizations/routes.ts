import { API, MSG } from '@trainlab/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { linesOfBusiness, organizations } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';

export function organizationRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.getLineOfBusiness, async () => ({
    list: await deps.db
      .select({ id: linesOfBusiness.id, name: linesOfBusiness.name })
      .from(linesOfBusiness)
      .orderBy(asc(linesOfBusiness.name)),
  }));

  defineCall(app, deps, API.addLineOfBusiness, async ({ body }) => {
    const [existing] = await deps.db
      .select({ id: linesOfBusiness.id })
      .from(linesOfBusiness)
      .where(sql`lower(${linesOfBusiness.name}) = ${body.name.toLowerCase()}`);
    if (existing) throw invalidField('name', 'The name has already been taken.');
    const [row] = await deps.db.insert(linesOfBusiness).values({ name: body.name }).returning();
    return { message: MSG.recordAdded, id: row!.id };
  });

  defineCall(app, deps, API.getOrgRegister, async () => ({
    list: await deps.db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(and(eq(organizations.is_approved, 1), eq(organizations.status, 1)))
      .orderBy(asc(organizations.name)),
  }));
}
