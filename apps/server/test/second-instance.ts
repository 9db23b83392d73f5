import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Realtime, redisRealtime } from '../src/adapters/realtime';
import { buildApp } from '../src/app';
import type { Deps } from '../src/platform/deps';
import { createTestApp, type TestApp } from './helpers';

// The CI machine runs Redis (as for the conference's two-instance test); files using this never skip.
const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** The settings of instances that tell each other of changes over Redis, under a prefix of their own. */
export const redisEnv = () => ({ REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` });

/**
 * A second instance beside `t` on the same database and Redis. On PostgreSQL a whole second set of
 * dependencies (its own pool, caches and Redis connections). An in-memory PGlite belongs to one
 * process: the second instance shares it, with its own copies of the parts under test (`own`, built
 * on a Redis bus of their own), so it hears of changes only over Redis, like another process would.
 */
export async function secondInstance(
  t: TestApp,
  env: Record<string, string>,
  databaseUrl: string,
  own: (bus: Realtime) => Promise<Partial<Deps>>,
): Promise<{ app: FastifyInstance; deps: Deps; close: () => Promise<void> }> {
  if (t.deps.database.kind === 'postgres') {
    const other = await createTestApp(env, { databaseUrl });
    return { app: other.app, deps: other.deps, close: () => other.close() };
  }
  const bus = redisRealtime(env.REDIS_URL ?? REDIS_URL, env.REDIS_KEY_PREFIX ?? '');
  const parts = await own(bus);
  const deps = { ...t.deps, ...parts };
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    close: async () => {
      await app.close();
      for (const part of Object.values(parts)) await (part as { close?: () => Promise<void> }).close?.();
      await bus.close();
    },
  };
}

/** Another instance hears over Redis within milliseconds: poll briefly instead of guessing a sleep. */
export async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}
