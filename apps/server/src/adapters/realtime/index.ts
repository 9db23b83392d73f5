import type { Handler, Realtime } from '../../platform/ports/realtime';
import { redisClass } from './redis-client';

/**
 * Realtime fan-out (the port: platform/ports/realtime.ts): in-process by default, Redis pub/sub +
 * keys when REDIS_URL is set.
 */
export type { Handler, Realtime } from '../../platform/ports/realtime';

export function createRealtime(opts: { redisUrl?: string; prefix?: string }): Realtime {
  return opts.redisUrl ? redisRealtime(opts.redisUrl, opts.prefix ?? '') : memoryRealtime();
}

export function memoryRealtime(): Realtime {
  const channels = new Map<string, Set<Handler>>();
  const keys = new Map<string, { value: string; expires: number }>();
  const hashes = new Map<string, Map<string, string>>();
  const live = (key: string) => {
    const entry = keys.get(key);
    if (entry && entry.expires <= Date.now()) keys.delete(key);
    return keys.get(key);
  };
  return {
    kind: 'memory',
    async publish(channel, message) {
      // delivered asynchronously, like Redis, and as a copy
      const copy = JSON.parse(JSON.stringify(message));
      for (const h of channels.get(channel) ?? []) queueMicrotask(() => h(copy));
    },
    async subscribe(channel, handler) {
      const set = channels.get(channel) ?? new Set<Handler>();
      channels.set(channel, set);
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (!set.size) channels.delete(channel);
      };
    },
    async claim(key, value, ttlMs) {
      if (live(key)) return false;
      keys.set(key, { value, expires: Date.now() + ttlMs });
      return true;
    },
    async refresh(key, value, ttlMs) {
      const e = live(key);
      if (e?.value === value) e.expires = Date.now() + ttlMs;
    },
    async release(key, value) {
      if (live(key)?.value === value) keys.delete(key);
    },
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlMs) {
      keys.set(key, { value, expires: Date.now() + ttlMs });
    },
    async take(key) {
      const v = live(key)?.value ?? null;
      keys.delete(key);
      return v;
    },
    async hset(hash, field, value) {
      const h = hashes.get(hash) ?? new Map<string, string>();
      hashes.set(hash, h);
      h.set(field, value);
    },
    async hdel(hash, field) {
      const h = hashes.get(hash);
      h?.delete(field);
      if (h && !h.size) hashes.delete(hash);
    },
    async hgetall(hash) {
      return Object.fromEntries(hashes.get(hash) ?? []);
    },
    async close() {
      channels.clear();
      keys.clear();
      hashes.clear();
    },
  };
}

const RELEASE_IF = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const REFRESH_IF =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

export function redisRealtime(url: string, prefix: string): Realtime {
  const opts = { lazyConnect: false, maxRetriesPerRequest: 3 };
  const Redis = redisClass();
  const cmd = new Redis(url, opts);
  const sub = new Redis(url, opts);
  const handlers = new Map<string, Set<Handler>>();
  const k = (key: string) => prefix + key;
  sub.on('message', (channel: string, raw: string) => {
    const set = handlers.get(channel);
    if (!set) return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    for (const h of set) h(message);
  });
  // connection errors are retried by ioredis; keep them from becoming unhandled 'error' events
  cmd.on('error', () => {});
  sub.on('error', () => {});
  return {
    kind: 'redis',
    async publish(channel, message) {
      await cmd.publish(k(channel), JSON.stringify(message));
    },
    async subscribe(channel, handler) {
      const full = k(channel);
      let set = handlers.get(full);
      if (!set) {
        set = new Set();
        handlers.set(full, set);
        await sub.subscribe(full);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (!set.size && handlers.get(full) === set) {
          handlers.delete(full);
          await sub.unsubscribe(full);
        }
      };
    },
    async claim(key, value, ttlMs) {
      return (await cmd.set(k(key), value, 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) === 'OK';
    },
    async refresh(key, value, ttlMs) {
      await cmd.eval(REFRESH_IF, 1, k(key), value, String(Math.max(1, Math.round(ttlMs))));
    },
    async release(key, value) {
      await cmd.eval(RELEASE_IF, 1, k(key), value);
    },
    async get(key) {
      return cmd.get(k(key));
    },
    async set(key, value, ttlMs) {
      await cmd.set(k(key), value, 'PX', Math.max(1, Math.round(ttlMs)));
    },
    async take(key) {
      return (await cmd.getdel(k(key))) ?? null;
    },
    async hset(hash, field, value) {
      await cmd.hset(k(hash), field, value);
    },
    async hdel(hash, field) {
      await cmd.hdel(k(hash), field);
    },
    async hgetall(hash) {
      return cmd.hgetall(k(hash));
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([cmd.quit(), sub.quit()]);
    },
  };
}
