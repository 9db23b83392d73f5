import { ORG_MSG } from '@trainlab/contract';
import { type SQL, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import { forbidden } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';

/** The organization an organization-role or org_subadmin caller acts for; every org call is scoped to it. */
export function callerOrganizationId(auth: AuthContext): number {
  const id = auth.user.organization_id;
  if (!id) throw forbidden(ORG_MSG.noOrganization);
  return id;
}

/** Drizzle wraps driver errors; the SQLSTATE sits on the error or its cause. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string } };
  return err?.code === '23505' || err?.cause?.code === '23505';
}

export const iso = (d: Date): string => d.toISOString();

export const emailIs = (email: string): SQL => sql`lower(${users.email}) = ${email.toLowerCase()}`;

export async function emailTaken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId ? sql`${emailIs(email)} and ${users.id} <> ${exceptUserId}` : emailIs(email))
    .limit(1);
  return rows.length > 0;
}
