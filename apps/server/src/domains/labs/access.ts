import { and, eq, ne, type SQL } from 'drizzle-orm';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { isManager, managerTenant, type Tenant } from '../trainings/access';

/**
 * Who sees which lab: the managers of its tenant (provider account; organization and its
 * sub-admins) and the learner it is assigned to. Anything else answers 404 like a missing lab.
 */
export type VmRow = typeof vms.$inferSelect;

export const vmTenantWhere = (tenant: Tenant): SQL =>
  tenant.kind === 'provider' ? eq(vms.owner_user_id, tenant.ownerId) : eq(vms.organization_id, tenant.organizationId);

export const tenantColumns = (tenant: Tenant) =>
  tenant.kind === 'provider'
    ? { owner_user_id: tenant.ownerId, organization_id: null }
    : { owner_user_id: null, organization_id: tenant.organizationId };

export const tenantOfVm = (vm: VmRow): Tenant =>
  vm.owner_user_id
    ? { kind: 'provider', ownerId: vm.owner_user_id }
    : { kind: 'organization', organizationId: vm.organization_id! };

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
  if (isManager(auth)) {
    const t = managerTenantSafe(auth);
    if (t && (t.kind === 'provider' ? vm.owner_user_id === t.ownerId : vm.organization_id === t.organizationId)) {
      return true;
    }
  }
  return vm.assigned_user_id === auth.user.id;
}

export const isLabManager = (auth: AuthContext, vm: VmRow) => isManager(auth) && canUseAsManager(auth, vm);
function canUseAsManager(auth: AuthContext, vm: VmRow) {
  const t = managerTenantSafe(auth);
  return !!t && (t.kind === 'provider' ? vm.owner_user_id === t.ownerId : vm.organization_id === t.organizationId);
}
function managerTenantSafe(auth: AuthContext): Tenant | null {
  try {
    return managerTenant(auth);
  } catch {
    return null;
  }
}
