import { randomBytes } from 'node:crypto';
import { type Checkout, MSG, PAYMENT_STATUS } from '@trainlab/contract';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { billingSettings, paymentItems, payments } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { ownedBy, type Tenant, tenantColumns, tenantWhere } from '../../platform/tenancy';
import { toRupees } from '../catalog/catalog';
import { cartLines, mergeCart, payableLines } from './cart';
import { complete, fail, itemsOf, type Payment, paymentByOrder, paymentRowOf, reload } from './store';

export interface OrderItem {
  kind: 'course' | 'certification' | 'vm_usage';
  ref_id: number;
  name: string;
  amount_paise: number;
}

/** A pending order is reused for the same items within this window (a double click on Pay). */
const REUSE_MS = 30 * 60_000;

// a purchase of a learner or a visitor belongs to no tenant
const tenantCols = (t: Tenant | null) => (t ? tenantColumns(t) : { owner_user_id: null, organization_id: null });

export const paymentTenantWhere = (t: Tenant) => tenantWhere(payments, t);

/** GST rate (basis points) of a tenant's receipts, else the platform's. */
export async function gstBp(deps: Deps, tenant: Tenant | null): Promise<number> {
  if (tenant) {
    const [s] = await deps.db.select().from(billingSettings).where(tenantWhere(billingSettings, tenant));
    if (s) return s.gst_bp;
  }
  return Math.round(deps.config.GST_PERCENT * 100);
}

/** The GST included in an amount at a rate in basis points. */
export const includedTax = (amount: number, bp: number) => Math.round((amount * bp) / (10_000 + bp));

export function toCheckout(deps: Deps, p: Payment, description: string): Checkout {
  const gateway = deps.payments;
  return {
    id: p.id,
    receipt_no: p.receipt_no,
    gateway: gateway.name,
    key_id: gateway.keyId,
    order_id: p.gateway_order_id,
    amount: toRupees(p.amount_paise),
    amount_paise: p.amount_paise,
    currency: p.currency,
    description,
    checkout_url: gateway.name === 'test' ? `/payment?order=${encodeURIComponent(p.gateway_order_id)}` : null,
  };
}

const sameItems = (a: OrderItem[], b: { kind: string; ref_id: number; amount_paise: number }[]) =>
  a.length === b.length &&
  a.every((x) => b.some((y) => y.kind === x.kind && y.ref_id === x.ref_id && y.amount_paise === x.amount_paise));

/**
 * An order for items priced on the server. Serialised per payer, so a double click cannot make two
 * orders: a pending order for exactly the same items and prices is returned again.
 */
