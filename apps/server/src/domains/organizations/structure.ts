import { ORG_MSG } from '@trainlab/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { branches, departments, sections } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import { isUniqueViolation } from './shared';

/** The three per-organization pick lists of the add sub-admin / add user forms. */
export const ORG_UNITS = { department: departments, branch: branches, section: sections } as const;
export type OrgUnitKind = keyof typeof ORG_UNITS;

export async function listUnits(deps: Deps, kind: OrgUnitKind, organizationId: number) {
  const table = ORG_UNITS[kind];
  return {
    list: await deps.db
      .select({ id: table.id, name: table.name })
      .from(table)
      .where(eq(table.organization_id, organizationId))
      .orderBy(asc(table.name)),
  };
}

export async function addUnit(deps: Deps, kind: OrgUnitKind, organizationId: number, name: string) {
  const table = ORG_UNITS[kind];
  const [existing] = await deps.db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.organization_id, organizationId), sql`lower(${table.name}) = ${name.toLowerCase()}`));
  if (existing) throw invalidField('name', ORG_MSG.nameTaken);
  try {
    const [row] = await deps.db.insert(table).values({ organization_id: organizationId, name }).returning();
    return { message: ORG_MSG.recordAdded, id: row!.id };
  } catch (e) {
    // two "Add New" submits racing: the unique index decides, the loser gets the same 422
    if (isUniqueViolation(e)) throw invalidField('name', ORG_MSG.nameTaken);
    throw e;
  }
}

/** An id picked from a list must name an entry of the caller's own organization. */
export async function unitBelongs(db: Db, kind: OrgUnitKind, organizationId: number, id: number): Promise<boolean> {
  const table = ORG_UNITS[kind];
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, id), eq(table.organization_id, organizationId)));
  return rows.length > 0;
}
