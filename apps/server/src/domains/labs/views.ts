import {
  RDP_GATEWAY_MISSING,
  runMinutes,
  toPaise,
  unitsToRupees,
  VM_DISPLAY,
  VM_STATUS,
  VM_USAGE_STATUS,
  type vmListRequest,
} from '@trainlab/contract';
import { and, asc, desc, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { users, vms, vmUsages } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { AuthContext } from '../../platform/http/auth-context';
import { cappedCount, countWhere, orderFor, pageWindow, searchWhere, toCountedPage } from '../../platform/http/paging';
import { managerTenant } from '../../platform/tenancy';
import { type VmRow, vmForManager, vmForUser, vmTenantWhere } from './access';
import { currentRates, openRunMicro, priceOf } from './metering';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const rupees = (paise: number) => paise / 100;

type Joined = VmRow & { a_first: string | null; a_last: string | null; a_email: string | null };
function toVmRow(r: Joined) {
  return {
    id: r.id,
    name: r.name,
    vm_name: r.vm_name,
    image: r.image,
    protocol: r.protocol,
    zone: r.zone,
    ram: r.ram,
    storage: r.storage,
    created: r.created_at.toISOString(),
    status: r.status,
    engine: r.engine,
    assigned_user:
      r.assigned_user_id && r.a_email
        ? { id: r.assigned_user_id, first_name: r.a_first ?? '', last_name: r.a_last ?? '', email: r.a_email }
        : null,
    assigned_at: iso(r.assigned_at),
    last_activity_at: iso(r.last_activity_at),
  };
}
const assignee = { a_first: users.first_name, a_last: users.last_name, a_email: users.email };

/** /vm-list: the tenant's labs, paged; deleted ones only when status 3 is asked for. */
export async function vmList(deps: Deps, auth: AuthContext, q: z.output<typeof vmListRequest>) {
  const window = pageWindow(q);
  const filter = and(
    vmTenantWhere(managerTenant(auth)),
    q.status === undefined ? ne(vms.status, VM_STATUS.deleted) : eq(vms.status, q.status),
    searchWhere(q.search, [vms.name, vms.vm_name]),
  );
  const rows = await deps.db
    .select({ ...getTableColumns(vms), ...assignee, capped_total: cappedCount(vms, filter, window) })
    .from(vms)
    .leftJoin(users, eq(users.id, vms.assigned_user_id))
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort,
        { name: vms.name, vm_name: vms.vm_name, created: vms.created_at, status: vms.status, ram: vms.ram },
        [desc(vms.created_at)],
        vms.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toCountedPage(rows, window, toVmRow, (limit) => countWhere(deps.db, vms, filter, limit));
}

/** /vm-details {name}: the lab, its usage rows (open runs priced up to now) and totals. */
export async function vmDetails(deps: Deps, auth: AuthContext, name: string) {
  const vm = await vmForManager(deps, auth, name);
  const [joined] = await deps.db
    .select({ ...getTableColumns(vms), ...assignee })
    .from(vms)
    .leftJoin(users, eq(users.id, vms.assigned_user_id))
    .where(eq(vms.id, vm.id));
  const usage = await deps.db
    .select({ run: vmUsages, first_name: users.first_name, last_name: users.last_name })
    .from(vmUsages)
    .leftJoin(users, eq(users.id, vmUsages.user_id))
    .where(eq(vmUsages.vm_id, vm.id))
    .orderBy(asc(vmUsages.id));
  const rates = await currentRates(deps.db);
  const price = priceOf(rates, vm);
  const now = deps.clock();
  let total = 0;
  let minutes = 0;
  const list = usage.map(({ run, first_name, last_name }) => {
    const open = run.status === VM_USAGE_STATUS.start;
    const paise = open ? toPaise(openRunMicro(run, vm, rates, now)) : run.cost_paise;
    const used = open ? runMinutes((run.vm_start ?? now).getTime(), now.getTime()) : run.used_min;
    total += paise;
    minutes += used;
    return {
      id: run.id,
      first_name,
      last_name,
      vm_start: iso(run.vm_start),
      vm_stop: iso(run.vm_stop),
      used_min: used,
      cost: rupees(paise),
      cost_paise: paise,
      status: run.status,
      paid: run.payment_id ? 1 : 0,
    };
  });
  return {
    data: {
      ...toVmRow(joined!),
      hourly_price: unitsToRupees(price.perHour),
      price: {
        machine_per_hour: unitsToRupees(price.machinePerHour),
        storage_per_month: unitsToRupees(price.storagePerMonth),
        storage_per_hour: unitsToRupees(price.storagePerHour),
      },
      username: vm.username ?? vm.vm_name,
    },
    usage: list,
    total_cost: rupees(total),
    total_cost_paise: total,
    used_min: minutes,
  };
}

/** /get-vm-count */
export async function vmCount(deps: Deps, auth: AuthContext) {
  const [r] = await deps.db
    .select({
      count: sql<number>`count(*) filter (where ${vms.status} <> 3)::int`,
      running: sql<number>`count(*) filter (where ${vms.status} = 1)::int`,
      stopped: sql<number>`count(*) filter (where ${vms.status} = 2)::int`,
      not_started: sql<number>`count(*) filter (where ${vms.status} = 0)::int`,
      assigned: sql<number>`count(*) filter (where ${vms.status} <> 3 and ${vms.assigned_user_id} is not null)::int`,
    })
    .from(vms)
    .where(vmTenantWhere(managerTenant(auth)));
  const count = Number(r?.count ?? 0);
  const assigned = Number(r?.assigned ?? 0);
  return {
    count,
    running: Number(r?.running ?? 0),
    stopped: Number(r?.stopped ?? 0),
    not_started: Number(r?.not_started ?? 0),
    assigned,
    unassigned: count - assigned,
  };
}

/** /lpu/dashboard-data: every lab assigned to the learner and not deleted, most recently assigned first. */
export async function learnerVms(deps: Deps, userId: number) {
  const rows = await deps.db
    .select()
    .from(vms)
    .where(and(eq(vms.assigned_user_id, userId), ne(vms.status, VM_STATUS.deleted)))
    .orderBy(sql`${vms.assigned_at} desc nulls last`, desc(vms.id));
  return rows.map((vm) => ({
    vm_name: vm.vm_name,
    name: vm.name,
    created_at: (vm.assigned_at ?? vm.created_at).toISOString(),
    status: vm.status,
  }));
}

/** /vm-connection {name}: what /vm/{name} needs; the assigned learner and the tenant's managers only. */
export async function vmConnection(deps: Deps, auth: AuthContext, name: string) {
  const vm = await vmForUser(deps, auth, name);
  const engine = deps.labs;
  const problem = await engine.problem();
  const linux = vm.protocol === 'ssh';
  // the desktop comes through our server from engines that run the lab's VNC server themselves
  const local = vm.engine === 'local' || vm.engine === 'container' || vm.engine === 'kubernetes';
  return {
    vm_name: vm.vm_name,
    name: vm.name,
    image: vm.image,
    protocol: vm.protocol,
    status: vm.status,
    width: VM_DISPLAY.width,
    height: VM_DISPLAY.height,
    terminal: linux && vm.engine !== 'memory',
    desktop: linux && local,
    rdp: !linux,
    problem: vm.engine === engine.name ? problem : 'This VM runs on another lab engine than the one configured.',
    username: vm.username ?? vm.vm_name,
    rdp_problem: !linux && !deps.config.GUACD_HOST ? RDP_GATEWAY_MISSING : null,
  };
}
