import { VM_STATUS } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { vms } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { resolveSession } from '../../platform/http/auth-context';
import { canUse, type VmRow } from './access';
import { touchLab } from './lifecycle';
import { keepChecking } from './rights';
import { watchableLab } from './watch';

/**
 * What every lab socket does first (ws.ts: terminal and VNC; rdp.ts: RDP): the session token from
 * the subprotocol, the lab's rights checked as for a call, the idle clock kept, early messages kept
 * for their handler. A module of its own so that ws.ts and rdp.ts both use it without importing
 * each other.
 */
/** The parts of a `ws` WebSocket used here (the package ships no types). */
export interface WebSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: Buffer | string, done?: (err?: Error) => void): void;
  close(code?: number, reason?: string): void;
  /** stop and start reading the browser's bytes (flow control), and drop the connection */
  pause?(): void;
  resume?(): void;
  terminate?(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close' | 'error', listener: () => void): void;
}

const AUTH_PREFIX = 'auth.';
/** input counts as activity at most this often (a database write) */
const TOUCH_EVERY_MS = 10_000;

function tokenOf(request: FastifyRequest): string | null {
  const header = request.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return null;
  const found = header
    .split(',')
    .map((p) => p.trim())
    .find((p) => p.startsWith(AUTH_PREFIX));
  return found ? found.slice(AUTH_PREFIX.length) : null;
}

export async function admit(
  deps: Deps,
  request: FastifyRequest,
  socket: WebSocket,
  view?: string,
): Promise<{ vm: VmRow; userId: number } | null> {
  const token = tokenOf(request);
  const auth = token ? await resolveSession(deps, token) : null;
  if (!auth) {
    socket.close(4401, 'Unauthenticated.');
    return null;
  }
  const name = (request.params as { name?: string }).name ?? '';
  const [vm] = await deps.db.select().from(vms).where(eq(vms.vm_name, name)).limit(1);
  if (!vm || !(view ? await watchableLab(deps, auth, view, name) : canUse(auth, vm))) {
    socket.close(4404, 'Not Found');
    return null;
  }
  if (vm.status !== VM_STATUS.start) {
    socket.close(4409, 'The VM is not started.');
    return null;
  }
  keepChecking(deps, socket, token!, vm.id, view ?? null);
  return { vm, userId: auth.user.id };
}

/** Keeps the lab's idle clock and open-connection count up to date for one socket. */
export function activity(deps: Deps, vm: VmRow) {
  let last = 0;
  let open = false;
  return {
    opened: async () => {
      open = true;
      last = Date.now();
      await touchLab(deps, vm.id, 1);
    },
    input: () => {
      const now = Date.now();
      if (now - last < TOUCH_EVERY_MS) return;
      last = now;
      void touchLab(deps, vm.id).catch(() => undefined);
    },
    closed: () => {
      if (!open) return;
      open = false;
      void touchLab(deps, vm.id, -1).catch(() => undefined);
    },
  };
}

/** Messages that arrive while the socket is being admitted wait for their handler. */
export function inbox(socket: WebSocket) {
  const early: { raw: Buffer; isBinary: boolean }[] = [];
  let handler: ((raw: Buffer, isBinary: boolean) => void) | null = null;
  socket.on('message', (raw, isBinary) => {
    // a socket being closed (its right revoked) sends nothing more to the lab
    if (socket.readyState !== socket.OPEN) return;
    if (handler) handler(raw, isBinary);
    else if (early.length < 100) early.push({ raw, isBinary });
  });
  return (next: (raw: Buffer, isBinary: boolean) => void) => {
    handler = next;
    for (const m of early.splice(0)) next(m.raw, m.isBinary);
  };
}
