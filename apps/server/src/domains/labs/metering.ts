import {
  type LabPrice,
  labPrice,
  minutesMicroPaise,
  runMinutes,
  toPaise,
  VM_STATUS,
  VM_USAGE_STATUS,
} from '@trainlab/contract';
import { and, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { vmPrices, vmStoragePrices, vms, vmUsages } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { ensureVmPriceDefaults } from '../master-data/vm-price-defaults';
import type { VmRow } from './access';

/**
 * Metering (spec 02 §9) by the one price rule of packages/contract lab-price.ts (decision 0053):
 * a run is charged the lab's price per hour (platform machine price + platform storage per month
 * ÷ 720) for its whole minutes, rounded to paise once when it closes. When the admin changes
 * prices, open runs fold in what they owe at the old prices first (rollOpenRuns): minutes are
 * counted from the run's start, so the stretches' minutes always add up to the run's minutes.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type DbOrTx = Db | Tx;

/** The admin's current price sheet, read once per operation. */
export interface Rates {
  list: { memory: number; linux: number; windows: number }[];
  storage_price: number;
}

export async function currentRates(db: DbOrTx): Promise<Rates> {
  await ensureVmPriceDefaults(db as Db);
  const list = await db
    .select({ memory: vmPrices.memory, linux: vmPrices.linux, windows: vmPrices.windows })
    .from(vmPrices);
  const [storage] = await db.select().from(vmStoragePrices).limit(1);
  return { list, storage_price: storage?.storage_price ?? 0 };
}

const NO_PRICE: LabPrice = { machinePerHour: 0, storagePerMonth: 0, storagePerHour: 0, perHour: 0 };
/** One lab's price at these rates (hundredths of a paisa); a RAM size without a row costs nothing. */
export const priceOf = (rates: Rates, vm: Pick<VmRow, 'image' | 'ram' | 'storage'>): LabPrice =>
  labPrice(rates, vm) ?? NO_PRICE;

/** Micro-paise a run owes for its minutes between `since` and `to` (both counted from its start). */
function stretch(run: { vm_start: Date | null }, since: Date, to: Date, perHour: number): number {
  const start = (run.vm_start ?? since).getTime();
  return minutesMicroPaise(perHour, runMinutes(start, to.getTime()) - runMinutes(start, since.getTime()));
}

export type UsageRow = typeof vmUsages.$inferSelect;

/** Opens a run (status Start) with the server's time; a second open run of a lab is refused by the unique index. */
export async function openRun(db: DbOrTx, vm: VmRow, at: Date, userId: number | null): Promise<void> {
  await db
    .insert(vmUsages)
    .values({ vm_id: vm.id, user_id: userId, status: VM_USAGE_STATUS.start, vm_start: at, rate_since: at })
    .onConflictDoNothing();
}

/** Closes the lab's open run (if any) at `at`: minutes, and cost in paise at the prices in force. */
export async function closeRun(db: DbOrTx, vm: VmRow, at: Date): Promise<UsageRow | null> {
  const [run] = await db
    .select()
    .from(vmUsages)
    .where(and(eq(vmUsages.vm_id, vm.id), eq(vmUsages.status, VM_USAGE_STATUS.start)))
    .for('update');
  if (!run) return null;
  const start = run.vm_start ?? at;
  const stop = at < start ? start : at;
  const rates = await currentRates(db);
  const since = run.rate_since ?? start;
  const micro = run.accrued_micropaise + stretch(run, since, stop, priceOf(rates, vm).perHour);
  const [closed] = await db
    .update(vmUsages)
    .set({
      status: VM_USAGE_STATUS.stop,
      vm_stop: stop,
      used_min: runMinutes(start.getTime(), stop.getTime()),
      cost_paise: toPaise(micro),
      accrued_micropaise: micro,
      rate_since: stop,
    })
    .where(eq(vmUsages.id, run.id))
    .returning();
  return closed ?? null;
}

/**
 * Called by the admin's price update inside its transaction, before the new prices are written:
 * every open run adds what it owes so far at the old prices.
 */
export async function rollOpenRuns(tx: Tx, at: Date): Promise<void> {
  const open = await tx
    .select({ run: vmUsages, vm: vms })
    .from(vmUsages)
    .innerJoin(vms, eq(vms.id, vmUsages.vm_id))
    .where(eq(vmUsages.status, VM_USAGE_STATUS.start))
    .for('update', { of: vmUsages });
  if (open.length === 0) return;
  const rates = await currentRates(tx);
  for (const { run, vm } of open) {
    const since = run.rate_since ?? run.vm_start ?? at;
    await tx
      .update(vmUsages)
      .set({
        accrued_micropaise: run.accrued_micropaise + stretch(run, since, at, priceOf(rates, vm).perHour),
        rate_since: at,
      })
      .where(eq(vmUsages.id, run.id));
  }
}

/** What an open run owes at `at` (micro-paise), without closing it. */
export function openRunMicro(run: UsageRow, vm: VmRow, rates: Rates, at: Date): number {
  const since = run.rate_since ?? run.vm_start ?? at;
  return run.accrued_micropaise + stretch(run, since, at, priceOf(rates, vm).perHour);
}

/** This calendar month's (UTC) running minutes and spend in paise of a set of labs, open runs included. */
export async function monthToDate(deps: Deps, vmIds: number[], at: Date): Promise<{ minutes: number; paise: number }> {
  if (vmIds.length === 0) return { minutes: 0, paise: 0 };
  const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const rows = await deps.db
    .select({ run: vmUsages, vm: vms })
    .from(vmUsages)
    .innerJoin(vms, eq(vms.id, vmUsages.vm_id))
    .where(
      and(
        inArray(vmUsages.vm_id, vmIds),
        inArray(vmUsages.status, [VM_USAGE_STATUS.start, VM_USAGE_STATUS.stop]),
        or(gte(vmUsages.vm_stop, monthStart), isNull(vmUsages.vm_stop)),
      ),
    );
  const rates = await currentRates(deps.db);
  let minutes = 0;
  let micro = 0;
  for (const { run, vm } of rows) {
    if (run.status === VM_USAGE_STATUS.stop) {
      minutes += run.used_min;
      micro += run.cost_paise * 1_000_000;
    } else {
      minutes += runMinutes((run.vm_start ?? at).getTime(), at.getTime());
      micro += openRunMicro(run, vm, rates, at);
    }
  }
  return { minutes, paise: toPaise(micro) };
}

/**
 * At start-up (and whenever asked): make the records agree with what the engine really runs,
 * without losing or doubling a meter. A lab we think runs but the engine has stopped (or lost) is
 * closed now; a lab the engine runs that we think is stopped gets a run opened now; a lab whose
 * record and engine agree keeps its one open run untouched. Returns what it changed.
 */
export async function reconcileLabs(deps: Deps): Promise<{ closed: number; opened: number }> {
  const engine = deps.labs;
  if (await engine.problem()) return { closed: 0, opened: 0 };
  const at = deps.clock();
  const live = await deps.db
    .select()
    .from(vms)
    .where(and(inArray(vms.status, [VM_STATUS.create, VM_STATUS.start, VM_STATUS.stop]), eq(vms.engine, engine.name)));
  let closed = 0;
  let opened = 0;
  for (const vm of live) {
    if (!vm.engine_ref) continue;
    let state: Awaited<ReturnType<typeof engine.status>>;
    try {
      state = await engine.status(vm.engine_ref);
    } catch {
      continue;
    }
    await deps.db.transaction(async (tx) => {
      const [run] = await tx
        .select({ id: vmUsages.id })
        .from(vmUsages)
        .where(and(eq(vmUsages.vm_id, vm.id), eq(vmUsages.status, VM_USAGE_STATUS.start)));
      if (state === 'running') {
        if (!run) {
          await openRun(tx, vm, at, vm.assigned_user_id);
          opened++;
        }
        if (vm.status !== VM_STATUS.start) {
          await tx.update(vms).set({ status: VM_STATUS.start, last_activity_at: at }).where(eq(vms.id, vm.id));
        }
      } else {
        if (run) {
          await closeRun(tx, vm, at);
          closed++;
        }
        if (vm.status === VM_STATUS.start) {
          await tx.update(vms).set({ status: VM_STATUS.stop, connections: 0 }).where(eq(vms.id, vm.id));
        }
      }
      // connections counted by a process that is gone are gone with it
      if (vm.connections !== 0) await tx.update(vms).set({ connections: 0 }).where(eq(vms.id, vm.id));
    });
  }
  // runs left open on labs that are no longer running (deleted meanwhile) close too
  const strays = await deps.db
    .select({ vm: vms })
    .from(vmUsages)
    .innerJoin(vms, eq(vms.id, vmUsages.vm_id))
    .where(and(eq(vmUsages.status, VM_USAGE_STATUS.start), sql`${vms.status} <> ${VM_STATUS.start}`));
  for (const { vm } of strays) {
    await deps.db.transaction((tx) => closeRun(tx, vm, at));
    closed++;
  }
  return { closed, opened };
}
