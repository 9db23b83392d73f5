import { MSG, PAYMENT_STATUS, type PaymentRow } from '@trainlab/contract';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  cartItems,
  certificationPurchases,
  courseEnrolments,
  courses,
  paymentItems,
  payments,
  vmUsages,
} from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { enqueue } from '../../platform/jobs';
import { toRupees } from '../catalog/catalog';

/**
 * Payment records and the one place a payment completes. `complete` flips a payment to Success and
 * performs the purchase in the same transaction, guarded by `fulfilled_at is null`, so a replayed
 * callback, a replayed webhook or a webhook racing the callback completes it exactly once.
 */

export type Payment = typeof payments.$inferSelect;
export type Tx = Db;
export const RECEIPT_JOB = 'payments.receipt';

export async function itemsOf(db: Db, paymentIds: number[]) {
  if (paymentIds.length === 0) return new Map<number, (typeof paymentItems.$inferSelect)[]>();
  const rows = await db
    .select()
    .from(paymentItems)
    .where(inArray(paymentItems.payment_id, paymentIds))
    .orderBy(asc(paymentItems.id));
  const map = new Map<number, (typeof paymentItems.$inferSelect)[]>();
  for (const r of rows) map.set(r.payment_id, [...(map.get(r.payment_id) ?? []), r]);
  return map;
}

export function toPaymentRow(p: Payment, items: (typeof paymentItems.$inferSelect)[] = []): PaymentRow {
  return {
    id: p.id,
    receipt_no: p.receipt_no,
    payment_id: p.gateway_payment_id,
    order_id: p.gateway_order_id,
    purpose: p.purpose,
    created_at: p.created_at.toISOString(),
    amount: toRupees(p.amount_paise),
    amount_paise: p.amount_paise,
    status: p.status,
    items: items.map((i) => ({ kind: i.kind, ref_id: i.ref_id, name: i.name, amount: toRupees(i.amount_paise) })),
  };
}

export async function paymentRowOf(db: Db, p: Payment) {
  return toPaymentRow(p, (await itemsOf(db, [p.id])).get(p.id) ?? []);
}

export async function paymentByOrder(db: Db, orderId: string): Promise<Payment | undefined> {
  const [p] = await db.select().from(payments).where(eq(payments.gateway_order_id, orderId));
  return p;
}

/**
 * Marks the payment paid and performs what it buys, once. Returns true when this call completed it
 * (false: it was already complete).
 */
export async function complete(tx: Tx, paymentId: number, gatewayPaymentId: string | null): Promise<boolean> {
  const [p] = await tx
    .update(payments)
    .set({
      status: PAYMENT_STATUS.success,
      gateway_payment_id: sql`coalesce(${payments.gateway_payment_id}, ${gatewayPaymentId})`,
      paid_at: sql`now()`,
      fulfilled_at: sql`now()`,
      failure_reason: null,
      updated_at: sql`now()`,
    })
    .where(and(eq(payments.id, paymentId), isNull(payments.fulfilled_at)))
    .returning();
  if (!p) return false;
  const items = (await itemsOf(tx, [p.id])).get(p.id) ?? [];
  const courseIds = items.filter((i) => i.kind === 'course').map((i) => i.ref_id);
  const certIds = items.filter((i) => i.kind === 'certification').map((i) => i.ref_id);
  const usageIds = items.filter((i) => i.kind === 'vm_usage').map((i) => i.ref_id);
  if (p.user_id && courseIds.length) {
    const bought = await tx
      .insert(courseEnrolments)
      .values(courseIds.map((course_id) => ({ course_id, user_id: p.user_id!, source: 'purchase' })))
      .onConflictDoNothing()
      .returning({ course_id: courseEnrolments.course_id });
    if (bought.length) {
      await tx
        .update(courses)
        .set({ purchase_count: sql`${courses.purchase_count} + 1` })
        .where(
          inArray(
            courses.id,
            bought.map((b) => b.course_id),
          ),
        );
    }
  }
  if (p.user_id && certIds.length) {
    await tx
      .insert(certificationPurchases)
      .values(certIds.map((certification_id) => ({ certification_id, user_id: p.user_id!, payment_id: p.id })))
      .onConflictDoNothing();
  }
  if (p.user_id && p.purpose === 'cart') {
    for (const [type, ids] of [
      ['is_course', courseIds],
      ['is_certificate', certIds],
    ] as const) {
      if (ids.length) {
        await tx
          .delete(cartItems)
          .where(and(eq(cartItems.user_id, p.user_id), eq(cartItems.type, type), inArray(cartItems.type_id, ids)));
      }
    }
  }
  if (usageIds.length) {
    const marked = await tx
      .update(vmUsages)
      .set({ payment_id: p.id })
      .where(and(inArray(vmUsages.id, usageIds), isNull(vmUsages.payment_id)))
      .returning({ id: vmUsages.id });
    if (marked.length < usageIds.length) {
      // another payment covered some rows first: they are not paid twice, and the excess is recorded
      const excess = items
        .filter((i) => i.kind === 'vm_usage' && !marked.some((m) => m.id === i.ref_id))
        .reduce((s, i) => s + i.amount_paise, 0);
      await tx
        .update(payments)
        .set({ failure_reason: `refund due: ${excess} paise already paid by another payment` })
        .where(eq(payments.id, p.id));
    }
  }
  await enqueue({ db: tx }, RECEIPT_JOB, { payment_id: p.id });
  return true;
}

/** A pending payment becomes Failed; a paid one never does. */
export async function fail(db: Db, paymentId: number, reason: string | null) {
  await db
    .update(payments)
    .set({ status: PAYMENT_STATUS.failed, failure_reason: reason ?? MSG.paymentFailed, updated_at: sql`now()` })
    .where(and(eq(payments.id, paymentId), eq(payments.status, PAYMENT_STATUS.pending)));
}

export async function reload(db: Db, id: number): Promise<Payment> {
  const [p] = await db.select().from(payments).where(eq(payments.id, id));
  return p!;
}

export type { Deps };
