import { randomUUID } from 'node:crypto';
import { listenToOthers } from '../bus-listener';
import type { TablesWritten } from '../db/write-watch';
import type { Realtime } from '../ports/realtime';

/** What a cached call computes: its answer, and until when it holds whatever is written (ms epoch). */
export interface Computed {
  body: unknown;
  /** the answer turns wrong by itself at this time (an upcoming training ends); none: only writes end it */
  until?: number;
}

export interface AnswerCache {
  /**
   * The JSON text of the answer under `key`: from memory while no table of `tables` was written
   * since it was computed and it is younger than the TTL, else from compute(). Callers asking for
   * the same key at once share one compute().
   */
  answer(key: string, tables: readonly string[], compute: () => Promise<Computed>): Promise<string>;
  /** Forgets the answers that read any of these tables, here and on every other instance. */
  written(tables: TablesWritten): void;
  readonly size: number;
  readonly bytes: number;
  close(): Promise<void>;
}

/** Channel on the realtime bus that carries "these tables were written" between instances. */
export const ANSWERS_WRITTEN_CHANNEL = 'answers:tables-written';

/** an answer larger than this is sent but not kept: it would push many small ones out */
const MAX_ANSWER_BYTES = 512 * 1024;
/**
 * What an entry costs besides its answer's characters (its key, the Map's slot, the entry object):
 * counted with the answer, so that many tiny answers (a search per keystroke) cannot hold more
 * memory than maxBytes says.
 */
const ENTRY_OVERHEAD = 256;

interface Entry {
  json: string;
  /** what the entry counts against maxBytes */
  cost: number;
  tables: readonly string[];
  /** the tables' write generations when the computation started */
  stamp: number[];
  until: number;
}

/**
 * A per-process memory of the JSON answers of hot read calls (decision 0050), so a busy list is read
 * from the database once per change, not once per request. Each table has a write generation: a
 * statement of this process that writes a table bumps it (seen from the statements themselves, as
 * the session cache does, so no write path can forget it), again when its transaction ends, and a
 * message on the realtime bus bumps it on every other instance. An answer is kept with the
 * generations read before its computation began, so an answer computed while a write committed is
 * never served. An instance that misses a bus message serves a stale answer for at most `ttlMs`.
 */
export async function createAnswerCache(opts: {
  ttlMs: number;
  maxBytes?: number;
  /** the realtime bus shared by the instances; null: this process is the only instance */
  bus: Realtime | null;
  /** this process's own writes (Database.onTableWrite) */
  onTableWrite: ((listener: (tables: TablesWritten) => void) => () => void) | null;
  now?: () => number;
}): Promise<AnswerCache> {
  const { ttlMs, bus } = opts;
  /** what the kept answers may cost in all (characters of answers and keys, and each entry's overhead) */
  const maxBytes = opts.maxBytes ?? 32 * 1024 * 1024;
  const now = opts.now ?? Date.now;
  const self = randomUUID();
  const entries = new Map<string, Entry>();
  const pending = new Map<string, { stamp: number[]; result: Promise<string> }>();
  const generations = new Map<string, number>();
  let everything = 0;
  let bytes = 0;

  const generation = (table: string) => everything + (generations.get(table) ?? 0);
  const stampOf = (tables: readonly string[]) => tables.map(generation);
  const sameStamp = (a: number[], tables: readonly string[]) => tables.every((t, i) => a[i] === generation(t));
  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.cost;
  };
  const bump = (tables: TablesWritten) => {
    if (tables === 'all') {
      everything++;
      entries.clear();
      bytes = 0;
      return;
    }
    for (const t of tables) generations.set(t, (generations.get(t) ?? 0) + 1);
  };
  // The other instances hear this process's writes once per turn of the event loop: a burst of
  // statements (an import's batches, a transaction's end) is one message.
  let outgoing: Set<string> | 'all' | null = null;
  const publish = () => {
    const tables = outgoing;
    outgoing = null;
    if (!tables || !bus) return;
    // a failed publish is healed by the TTL on the other instances
    const message = { from: self, tables: tables === 'all' ? 'all' : [...tables] };
    bus.publish(ANSWERS_WRITTEN_CHANNEL, message).catch(() => {});
  };
  const written = (tables: TablesWritten) => {
    bump(tables);
    if (!bus) return;
    if (!outgoing) setImmediate(publish);
    if (tables === 'all' || outgoing === 'all') outgoing = 'all';
    else {
      outgoing ??= new Set();
      for (const t of tables) outgoing.add(t);
    }
  };
  const stopWatching = opts.onTableWrite?.(written) ?? (() => {});

  // Alone, this process sees every write itself. With other instances it may only keep answers while
  // it hears their writes: until then every request computes its answer.
  const others = await listenToOthers(
    bus,
    ANSWERS_WRITTEN_CHANNEL,
    self,
    (m) => bump(Array.isArray(m.tables) ? new Set(m.tables.map(String)) : 'all'),
    () => bump('all'),
  );
  let closed = false;

  const store = (key: string, entry: Entry) => {
    if (entry.json.length > MAX_ANSWER_BYTES) return;
    const old = entries.get(key);
    if (old) drop(key, old);
    entries.set(key, entry);
    bytes += entry.cost;
    // the oldest answers go first (a Map iterates in insertion order)
    for (const [k, e] of entries) {
      if (bytes <= maxBytes) break;
      drop(k, e);
    }
  };

  const compute = (key: string, tables: readonly string[], run: () => Promise<Computed>): Promise<string> => {
    const stamp = stampOf(tables);
    const at = now();
    const result = run().then((computed) => {
      const json = JSON.stringify(computed.body);
      const until = Math.min(at + ttlMs, computed.until ?? Number.POSITIVE_INFINITY);
      if (!closed) store(key, { json, cost: json.length + key.length + ENTRY_OVERHEAD, tables, stamp, until });
      return json;
    });
    const flight = { stamp, result };
    pending.set(key, flight);
    const settle = () => {
      if (pending.get(key) === flight) pending.delete(key);
    };
    result.then(settle, settle);
    return result;
  };

  return {
    async answer(key, tables, run) {
      if (ttlMs <= 0 || !others.listening) return JSON.stringify((await run()).body);
      const hit = entries.get(key);
      if (hit) {
        if (hit.until > now() && sameStamp(hit.stamp, tables)) return hit.json;
        drop(key, hit);
      }
      // callers arriving while the same answer is being computed share it, unless a write came between
      const flight = pending.get(key);
      if (flight && sameStamp(flight.stamp, tables)) return flight.result;
      return compute(key, tables, run);
    },
    written,
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    async close() {
      closed = true;
      stopWatching();
      await others.close();
      entries.clear();
      bytes = 0;
    },
  };
}
