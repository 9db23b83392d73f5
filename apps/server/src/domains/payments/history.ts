import type { ListQuery } from '@trainlab/contract';
import type { SQL } from 'drizzle-orm';
import { and, desc, eq } from 'drizzle-orm';
import { billingSettings, payments } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { cappedCount, countWhere, orderFor, pageWindow, searchWhere, toCountedPage } from '../../platform/http/paging';
import { isManager, managerTenant, type Tenant, tenantColumns, tenantWhere } from '../../platform/tenancy';
import { gstBp, mayActOn, paymentTenantWhere } from './checkout';
import { itemsOf, type Payment, toPaymentRow } from './store';

type PaymentSort = 'created_at' | 'amount' | 'status';

async function paymentPage(deps: Deps, where: SQL, q: ListQuery<PaymentSort>) {
  const window = pageWindow(q);
  const filter = and(
    where,
    searchWhere(q.search, [payments.receipt_no, payments.gateway_payment_id, payments.gateway_order_id]),
  );
  const rows = await deps.db
    .select({ p: payments, capped_total: cappedCount(payments, filter, window) })
    .from(payments)
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort,
        { created_at: payments.created_at, amount: payments.amount_paise, status: payments.status },
        [desc(payments.created_at)],
        payments.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  const items = await itemsOf(
    deps.db,
    rows.map((r) => r.p.id),
  );
  return toCountedPage(
    rows,
    window,
    (r) => toPaymentRow(r.p, items.get(r.p.id) ?? []),
    (limit) => countWhere(deps.db, payments, filter, limit),
  );
}

export const vmPaymentsHistory = (deps: Deps, auth: AuthContext, q: ListQuery<PaymentSort>) =>
  paymentPage(deps, and(eq(payments.purpose, 'vm'), paymentTenantWhere(managerTenant(auth)))!, q);

export const myPayments = (deps: Deps, auth: AuthContext, q: ListQuery<PaymentSort>) =>
  paymentPage(deps, and(eq(payments.purpose, 'cart'), eq(payments.user_id, auth.user.id))!, q);

/** A payment the caller may see (their own purchase or their tenant's VM bill); 404 otherwise. */
export async function visiblePayment(deps: Deps, auth: AuthContext, id: number): Promise<Payment> {
  const [p] = await deps.db.select().from(payments).where(eq(payments.id, id));
  const tenant: Tenant | null = isManager(auth) ? managerTenant(auth) : null;
  if (!p || !mayActOn(p, auth, tenant)) throw notFound();
  return p;
}

const tenantSettingsWhere = (t: Tenant) => tenantWhere(billingSettings, t);

export async function getBillingSettings(deps: Deps, auth: AuthContext) {
  const tenant = managerTenant(auth);
  const [s] = await deps.db.select().from(billingSettings).where(tenantSettingsWhere(tenant));
  return { gst_percent: (s?.gst_bp ?? (await gstBp(deps, null))) / 100, gstin: s?.gstin ?? null };
}

export async function saveBillingSettings(
  deps: Deps,
  auth: AuthContext,
  body: { gst_percent: number; gstin?: string },
) {
  const tenant = managerTenant(auth);
  const values = {
    gst_bp: Math.round(body.gst_percent * 100),
    gstin: body.gstin ?? null,
    updated_at: new Date(),
  };
  const updated = await deps.db.update(billingSettings).set(values).where(tenantSettingsWhere(tenant)).returning();
  if (updated.length === 0) {
    await deps.db.insert(billingSettings).values({
      ...values,
      ...tenantColumns(tenant),
    });
  }
  return getBillingSettings(deps, auth);
}
