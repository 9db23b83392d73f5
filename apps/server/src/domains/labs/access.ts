import { and, eq, ne, type SQL } from 'drizzle-orm';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import {
  isManager,
  managerTenant,
  ownedBy,
  recordTenant,
  type Tenant,
  tenantOf,
  tenantWhere,
} from '../../platform/tenancy';

/**
 * Who sees which lab: the managers of its tenant (provider account; organization and its
 * sub-admins) and the learner it is assigned to. Anything else answers 404 like a missing lab.
 */
export type VmRow = typeof vms.$inferSelect;

export const vmTenantWhere = (tenant: Tenant): SQL => tenantWhere(vms, tenant);

/** A lab's tenant: every lab is created for one (create.ts, with tenantColumns). */
export const tenantOfVm = (vm: VmRow): Tenant => recordTenant(vm)!;

/** A lab of the caller's tenant by vm_name (deleted ones too when `withDeleted`); 404 otherwise. */
export async function vmForManager(deps: Deps, auth: AuthContext, name: string, withDeleted = true): Promise<VmRow> {
  const [row] = await deps.db
    .select()
    .from(vms)
    .where(and(eq(vms.vm_name, name), vmTenantWhere(managerTenant(auth)), withDeleted ? undefined : ne(vms.status, 3)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** A lab the caller manages, or the lab assigned to the calling learner; 404 otherwise. */
export async function vmForUser(deps: Deps, auth: AuthContext, name: string): Promise<VmRow> {
  const [row] = await deps.db.select().from(vms).where(eq(vms.vm_name, name)).limit(1);
  if (!row || !canUse(auth, row)) throw notFound();
  return row;
}

export function canUse(auth: AuthContext, vm: VmRow): boolean {
  if (isManager(auth) && canUseAsManager(auth, vm)) return true;
  return vm.assigned_user_id === auth.user.id;
}

export const isLabManager = (auth: AuthContext, vm: VmRow) => isManager(auth) && canUseAsManager(auth, vm);
// tenantOf, not managerTenant: an organization role without an organization manages no lab (no 403)
function canUseAsManager(auth: AuthContext, vm: VmRow) {
  const t = tenantOf(auth.user);
  return !!t && ownedBy(t, vm);
}
