import { ORG_MSG, type orgMemberRequest, type Role, type subadminDecision, USER_TYPES } from '@trainlab/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { linesOfBusiness, organizations, orgMemberships, orgSubadminRequests, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound, ValidationError } from '../../platform/errors';
import { makeSlug } from '../../platform/slug';
import { issuePasswordLink, sendDecisionMail } from '../accounts-mail';
import { emailTaken, iso, isUniqueViolation } from './shared';
import { unitBelongs } from './structure';

type MemberInput = z.output<typeof orgMemberRequest>;

/** Every field error at once: a taken e-mail and a foreign branch are both reported. */
async function checkMember(deps: Deps, organizationId: number, body: MemberInput): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (await emailTaken(deps.db, body.email)) errors.email = [ORG_MSG.emailTaken];
  for (const kind of ['branch', 'department', 'section'] as const) {
    const id = body[`${kind}_id`];
    if (id && !(await unitBelongs(deps.db, kind, organizationId, id))) {
      errors[`${kind}_id`] = [`The selected ${kind} id is invalid.`];
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/**
 * Creates the member account, its place in the organization and (for a sub-admin) the request the
 * admin decides on, in one transaction; then e-mails the set-password link.
 */
async function createMember(deps: Deps, organizationId: number, body: MemberInput, role: Role) {
  await checkMember(deps, organizationId, body);
  const subadmin = role === 'org_subadmin';
  const placement = {
    organization_id: organizationId,
    branch_id: body.branch_id,
    department_id: body.department_id,
    section_id: body.section_id,
  };
  let user: typeof users.$inferSelect;
  try {
    user = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          slug: makeSlug(body.first_name, body.last_name),
          first_name: body.first_name,
          last_name: body.last_name,
          email: body.email,
          mobile_no: body.mobile_no,
          password_hash: null,
          roles: [role],
          user_type: USER_TYPES[role],
          is_approved: subadmin ? 0 : 1,
          organization_id: organizationId,
        })
        .returning();
      await tx.insert(orgMemberships).values({ user_id: row!.id, ...placement });
      if (subadmin) await tx.insert(orgSubadminRequests).values({ user_id: row!.id, ...placement, status: 0 });
      return row!;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw invalidField('email', ORG_MSG.emailTaken);
    throw e;
  }
  const [org] = await deps.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const orgName = org?.name ?? 'your organization';
  await issuePasswordLink(
    deps,
    user,
    subadmin ? `You have been proposed as a sub-admin of ${orgName}` : `Your ${orgName} account`,
    subadmin
      ? `${orgName} has proposed you as a sub-admin on TrainLab. You can sign in once an administrator approves the request; you will get a mail then.`
      : `${orgName} has created a TrainLab account for you.`,
  );
  return { message: ORG_MSG.recordAdded, id: user.id, slug: user.slug };
}

export const addOrgSubadmin = (deps: Deps, organizationId: number, body: MemberInput) =>
  createMember(deps, organizationId, body, 'org_subadmin');
export const addOrgUser = (deps: Deps, organizationId: number, body: MemberInput) =>
  createMember(deps, organizationId, body, 'organization_user');

/** /admin/new-org-subadmin-request: type 'request' = pending requests, otherwise the accepted sub-admins. */
export async function subadminRequests(deps: Deps, type: string | null | undefined) {
  const status = type === 'request' ? 0 : 1;
  const rows = await deps.db
    .select({ request: orgSubadminRequests, user: users, oname: organizations.name })
    .from(orgSubadminRequests)
    .innerJoin(users, eq(users.id, orgSubadminRequests.user_id))
    .innerJoin(organizations, eq(organizations.id, orgSubadminRequests.organization_id))
    .where(eq(orgSubadminRequests.status, status))
    .orderBy(desc(orgSubadminRequests.id));
  const lobs = await ownerLinesOfBusiness(deps, [...new Set(rows.map((r) => r.request.organization_id))]);
  return {
    list: rows.map(({ request, user, oname }) => ({
      odid: request.id,
      user_id: user.id,
      slug: user.slug,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      mobile_no: user.mobile_no,
      oname,
      lob: lobs.get(request.organization_id) ?? null,
      status: request.status,
      created_at: iso(request.created_at),
    })),
  };
}

/** The line of business of each organization's owner account (its first organization-role account). */
async function ownerLinesOfBusiness(deps: Deps, organizationIds: number[]): Promise<Map<number, string>> {
  const map = new Map<number, string>();
  if (!organizationIds.length) return map;
  const rows = await deps.db
    .select({ organization_id: users.organization_id, lob: linesOfBusiness.name })
    .from(users)
    .innerJoin(linesOfBusiness, eq(linesOfBusiness.id, users.lob_id))
    .where(and(inArray(users.organization_id, organizationIds), eq(users.user_type, USER_TYPES.organization)))
    .orderBy(users.id);
  for (const r of rows) if (r.organization_id && !map.has(r.organization_id)) map.set(r.organization_id, r.lob);
  return map;
}

/** Accept: request 1, account approved. Reject: request 2, account is_approved 2. Only pending requests. */
export async function decideSubadminRequest(deps: Deps, body: z.output<typeof subadminDecision>) {
  const [request] = await deps.db.select().from(orgSubadminRequests).where(eq(orgSubadminRequests.id, body.odid));
  if (!request) throw notFound();
  const target = body.status ? 1 : 2;
  const user = await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(orgSubadminRequests)
      .set({ status: target, decided_at: new Date() })
      .where(and(eq(orgSubadminRequests.id, request.id), eq(orgSubadminRequests.status, 0)))
      .returning({ id: orgSubadminRequests.id });
    if (!claimed) return null;
    const [row] = await tx
      .update(users)
      .set({ is_approved: target, updated_at: new Date() })
      .where(eq(users.id, request.user_id))
      .returning();
    return row!;
  });
  if (!user) throw invalidField('status', ORG_MSG.requestAlreadyProcessed);
  await sendDecisionMail(
    deps,
    user.email,
    user.first_name,
    target === 1 ? 'approved' : 'rejected',
    'organization sub-admin account',
  );
  return { message: target === 1 ? ORG_MSG.requestAccepted : ORG_MSG.requestRejected, is_approved: target };
}
