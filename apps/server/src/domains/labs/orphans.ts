import { VM_STATUS } from '@trainlab/contract';
import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';

/**
 * How long a create may be in flight (GCE waits up to 10 minutes on its operation): a record still
 * without its engine reference after this never answered its caller with success.
 */
export const CREATE_GRACE_MS = 15 * 60_000;

/**
 * Makes the engine and the records agree after a create that did not finish (a database fault
 * between the engine call and the record's last write, or a crash). A create is acknowledged only
 * once its record holds the engine's reference, so:
 * - a record still being created (status Create) without a reference, older than the grace period,
 *   was never acknowledged: its machine (if the engine made one) is removed and the record marked
 *   deleted, as the create's own failure path does; the caller was told to retry;
 * - a machine no live record owns is removed (nothing runs, or bills on a cloud, that no one sees).
 * Engines that cannot list their labs (the local engine) are skipped. Runs at start-up and then
 * every few minutes; `graceMs` is for tests.
 */
export async function reconcileOrphans(
  deps: Deps,
  graceMs = CREATE_GRACE_MS,
): Promise<{ removed: number; abandoned: number }> {
  const engine = deps.labs;
  const listed = await engine.listLabs?.();
  if (!listed) return { removed: 0, abandoned: 0 };
  const before = new Date(Date.now() - graceMs);
  const unfinished = await deps.db
    .select({ id: vms.id, vm_name: vms.vm_name })
    .from(vms)
    .where(
      and(
        eq(vms.engine, engine.name),
        eq(vms.status, VM_STATUS.create),
        isNull(vms.engine_ref),
        lt(vms.created_at, before),
      ),
    );
  const abandonedNames = new Set(unfinished.map((r) => r.vm_name));
  const names = listed.map((l) => l.vmName);
  const live = new Set(
    names.length === 0
      ? []
      : (
          await deps.db
            .select({ vm_name: vms.vm_name, status: vms.status })
            .from(vms)
            .where(and(inArray(vms.vm_name, names), eq(vms.engine, engine.name)))
        )
          .filter((r) => r.status !== VM_STATUS.deleted && !abandonedNames.has(r.vm_name))
          .map((r) => r.vm_name),
  );
  let removed = 0;
  for (const lab of listed) {
    if (live.has(lab.vmName)) continue;
    await engine.delete(lab.ref);
    removed++;
  }
  for (const row of unfinished) {
    await deps.db
      .update(vms)
      .set({ status: VM_STATUS.deleted, deleted_at: new Date() })
      .where(and(eq(vms.id, row.id), isNull(vms.engine_ref)));
  }
  return { removed, abandoned: unfinished.length };
}
