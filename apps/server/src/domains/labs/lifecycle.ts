import { MSG, VM_STATUS, type vmStartStopRequest } from '@trainlab/contract';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import { LabEngineError } from '../../platform/ports/labs';
import { tenantOfVm, type VmRow, vmForManager, vmForUser, vmTenantWhere } from './access';
import { labAccountOf } from './account';
import { closeRun, monthToDate, openRun } from './metering';
import { underTenantLimits } from './tenant-limits';

const engineFailed = (e: unknown) =>
  new ValidationError({
    other_error: [e instanceof LabEngineError ? e.message : 'The lab engine did not answer. Try again.'],
  });

async function specOf(deps: Deps, vm: VmRow) {
  return {
    vmName: vm.vm_name,
    username: vm.username ?? vm.vm_name,
    password: vm.password_enc ? deps.cipher.decrypt(vm.password_enc) : '',
    image: vm.image,
    ram: vm.ram,
    storage: vm.storage,
    zone: vm.zone,
  };
}

/** Refuses a start past the tenant's monthly caps (running hours, spend in paise). */
async function checkCaps(deps: Deps, vm: VmRow, at: Date) {
  const account = await labAccountOf(deps, tenantOfVm(vm));
  if (!account || (account.cap_hours_month == null && account.cap_paise_month == null)) return;
  const ids = (
    await deps.db
      .select({ id: vms.id })
      .from(vms)
      .where(vmTenantWhere(tenantOfVm(vm)))
  ).map((r) => r.id);
  const used = await monthToDate(deps, ids, at);
  if (account.cap_hours_month != null && used.minutes >= account.cap_hours_month * 60) {
    throw new ValidationError({ other_error: [MSG.labCapHours] });
  }
  if (account.cap_paise_month != null && used.paise >= account.cap_paise_month) {
    throw new ValidationError({ other_error: [MSG.labCapSpend] });
  }
}

/** Starts a lab: the engine first, then the record and a new run, with the server's time. */
export async function startLab(deps: Deps, vm: VmRow, userId: number | null): Promise<void> {
  if (vm.status === VM_STATUS.deleted) throw new ValidationError({ other_error: [MSG.labDeleted] });
  if (vm.status === VM_STATUS.start) return;
  const at = deps.clock();
  await checkCaps(deps, vm, at);
  const engine = deps.labs;
  const problem = await engine.problem();
  if (problem) throw new ValidationError({ other_error: [problem] });
  // the admin's limits on the tenant's running labs and their RAM (master data)
  await underTenantLimits(deps, vm, async () => {
    try {
      await engine.start(vm.engine_ref ?? vm.vm_name, await specOf(deps, vm));
    } catch (e) {
      throw engineFailed(e);
    }
    await deps.db.transaction(async (tx) => {
      await tx
        .update(vms)
        .set({ status: VM_STATUS.start, last_activity_at: at, connections: 0 })
        .where(eq(vms.id, vm.id));
      await openRun(tx, vm, at, userId);
    });
  });
  await scheduleIdleCheck(deps, vm, at);
}

/** Stops a lab: the engine first, then the record, closing the open run. */
export async function stopLab(deps: Deps, vm: VmRow): Promise<void> {
  if (vm.status !== VM_STATUS.start) return;
  try {
    await deps.labs.stop(vm.engine_ref ?? vm.vm_name);
  } catch (e) {
    throw engineFailed(e);
  }
  const at = deps.clock();
  await deps.db.transaction(async (tx) => {
    await tx.update(vms).set({ status: VM_STATUS.stop, connections: 0 }).where(eq(vms.id, vm.id));
    await closeRun(tx, vm, at);
  });
}

/** /vm-start-stop {action, name, is_user} */
export async function vmStartStop(deps: Deps, auth: AuthContext, body: z.output<typeof vmStartStopRequest>) {
  // managers of the lab's tenant, or the learner it is assigned to (is_user 1)
  const vm = await vmForUser(deps, auth, body.name);
  if (body.action === 'start') await startLab(deps, vm, vm.assigned_user_id ?? auth.user.id);
  else await stopLab(deps, vm);
  const [fresh] = await deps.db.select({ status: vms.status }).from(vms).where(eq(vms.id, vm.id));
  return { message: MSG.vmUpdated, status: fresh!.status };
}

/** /vm-delete {name}: the engine's machine goes, the record stays (status 3) for the bill. */
export async function deleteLab(deps: Deps, auth: AuthContext, name: string) {
  const vm = await vmForManager(deps, auth, name, false);
  const engine = deps.labs;
  try {
    if (vm.engine_ref) await engine.delete(vm.engine_ref);
  } catch (e) {
    throw engineFailed(e);
  }
  const at = deps.clock();
  await deps.db.transaction(async (tx) => {
    await closeRun(tx, vm, at);
    await tx.update(vms).set({ status: VM_STATUS.deleted, deleted_at: at, connections: 0 }).where(eq(vms.id, vm.id));
  });
  return { message: MSG.vmDeleted };
}

// ---- idle stop ---------------------------------------------------------------------------------

export const IDLE_JOB = 'lab-idle-check';

/** The tenant's idle limit in seconds, or null for none. */
async function idleLimit(deps: Deps, vm: VmRow): Promise<number | null> {
  const account = await labAccountOf(deps, tenantOfVm(vm));
  return account ? account.idle_stop_seconds : 1800;
}

async function scheduleIdleCheck(deps: Deps, vm: VmRow, from: Date): Promise<void> {
  const limit = await idleLimit(deps, vm);
  if (limit == null) return;
  await enqueue(deps, IDLE_JOB, { vm_id: vm.id }, { runAt: new Date(from.getTime() + limit * 1000) });
}

/**
 * The durable idle check: a running lab with no open connection and no input for the tenant's
 * limit stops by itself; otherwise the check is scheduled again for when the limit would pass.
 */
export async function idleCheck(deps: Deps, vmId: number): Promise<'stopped' | 'waiting' | 'none'> {
  const [vm] = await deps.db.select().from(vms).where(eq(vms.id, vmId));
  if (!vm || vm.status !== VM_STATUS.start) return 'none';
  const limit = await idleLimit(deps, vm);
  if (limit == null) return 'none';
  const now = deps.clock();
  const last = vm.last_activity_at ?? vm.created_at;
  const due = new Date(last.getTime() + limit * 1000);
  if (vm.connections > 0 || due > now) {
    const next = vm.connections > 0 ? new Date(now.getTime() + limit * 1000) : due;
    await enqueue(deps, IDLE_JOB, { vm_id: vm.id }, { runAt: next });
    return 'waiting';
  }
  await stopLab(deps, vm);
  return 'stopped';
}

registerJobHandler(IDLE_JOB, async (deps, payload) => {
  await idleCheck(deps, Number(payload.vm_id));
});

/** Connections and input through our proxy keep a lab awake. */
export async function touchLab(deps: Deps, vmId: number, change: -1 | 0 | 1 = 0): Promise<void> {
  await deps.db
    .update(vms)
    .set({
      last_activity_at: deps.clock(),
      ...(change === 0 ? {} : { connections: change > 0 ? sqlInc(1) : sqlInc(-1) }),
    })
    .where(eq(vms.id, vmId));
}
const sqlInc = (n: number) => sql`greatest(0, ${vms.connections} + ${n})`;