export async function createPayment(
  deps: Deps,
  input: { purpose: 'cart' | 'vm'; userId: number; tenant: Tenant | null; items: OrderItem[]; description: string },
): Promise<Checkout> {
  const amount = input.items.reduce((s, i) => s + i.amount_paise, 0);
  const lockKey = input.tenant
    ? `${input.purpose}:${input.tenant.kind}:${input.tenant.kind === 'provider' ? input.tenant.ownerId : input.tenant.organizationId}`
    : `${input.purpose}:user:${input.userId}`;
  const bp = await gstBp(deps, input.tenant);
  const gateway = deps.payments;
  const p = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`);
    const mine = input.tenant
      ? and(eq(payments.purpose, input.purpose), paymentTenantWhere(input.tenant))
      : and(eq(payments.purpose, input.purpose), eq(payments.user_id, input.userId));
    const pending = await tx
      .select()
      .from(payments)
      .where(
        and(
          mine,
          eq(payments.status, PAYMENT_STATUS.pending),
          eq(payments.gateway, gateway.name),
          eq(payments.amount_paise, amount),
          gt(payments.created_at, new Date(Date.now() - REUSE_MS)),
        ),
      )
      .orderBy(desc(payments.id))
      .limit(5);
    const items = await itemsOf(
      tx as unknown as Db,
      pending.map((x) => x.id),
    );
    const reuse = pending.find((x) => sameItems(input.items, items.get(x.id) ?? []));
    if (reuse) return reuse;
    const receipt = `TL${Date.now().toString(36).toUpperCase()}${randomBytes(3).toString('hex').toUpperCase()}`;
    const order = await gateway.createOrder({
      amount_paise: amount,
      currency: 'INR',
      receipt,
      notes: { purpose: input.purpose },
    });
    const [row] = await tx
      .insert(payments)
      .values({
        receipt_no: receipt,
        purpose: input.purpose,
        user_id: input.userId,
        ...tenantCols(input.tenant),
        gateway: gateway.name,
        gateway_order_id: order.order_id,
        amount_paise: amount,
        tax_paise: includedTax(amount, bp),
        gst_bp: bp,
        status: PAYMENT_STATUS.pending,
      })
      .returning();
    await tx.insert(paymentItems).values(input.items.map((i) => ({ ...i, payment_id: row!.id })));
    return row!;
  });
  return toCheckout(deps, p, input.description);
}

/**
 * /checkout-cart: the signed-in account's cart (merged with the device's). The items are the cart's
 * payable lines, the very lines whose sum show-cart calls the total, so the amount asked is the
 * amount shown.
 */
export async function checkoutCart(deps: Deps, auth: AuthContext, deviceKey: string | undefined) {
  if (deviceKey) await mergeCart(deps, auth, deviceKey);
  const items: OrderItem[] = payableLines(await cartLines(deps.db, { userId: auth.user.id })).map((l) => ({
    kind: l.type === 'is_course' ? 'course' : 'certification',
    ref_id: l.type_id,
    name: l.name,
    amount_paise: l.price_paise,
  }));
  if (items.length === 0) throw new AppError(422, MSG.cartEmptyCheckout, { cart: [MSG.cartEmptyCheckout] });
  return createPayment(deps, {
    purpose: 'cart',
    userId: auth.user.id,
    tenant: null,
    items,
    description: items.map((i) => i.name).join(', '),
  });
}

/** The payments a caller may act on: their own purchases, or their tenant's VM bills. */
export function mayActOn(p: Payment, auth: AuthContext, tenant: Tenant | null): boolean {
  if (p.purpose === 'vm') {
    if (!tenant) return false;
    return ownedBy(tenant, p);
  }
  return p.user_id === auth.user.id;
}

const notVerified = () => new AppError(422, MSG.paymentNotVerified, { razorpay_signature: [MSG.paymentNotVerified] });

/** The checkout's signed callback: only a valid signature for this order completes it. */
export async function verifyCallback(
  deps: Deps,
  auth: AuthContext,
  tenant: Tenant | null,
  body: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
  purpose?: 'cart' | 'vm',
) {
  const p = await paymentByOrder(deps.db, body.razorpay_order_id);
  if (!p || !mayActOn(p, auth, tenant) || (purpose && p.purpose !== purpose)) throw notFound();
  const gateway = deps.payments;
  if (p.gateway !== gateway.name) throw notVerified();
  if (!gateway.verifyCheckout(p.gateway_order_id, body.razorpay_payment_id, body.razorpay_signature))
    throw notVerified();
  if (p.gateway_payment_id && p.fulfilled_at && p.gateway_payment_id !== body.razorpay_payment_id) {
    // a second, different payment for an order already paid: nothing more is bought
    return { message: MSG.paymentSuccess, payment: await paymentRowOf(deps.db, p) };
  }
  await deps.db.transaction((tx) => complete(tx as unknown as Db, p.id, body.razorpay_payment_id));
  return { message: MSG.paymentSuccess, payment: await paymentRowOf(deps.db, await reload(deps.db, p.id)) };
}

/** The checkout reported a failure. */
export async function reportFailure(
  deps: Deps,
  auth: AuthContext,
  tenant: Tenant | null,
  body: { razorpay_order_id: string; reason: string | null },
) {
  const p = await paymentByOrder(deps.db, body.razorpay_order_id);
  if (!p || !mayActOn(p, auth, tenant)) throw notFound();
  await fail(deps.db, p.id, body.reason);
  return { message: MSG.paymentFailed, payment: await paymentRowOf(deps.db, await reload(deps.db, p.id)) };
}
