import { type ListQuery, PAYMENT_STATUS, type PurchaseRow } from '@trainlab/contract';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { certifications, courses, paymentItems, payments } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalAtFirstRow, totalOver } from '../../platform/http/paging';
import { toRupees } from '../catalog/catalog';

type PurchaseSort = 'bought_at' | 'name' | 'amount';

/**
 * /my-purchases (issue 32): the items of the caller's successful cart payments, newest first, with
 * what to do next. Whose purchases is decided here from the session alone: the request has no
 * user field, and one sent anyway is dropped by the contract's schema before this runs.
 */
export async function myPurchases(deps: Deps, auth: AuthContext, q: ListQuery<PurchaseSort>) {
  const window = pageWindow(q);
  const boughtAt = sql<Date>`coalesce(${payments.paid_at}, ${payments.created_at})`;
  const filter = and(
    eq(payments.user_id, auth.user.id),
    eq(payments.purpose, 'cart'),
    eq(payments.status, PAYMENT_STATUS.success),
    inArray(paymentItems.kind, ['course', 'certification']),
    searchWhere(q.search, [paymentItems.name, payments.receipt_no]),
  );
  const page = (limit: number, offset: number) =>
    deps.db
      .select({
        id: paymentItems.id,
        kind: paymentItems.kind,
        ref_id: paymentItems.ref_id,
        name: paymentItems.name,
        amount_paise: paymentItems.amount_paise,
        paid_at: payments.paid_at,
        created_at: payments.created_at,
        payment_id: payments.id,
        receipt_no: payments.receipt_no,
        course_slug: courses.slug,
        exam_link: certifications.exam_link,
        total: totalOver(),
      })
      .from(paymentItems)
      .innerJoin(payments, eq(payments.id, paymentItems.payment_id))
      .leftJoin(courses, and(eq(paymentItems.kind, 'course'), eq(courses.id, paymentItems.ref_id)))
      .leftJoin(certifications, and(eq(paymentItems.kind, 'certification'), eq(certifications.id, paymentItems.ref_id)))
      .where(filter)
      .orderBy(
        ...orderFor(
          q.sort,
          { bought_at: boughtAt, name: paymentItems.name, amount: paymentItems.amount_paise },
          [desc(boughtAt)],
          paymentItems.id,
        ),
      )
      .limit(limit)
      .offset(offset);
  const rows = await page(window.limit, window.offset);
  return toPage(
    rows,
    window,
    (r): PurchaseRow => ({
      id: r.id,
      kind: r.kind as PurchaseRow['kind'],
      ref_id: r.ref_id,
      name: r.name,
      amount: toRupees(r.amount_paise),
      amount_paise: r.amount_paise,
      bought_at: (r.paid_at ?? r.created_at).toISOString(),
      payment_id: r.payment_id,
      receipt_no: r.receipt_no,
      course_slug: r.course_slug,
      exam_link: r.exam_link,
    }),
    () => totalAtFirstRow(page(1, 0)),
  );
}
