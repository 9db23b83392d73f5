import type { Realtime } from './ports/realtime';

/** how often a failed subscription to the other instances' messages is tried again */
const SUBSCRIBE_RETRY_MS = 5_000;

export interface BusListener {
  /** whether this process hears the other instances (always, when it is the only one) */
  readonly listening: boolean;
  close(): Promise<void>;
}

/**
 * Hears the other instances' messages on `channel` (its own, tagged `from: self`, are skipped), for
 * a memory that may only keep what it is told to forget: until the subscription is up (Redis down at
 * start-up) `listening` is false, and the subscription is tried again in the background. `onUp` runs
 * when it comes up (what was kept while deaf may be stale). Without a bus the process is alone and
 * always listening.
 */
export async function listenToOthers(
  bus: Realtime | null,
  channel: string,
  self: string,
  onMessage: (message: Record<string, unknown>) => void,
  onUp: () => void,
): Promise<BusListener> {
  let listening = !bus;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let unsubscribe = async () => {};
  const listen = async (): Promise<void> => {
    if (!bus || closed) return;
    try {
      unsubscribe = await bus.subscribe(channel, (message) => {
        const m = (message ?? {}) as Record<string, unknown>;
        if (m.from !== self) onMessage(m);
      });
      onUp();
      listening = true;
    } catch {
      retry = setTimeout(() => void listen(), SUBSCRIBE_RETRY_MS);
      retry.unref();
    }
  };
  await listen();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await unsubscribe();
    },
  };
}
