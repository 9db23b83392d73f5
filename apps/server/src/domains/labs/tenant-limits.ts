import { MSG, VM_STATUS } from '@trainlab/contract';
import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { ValidationError } from '../../platform/errors';
import { tenantOfVm, type VmRow, vmTenantWhere } from './access';
import { labAccountOf } from './account';

/**
 * The admin's per-tenant limits (master data: lab-tenant-limits) on a start: the tenant's labs
 * running at once, and the RAM they hold together, counted with the lab being started and with the
 * tenant's other starts still under way in this process. The check and the reservation of a place
 * are made one at a time per tenant, the starts themselves run side by side (a class at the bell
 * starts 8 at a time), so two starts pressed together never both take the last place.
 */
const checks = new Map<string, Promise<unknown>>();
/** starts admitted and not yet recorded as running, per tenant: lab id → RAM */
const starting = new Map<string, Map<number, number>>();

export async function underTenantLimits<T>(deps: Deps, vm: VmRow, start: () => Promise<T>): Promise<T> {
  const tenant = tenantOfVm(vm);
  const key = tenant.kind === 'provider' ? `p${tenant.ownerId}` : `o${tenant.organizationId}`;
  const first = await labAccountOf(deps, tenant);
  // no limit set: nothing to count
  if (!first || (first.max_running_labs == null && first.max_running_ram_gb == null)) return start();

  const admit = async () => {
    const account = await labAccountOf(deps, tenant);
    const pending = starting.get(key) ?? new Map<number, number>();
    const others = [...pending.keys()].filter((id) => id !== vm.id);
    const [used] = await deps.db
      .select({ labs: sql<number>`count(*)::int`, ram: sql<number>`coalesce(sum(${vms.ram}), 0)::int` })
      .from(vms)
      .where(
        and(
          vmTenantWhere(tenant),
          eq(vms.status, VM_STATUS.start),
          ne(vms.id, vm.id),
          others.length ? notInArray(vms.id, others) : undefined,
        ),
      );
    const labs = used!.labs + others.length + 1;
    const ram = used!.ram + others.reduce((sum, id) => sum + pending.get(id)!, 0) + vm.ram;
    if (account?.max_running_labs != null && labs > account.max_running_labs) {
      throw new ValidationError({ other_error: [MSG.labTenantRunning] });
    }
    if (account?.max_running_ram_gb != null && ram > account.max_running_ram_gb) {
      throw new ValidationError({ other_error: [MSG.labTenantRam] });
    }
    pending.set(vm.id, vm.ram);
    starting.set(key, pending);
  };
  const checked = (checks.get(key) ?? Promise.resolve()).then(admit, admit);
  const settled = checked.catch(() => undefined);
  checks.set(key, settled);
  void settled.then(() => {
    if (checks.get(key) === settled) checks.delete(key);
  });
  await checked;
  try {
    return await start();
  } finally {
    const pending = starting.get(key);
    pending?.delete(vm.id);
    if (pending?.size === 0) starting.delete(key);
  }
}
