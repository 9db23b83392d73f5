import { MSG } from '@trainlab/contract';
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { users, vms, vmUsages } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { managerTenant, type Tenant, tenantWhere } from '../../platform/tenancy';
import { toRupees } from '../catalog/catalog';
import { createPayment, verifyCallback } from './checkout';

/**
 * VM billing (spec 02 /cloud-payment): every closed, unpaid usage row of the caller's tenant, a run
 * that cost ₹0.00 (a minute of a small lab) included, so the bill lists every session VM Details
 * shows. Paying sets `payment_id` on exactly the rows the order was made for.
 */

async function unpaidUsage(deps: Deps, tenant: Tenant) {
  return deps.db
    .select({
      id: vmUsages.id,
      name: vms.name,
      vm_name: vms.vm_name,
      created: vms.created_at,
      vm_start: vmUsages.vm_start,
      vm_stop: vmUsages.vm_stop,
      deleted: vms.deleted_at,
      used_min: vmUsages.used_min,
      cost_paise: vmUsages.cost_paise,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
      mobile_no: users.mobile_no,
    })
    .from(vmUsages)
    .innerJoin(vms, eq(vms.id, vmUsages.vm_id))
    .leftJoin(users, eq(users.id, vmUsages.user_id))
    .where(and(tenantWhere(vms, tenant), isNull(vmUsages.payment_id), isNotNull(vmUsages.vm_stop)))
    .orderBy(asc(vmUsages.id));
}

export async function vmPaymentData(deps: Deps, auth: AuthContext) {
  const rows = await unpaidUsage(deps, managerTenant(auth));
  const total = rows.reduce((s, r) => s + r.cost_paise, 0);
  return {
    total_cost: toRupees(total),
    total_cost_paise: total,
    list: rows.map((r) => ({
      id: r.id,
      name: r.name,
      vm_name: r.vm_name,
      created: r.created ? r.created.toISOString() : null,
      deleted: r.deleted ? r.deleted.toISOString() : null,
      vm_start: r.vm_start ? r.vm_start.toISOString() : null,
      vm_stop: r.vm_stop ? r.vm_stop.toISOString() : null,
      used_min: r.used_min,
      total_cost: toRupees(r.cost_paise),
      total_cost_paise: r.cost_paise,
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      mobile_no: r.mobile_no,
    })),
  };
}

export async function vmCheckout(deps: Deps, auth: AuthContext) {
  const tenant = managerTenant(auth);
  const rows = await unpaidUsage(deps, tenant);
  if (rows.reduce((s, r) => s + r.cost_paise, 0) === 0)
    throw new AppError(422, MSG.nothingToPay, { total_cost: [MSG.nothingToPay] });
  return createPayment(deps, {
    purpose: 'vm',
    userId: auth.user.id,
    tenant,
    items: rows.map((r) => ({
      kind: 'vm_usage' as const,
      ref_id: r.id,
      name: `${r.name} (${r.used_min} min)`,
      amount_paise: r.cost_paise,
    })),
    description: `VM usage (${rows.length} runs)`,
  });
}

export function saveVmPayment(
  deps: Deps,
  auth: AuthContext,
  body: { payment_id: string; razorpay_order_id: string; razorpay_signature: string },
) {
  return verifyCallback(
    deps,
    auth,
    managerTenant(auth),
    {
      razorpay_order_id: body.razorpay_order_id,
      razorpay_payment_id: body.payment_id,
      razorpay_signature: body.razorpay_signature,
    },
    'vm',
  );
}
