import type { tenantLearnersRequest } from '@trainlab/contract';
import { and, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalAtFirstRow, totalOver } from '../../platform/http/paging';
import { managerTenant, tenantLearnersWhere } from '../../platform/tenancy';

/**
 * /get-tenant-learners: one page of the caller's tenant's learners, to fill a form with one of them:
 * a provider's provider_user accounts, an organization's organization_user accounts (tenancy's
 * tenantLearnersWhere, the same rule as assigning a lab). Nobody else's people, ever.
 */
export async function tenantLearners(deps: Deps, auth: AuthContext, q: z.output<typeof tenantLearnersRequest>) {
  const tenant = managerTenant(auth);
  const window = pageWindow(q);
  const fullName = sql`${users.first_name} || ' ' || ${users.last_name}`;
  const where = and(
    tenantLearnersWhere(tenant),
    searchWhere(q.search, [users.first_name, users.last_name, fullName, users.email, users.mobile_no]),
  );
  const query = () =>
    deps.db
      .select({
        id: users.id,
        first_name: users.first_name,
        last_name: users.last_name,
        email: users.email,
        mobile_no: sql<string>`coalesce(${users.mobile_no}, '')`,
        total: totalOver(),
      })
      .from(users)
      .where(where)
      .orderBy(
        ...orderFor(
          q.sort,
          { first_name: users.first_name, last_name: users.last_name, email: users.email },
          [sql`${users.first_name}`, sql`${users.last_name}`],
          users.id,
        ),
      );
  const rows = await query().limit(window.limit).offset(window.offset);
  return toPage(
    rows,
    window,
    ({ total: _total, ...r }) => r,
    () => totalAtFirstRow(query().limit(1)),
  );
}
