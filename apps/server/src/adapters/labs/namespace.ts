import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../../platform/config';

/**
 * The install's name on a lab engine: LAB_NAMESPACE, else derived from its database. Instances of one
 * install share it; other installs on the same engine (or the same cloud project) never list, adopt
 * or remove each other's labs.
 */
export function labNamespace(config: Pick<Config, 'LAB_NAMESPACE' | 'DATABASE_URL' | 'DATA_DIR'>): string {
  if (config.LAB_NAMESPACE) return config.LAB_NAMESPACE;
  const db = config.DATABASE_URL ?? path.resolve(config.DATA_DIR);
  return createHash('sha256').update(db).digest('hex').slice(0, 10);
}
