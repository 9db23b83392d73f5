import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { instanceSecrets } from '../db/schema';
import type { Config } from './config';
import type { Db } from './db/client';

/**
 * The signing keys every instance must share: the test gateway's callbacks and webhooks, the course
 * media tokens and the recording links. A link or a payment signed by one instance is checked by
 * whichever instance the next request reaches (and a webhook job may run on any of them).
 *
 * Each comes from its setting when set (the same on every instance); otherwise from the database:
 * the first instance to start on it stores a random value (a unique insert that only one wins) and
 * every instance reads the stored one. The database answers only after the server listens, so the
 * keys are read at start-up once it does (prepareDatabase) and asked for at signing time, never at
 * route registration. Never a key of one process alone: a restart would void every link too.
 */
export const SHARED_SECRETS = ['TEST_GATEWAY_SECRET', 'COURSE_MEDIA_SECRET', 'RECORDING_URL_SECRET'] as const;
export type SharedSecretName = (typeof SHARED_SECRETS)[number];

export class SharedSecrets {
  private readonly values = new Map<SharedSecretName, string>();

  constructor(config: Partial<Pick<Config, SharedSecretName>>) {
    for (const name of SHARED_SECRETS) {
      const configured = config[name];
      if (configured) this.values.set(name, configured);
    }
  }

  /** Stores the keys that are neither configured nor stored yet, then reads the stored ones. */
  async load(db: Db): Promise<void> {
    const wanted = SHARED_SECRETS.filter((name) => !this.values.has(name));
    if (!wanted.length) return;
    await db
      .insert(instanceSecrets)
      .values(wanted.map((name) => ({ name, value: randomBytes(32).toString('base64url') })))
      .onConflictDoNothing();
    const rows = await db.select().from(instanceSecrets).where(inArray(instanceSecrets.name, wanted));
    for (const row of rows) this.values.set(row.name as SharedSecretName, row.value);
  }

  get(name: SharedSecretName): string {
    const value = this.values.get(name);
    if (!value) throw new Error(`${name} is not known yet: it is configured, or read from the database at start-up`);
    return value;
  }

  /** the keys neither configured nor read from the database */
  missing(): SharedSecretName[] {
    return SHARED_SECRETS.filter((name) => !this.values.has(name));
  }
}
