import { eq, sql } from 'drizzle-orm';
import { organizations, users } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { UserRow } from '../../platform/http/auth-context';

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return rows[0];
}

/**
 * An account of an organization can sign in only while the organization is active and approved: a
 * deactivated organization (spec 02 §2 'Admin approvals') or one still waiting for, or withdrawn
 * from, approval (spec 01 §4) keeps all of its accounts out.
 */
export async function organizationIsActive(db: Db, organizationId: number | null): Promise<boolean> {
  if (!organizationId) return true;
  const rows = await db
    .select({ status: organizations.status, is_approved: organizations.is_approved })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return rows[0]?.status === 1 && rows[0]?.is_approved === 1;
}
