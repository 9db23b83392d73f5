import { randomUUID } from 'node:crypto';
import type { users } from '../../db/schema';
import { listenToOthers } from '../bus-listener';
import type { Realtime } from '../ports/realtime';

type UserRow = typeof users.$inferSelect;

/** What a live session resolves to, without the token itself (the cache is keyed by its hash). */
export interface CachedSession {
  user: UserRow;
  sessionId: number;
  expiresAt: Date;
}

export interface SessionCache {
  /**
   * The session behind a token hash: from memory while the entry is younger than the TTL, else
   * from load(). A null from load() (no live session) is never kept.
   */
  resolve(tokenHash: string, load: () => Promise<CachedSession | null>): Promise<CachedSession | null>;
  /** Forgets every entry here and on every other instance (the bus). */
  flush(): void;
  readonly size: number;
  close(): Promise<void>;
}

/** Channel on the realtime bus that carries "forget your sessions" between instances. */
export const SESSION_FLUSH_CHANNEL = 'auth:sessions-flush';

/**
 * A per-process memory of resolved sessions, so a hot authenticated read costs no session query.
 * Any change of `users` or `sessions` in this process (logout, password change, deactivation, role
 * change, revocation at a new login; seen from the statements themselves, so no write path can forget
 * to call it) empties the whole memory at once and tells the other instances over the realtime bus.
 * A change is rare next to reads, so forgetting everything is cheaper than knowing what to forget.
 * An instance that misses a bus message serves a stale entry for at most `ttlMs`.
 *
 * A read that started before a flush does not store its answer (generation check): it may have read
 * the row as it was before a transaction committed.
 */
export async function createSessionCache(opts: {
  ttlMs: number;
  maxEntries?: number;
  /** the realtime bus shared by the instances; null: this process is the only instance */
  bus: Realtime | null;
  /** this process's own account writes (Database.onAccountWrite); null in tests of another instance */
  onAccountWrite: ((listener: () => void) => () => void) | null;
}): Promise<SessionCache> {
  const { ttlMs, bus } = opts;
  const maxEntries = opts.maxEntries ?? 50_000;
  const self = randomUUID();
  const entries = new Map<string, { session: CachedSession; until: number }>();
  let generation = 0;
  const forget = () => {
    generation++;
    entries.clear();
  };
  const flush = () => {
    forget();
    // a failed publish is healed by the TTL on the other instances
    bus?.publish(SESSION_FLUSH_CHANNEL, { from: self }).catch(() => {});
  };
  const stopWatching = opts.onAccountWrite?.(flush) ?? (() => {});
  // Alone, this process hears every change itself. With other instances it may only keep sessions
  // while it hears their flushes: until then every request asks the database.
  const others = await listenToOthers(bus, SESSION_FLUSH_CHANNEL, self, forget, forget);

  return {
    async resolve(tokenHash, load) {
      const now = Date.now();
      const hit = entries.get(tokenHash);
      if (hit) {
        if (hit.until > now && hit.session.expiresAt.getTime() > now) return copy(hit.session);
        entries.delete(tokenHash);
      }
      if (ttlMs <= 0 || !others.listening) return load();
      const before = generation;
      const session = await load();
      if (session && generation === before) {
        if (entries.size >= maxEntries) {
          // the oldest entry goes first (a Map iterates in insertion order)
          const oldest = entries.keys().next().value;
          if (oldest !== undefined) entries.delete(oldest);
        }
        entries.set(tokenHash, { session: copy(session), until: now + ttlMs });
      }
      return session;
    },
    flush,
    get size() {
      return entries.size;
    },
    async close() {
      stopWatching();
      await others.close();
      entries.clear();
    },
  };
}

/** Callers get their own copy: a handler that changes its user object cannot change the cache. */
function copy(s: CachedSession): CachedSession {
  return { ...s, user: { ...s.user, roles: [...s.user.roles] } };
}
