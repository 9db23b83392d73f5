import { VM_STATUS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { resolveSession } from '../../platform/http/auth-context';
import { canUse } from './access';
import { watchableLab } from './watch';

/**
 * An open lab socket keeps its right only while the right lasts: every LAB_SOCKET_RECHECK_MS it asks
 * again what admission asked (a live session of a person who may still use, or watch, this started
 * lab). Logout, deactivation and a new login end the session; a role change or an un-assignment ends
 * the right; either closes the socket within one period. The session comes through the session
 * cache, which forgets every entry at any write to users or sessions (here and, over the bus, on the
 * other instances), so the check costs one lab read per period and socket.
 *
 * A periodic check rather than a push from the write path: it sees every way a right can end
 * (including ones added later, and a lab stopped or deleted elsewhere) without each write path having
 * to know about sockets.
 */
export interface Revocable {
  readonly readyState: number;
  readonly OPEN: number;
  close(code?: number, reason?: string): void;
  terminate?(): void;
  on(event: 'close', listener: () => void): void;
}

/** why the socket may no longer be open (the close code and reason), or null while it may */
export async function rightLost(
  deps: Deps,
  token: string,
  vmId: number,
  view: string | null,
): Promise<[number, string] | null> {
  const auth = await resolveSession(deps, token);
  if (!auth) return [4401, 'Unauthenticated.'];
  const [vm] = await deps.db.select().from(vms).where(eq(vms.id, vmId)).limit(1);
  if (!vm || !(view ? await watchableLab(deps, auth, view, vm.vm_name) : canUse(auth, vm))) {
    return [4404, 'Not Found'];
  }
  if (vm.status !== VM_STATUS.start) return [4409, 'The VM is not started.'];
  return null;
}

/** Re-checks the socket's right until it closes; a lost right closes it (and, if the browser does not
 * answer the close, drops the connection a second later). */
export function keepChecking(deps: Deps, socket: Revocable, token: string, vmId: number, view: string | null) {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    rightLost(deps, token, vmId, view)
      .then((lost) => {
        if (!lost || socket.readyState !== socket.OPEN) return;
        socket.close(lost[0], lost[1]);
        setTimeout(() => socket.terminate?.(), 1000).unref();
      })
      // a database that does not answer ends nothing: the next period asks again
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, deps.config.LAB_SOCKET_RECHECK_MS);
  timer.unref();
  socket.on('close', () => clearInterval(timer));
}
