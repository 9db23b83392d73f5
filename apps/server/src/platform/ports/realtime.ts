/**
 * Realtime fan-out and shared presence (architecture: 'realtime fan-out'). In-process by default;
 * Redis pub/sub + keys when REDIS_URL is set, so several server instances behind one address share
 * rooms, presence and one-session-per-account claims. The port: adapters/realtime implements it.
 */
export type Handler = (message: unknown) => void;

export interface Realtime {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, message: unknown): Promise<void>;
  /** Resolves once the subscription is active; returns the unsubscribe function. */
  subscribe(channel: string, handler: Handler): Promise<() => Promise<void>>;
  /** Sets key=value only when the key is free (or expired). */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Extends the key's life while it still holds value. */
  refresh(key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes the key when it still holds value. */
  release(key: string, value: string): Promise<void>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes the key and returns what it held (one-time tickets). */
  take(key: string): Promise<string | null>;
  hset(hash: string, field: string, value: string): Promise<void>;
  hdel(hash: string, field: string): Promise<void>;
  hgetall(hash: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}
