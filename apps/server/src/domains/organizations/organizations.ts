import {
  ORG_MSG,
  type OrganizationRecord,
  type orgApprovedRequest,
  type organizationsRequest,
  type orgStatusRequest,
  type registerOrganizationRequest,
} from '@trainlab/contract';
import { and, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { organizations, sessions, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import { countWhere, orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { makeSlug } from '../../platform/slug';
import { sendDecisionMail } from '../accounts-mail';
import { iso } from './shared';

type OrgRow = typeof organizations.$inferSelect;

export const toOrganizationRecord = (o: OrgRow): OrganizationRecord => ({
  id: o.id,
  slug: o.slug,
  name: o.name,
  email: o.email,
  description: o.description,
  status: o.status,
  is_approved: o.is_approved,
  org_domain: o.org_domain,
  sp_link: o.sp_link,
  ip_link: o.ip_link,
  org_id: o.parent_id,
  created_at: iso(o.created_at),
});

/** A visitor registers an organization (/register-organization); it waits for the admin's approval. */
export async function registerOrganization(deps: Deps, body: z.output<typeof registerOrganizationRequest>) {
  if (body.org_id) {
    const [parent] = await deps.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, body.org_id));
    if (!parent) throw invalidField('org_id', 'The selected org id is invalid.');
  }
  const [sameEmail] = await deps.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(sql`lower(${organizations.email}) = ${body.email}`);
  if (sameEmail) throw invalidField('email', ORG_MSG.emailTaken);

  const [row] = await deps.db
    .insert(organizations)
    .values({
      slug: makeSlug(body.name),
      name: body.name,
      email: body.email,
      parent_id: body.org_id,
      org_domain: body.org_domain,
      sp_link: body.sp_link,
      ip_link: body.ip_link,
      description: body.description,
      status: 1,
      is_approved: 0,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  await deps.mail.send({
    to: row.email,
    subject: 'Your organization registration is waiting for approval',
    text: `Hello ${row.name},\n\nWe received the registration of ${row.name}. An administrator will review it and you will get a mail once it is approved.\n`,
  });
  return { message: ORG_MSG.organizationRegistered, id: row.id, slug: row.slug };
}

export async function listOrganizations(deps: Deps, q: z.output<typeof organizationsRequest>, only?: SQL) {
  const window = pageWindow(q);
  const where = and(only, searchWhere(q.search, [organizations.name, organizations.email, organizations.org_domain]));
  const rows = await deps.db
    .select({ ...getTableColumns(organizations), total: totalOver() })
    .from(organizations)
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort,
        { name: organizations.name, email: organizations.email, created_at: organizations.id },
        [desc(organizations.id)],
        organizations.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toPage(rows, window, toOrganizationRecord, () => countWhere(deps.db, organizations, where));
}

export const APPROVED = eq(organizations.is_approved, 1);
export const WAITING = eq(organizations.is_approved, 0);

async function findOrganization(deps: Deps, id: number): Promise<OrgRow> {
  const [row] = await deps.db.select().from(organizations).where(eq(organizations.id, id));
  if (!row) throw notFound();
  return row;
}

/** Sign every account of the organization out: it can no longer sign in, so no old session may go on. */
async function revokeOrganizationSessions(deps: Deps, organizationId: number): Promise<void> {
  const members = deps.db.select({ id: users.id }).from(users).where(eq(users.organization_id, organizationId));
  await deps.db
    .update(sessions)
    .set({ revoked_at: new Date() })
    .where(and(inArray(sessions.user_id, members), isNull(sessions.revoked_at)));
}

const changed = (o: OrgRow, message: string) => ({
  message,
  org_id: o.id,
  is_approved: o.is_approved,
  status: o.status,
});

/** Yes: 0 → 1 and the organization is told by e-mail. No: 1 → 0 and its accounts are signed out. */
export async function setApproval(deps: Deps, body: z.output<typeof orgApprovedRequest>) {
  const org = await findOrganization(deps, body.org_id);
  const target = body.is_approved ? 1 : 0;
  const message = target ? ORG_MSG.organizationApproved : ORG_MSG.organizationUnapproved;
  if (org.is_approved === target) return changed(org, message);
  const [row] = await deps.db
    .update(organizations)
    .set({ is_approved: target })
    .where(eq(organizations.id, org.id))
    .returning();
  if (target) await sendDecisionMail(deps, row!.email, row!.name, 'approved', 'organization registration');
  else await revokeOrganizationSessions(deps, org.id);
  return changed(row!, message);
}

/** Activate (1) or deactivate (0); a deactivated organization's accounts cannot sign in. */
export async function setStatus(deps: Deps, body: z.output<typeof orgStatusRequest>) {
  const org = await findOrganization(deps, body.org_id);
  const target = body.status ? 1 : 0;
  const message = target ? ORG_MSG.organizationActivated : ORG_MSG.organizationDeactivated;
  const [row] = await deps.db
    .update(organizations)
    .set({ status: target })
    .where(eq(organizations.id, org.id))
    .returning();
  if (!target) await revokeOrganizationSessions(deps, org.id);
  return changed(row!, message);
}
