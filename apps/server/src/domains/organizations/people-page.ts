import type { ListQuery } from '@trainlab/contract';
import { and, desc, getTableColumns, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { cappedCount, countWhere, orderFor, pageWindow, searchWhere, toCountedPage } from '../../platform/http/paging';

type UserRow = typeof users.$inferSelect;
type PeopleSort = 'first_name' | 'last_name' | 'email' | 'created_at';

/**
 * One page of accounts within `scope` under the list convention: searched by name, e-mail or mobile,
 * sorted by name, e-mail or age (newest first by default).
 */
export async function pageOfPeople<T>(
  deps: Deps,
  scope: SQL | undefined,
  q: ListQuery<PeopleSort>,
  toItem: (u: UserRow) => T,
) {
  const window = pageWindow(q);
  const where = and(scope, searchWhere(q.search, [users.first_name, users.last_name, users.email, users.mobile_no]));
  const rows = await deps.db
    .select({ ...getTableColumns(users), capped_total: cappedCount(users, where, window) })
    .from(users)
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort,
        { first_name: users.first_name, last_name: users.last_name, email: users.email, created_at: users.id },
        [desc(users.id)],
        users.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toCountedPage(rows, window, toItem, (limit) => countWhere(deps.db, users, where, limit));
}
