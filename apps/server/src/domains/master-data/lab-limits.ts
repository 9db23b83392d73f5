import { API, MSG, VM_STATUS } from '@trainlab/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { labAccounts, organizations, users, vms } from '../../db/schema';
import { audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import { defineCall } from '../../platform/http/define-call';

/**
 * The admin's per-tenant lab limits (master data): labs running at once and the RAM they hold
 * together, on each tenant's lab account. Enforced by startLab (labs/tenant-limits.ts).
 */
export function labLimitRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.labTenantLimits, async () => {
    const running = deps.db
      .select({
        owner_user_id: vms.owner_user_id,
        organization_id: vms.organization_id,
        labs: sql<number>`count(*)::int`.as('labs'),
        ram: sql<number>`coalesce(sum(${vms.ram}), 0)::int`.as('ram'),
      })
      .from(vms)
      .where(eq(vms.status, VM_STATUS.start))
      .groupBy(vms.owner_user_id, vms.organization_id)
      .as('running');
    const rows = await deps.db
      .select({
        id: labAccounts.id,
        owner: labAccounts.owner_user_id,
        username: labAccounts.username,
        first_name: users.first_name,
        last_name: users.last_name,
        organization: organizations.name,
        max_running_labs: labAccounts.max_running_labs,
        max_running_ram_gb: labAccounts.max_running_ram_gb,
        running_labs: running.labs,
        running_ram_gb: running.ram,
      })
      .from(labAccounts)
      .leftJoin(users, eq(users.id, labAccounts.owner_user_id))
      .leftJoin(organizations, eq(organizations.id, labAccounts.organization_id))
      .leftJoin(
        running,
        sql`(${running.owner_user_id} = ${labAccounts.owner_user_id} or ${running.organization_id} = ${labAccounts.organization_id})`,
      )
      .orderBy(asc(labAccounts.id));
    return {
      list: rows.map((r) => ({
        id: r.id,
        kind: r.owner ? ('provider' as const) : ('organization' as const),
        tenant: r.owner ? `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() : (r.organization ?? ''),
        username: r.username,
        max_running_labs: r.max_running_labs,
        max_running_ram_gb: r.max_running_ram_gb,
        running_labs: r.running_labs ?? 0,
        running_ram_gb: r.running_ram_gb ?? 0,
      })),
    };
  });

  defineCall(
    app,
    deps,
    API.updateLabTenantLimits,
    audited(
      API.updateLabTenantLimits,
      { type: 'lab-tenant-limits', table: labAccounts, key: 'id' },
      async ({ body }) => {
        const updated = await deps.db
          .update(labAccounts)
          .set({ max_running_labs: body.max_running_labs, max_running_ram_gb: body.max_running_ram_gb })
          .where(eq(labAccounts.id, body.id))
          .returning({ id: labAccounts.id });
        if (updated.length === 0) throw notFound();
        return { message: MSG.recordUpdated };
      },
    ),
  );
}
