import { type adminUsersListRequest, ORG_MSG, type providerRequestDecision, USER_TYPES } from '@trainlab/contract';
import { and, arrayContains, desc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import { countWhere, orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { PROVIDER_ROLE, tenantLearnersWhere } from '../../platform/tenancy';
import { sendDecisionMail } from '../accounts-mail';
import { iso } from './shared';

/** Account types that register themselves and wait for the admin: learning providers and organization accounts. */
const APPROVABLE_TYPES = [USER_TYPES.provider, USER_TYPES.organization];

/** /admin/get-users-list: accounts of one type; type 'request' = waiting for approval, otherwise approved. */
export async function usersList(deps: Deps, body: z.output<typeof adminUsersListRequest>) {
  const waiting = body.type === 'request';
  const window = pageWindow(body);
  const where = and(
    eq(users.user_type, body.role),
    eq(users.is_approved, waiting ? 0 : 1),
    searchWhere(body.search, [users.first_name, users.last_name, users.email, users.mobile_no]),
  );
  const rows = await deps.db
    .select({ ...getTableColumns(users), total: totalOver() })
    .from(users)
    .where(where)
    .orderBy(
      ...orderFor(
        body.sort,
        { first_name: users.first_name, last_name: users.last_name, email: users.email, created_at: users.id },
        [desc(users.id)],
        users.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toPage(
    rows,
    window,
    (u) => ({
      id: u.id,
      slug: u.slug,
      first_name: u.first_name,
      last_name: u.last_name,
      email: u.email,
      mobile_no: u.mobile_no,
      status: u.status,
      is_approved: u.is_approved,
      created_at: iso(u.created_at),
    }),
    () => countWhere(deps.db, users, where),
  );
}

/** /admin/get-child-users-list: the provider_user accounts of the provider with this slug. */
export async function childUsersList(deps: Deps, slug: string) {
  const [provider] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.slug, slug), arrayContains(users.roles, [PROVIDER_ROLE])));
  if (!provider) throw notFound();
  const rows = await deps.db
    .select()
    .from(users)
    .where(tenantLearnersWhere({ kind: 'provider', ownerId: provider.id }))
    .orderBy(desc(users.id));
  return {
    list: rows.map((u) => ({
      id: u.id,
      slug: u.slug,
      first_name: u.first_name,
      last_name: u.last_name,
      email: u.email,
      mobile_no: u.mobile_no,
      status: u.status,
      created_at: iso(u.created_at),
    })),
  };
}

/**
 * Accept (1 → is_approved 1) or reject (0 → is_approved 2) an account waiting for approval and tell
 * the applicant. Only a pending request can be decided: the guarded update makes a second,
 * concurrent decision fail instead of overwriting the first.
 */
export async function decideProviderRequest(deps: Deps, body: z.output<typeof providerRequestDecision>) {
  const [user] = await deps.db
    .select()
    .from(users)
    .where(and(eq(users.id, body.id), inArray(users.user_type, APPROVABLE_TYPES)));
  if (!user) throw notFound();
  const target = body.status ? 1 : 2;
  const [updated] = await deps.db
    .update(users)
    .set({ is_approved: target, updated_at: new Date() })
    .where(and(eq(users.id, user.id), eq(users.is_approved, 0)))
    .returning({ id: users.id });
  if (!updated) throw invalidField('status', ORG_MSG.requestAlreadyProcessed);
  const what = user.user_type === USER_TYPES.provider ? 'learning provider account' : 'account';
  await sendDecisionMail(deps, user.email, user.first_name, target === 1 ? 'approved' : 'rejected', what);
  return { message: target === 1 ? ORG_MSG.requestAccepted : ORG_MSG.requestRejected, is_approved: target };
}
