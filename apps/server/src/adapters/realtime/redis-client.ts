import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';

const require = createRequire(import.meta.url);

/**
 * ioredis's client class, loaded on the first call: only a server with REDIS_URL ever needs it
 * (decision 0040). A synchronous require keeps the callers' constructors synchronous.
 */
export function redisClass(): typeof IORedis.Redis {
  return (require('ioredis') as typeof IORedis).Redis;
}
