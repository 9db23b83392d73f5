import { inArray } from 'drizzle-orm';
import {
  KEYS_ADVICE,
  type KeyQuota,
  LABS_A_HOST_SHOULD_HOLD,
  labsByKeys,
  readKeyQuota,
} from './adapters/labs/kernel-keys';
import { LOCAL_ENGINE_REFUSED } from './adapters/labs/local';
import { engineIsLocal } from './adapters/labs/network-fence';
import { users } from './db/schema';
import { verifyPassword } from './platform/auth/passwords';
import type { Config } from './platform/config';
import type { Db } from './platform/db/client';
import {
  BEFORE_GOING_LIVE,
  demoAccountsOn,
  devMailboxOn,
  isLoopbackHost,
  SEVERAL_INSTANCES,
} from './platform/exposure';
import type { SharedSecrets } from './platform/shared-secrets';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/demo';

/**
 * The start-up's safety checks (what a fresh install exposes: platform/exposure.ts). On the top
 * floor: they read the demo accounts of seed/ and ask the configured lab engine.
 */

/** The accounts that still sign in with the published demo password. */
export async function accountsWithDemoPassword(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: users.email, password: users.password_hash })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((a) => a.email),
      ),
    );
  const open: string[] = [];
  // the seed hashes the password once for all of them: one verification per distinct hash
  const verdicts = new Map<string, Promise<boolean>>();
  for (const row of rows) {
    if (!row.password) continue;
    if (!verdicts.has(row.password)) verdicts.set(row.password, verifyPassword(row.password, DEMO_PASSWORD));
    if (await verdicts.get(row.password)) open.push(row.email);
  }
  return open;
}

export interface StartupVerdict {
  /** reasons not to start at all */
  refusals: string[];
  /** said at start-up, each naming the checklist */
  warnings: string[];
}

/**
 * The start-up's safety checks on a migrated database (main.ts refuses to listen on a refusal).
 * `secrets`: the shared signing keys, read from the settings or the database by prepareDatabase.
 */
export async function startupVerdict(
  config: Config,
  db: Db,
  secrets: SharedSecrets,
  /** the lab host kernel's key quota (adapters/labs/kernel-keys.ts); a test passes its own */
  keyQuota: () => Promise<KeyQuota | null> = () => readKeyQuota(),
): Promise<StartupVerdict> {
  const refusals: string[] = [];
  const warnings: string[] = [];
  const beyondLoopback = !isLoopbackHost(config.HOST);
  const demo = demoAccountsOn(config);
  if (!demo) {
    const open = await accountsWithDemoPassword(db);
    if (open.length > 0) {
      const where = config.NODE_ENV === 'production' ? 'in production' : `on ${config.HOST}, beyond this machine`;
      refusals.push(
        `The demo accounts ${open.join(', ')} still sign in with the published demo password ${where}: change their passwords or remove them, or (development only) set SEED_DEMO=true to accept it (${BEFORE_GOING_LIVE}).`,
      );
    }
  }
  if (config.NODE_ENV !== 'production' && beyondLoopback) {
    if (demo)
      warnings.push(
        `WARNING: SEED_DEMO=true while listening on ${config.HOST}: anyone who can reach this address can sign in with the published demo password (${BEFORE_GOING_LIVE}).`,
      );
    if (devMailboxOn(config))
      warnings.push(
        `WARNING: DEV_MAILBOX=true while listening on ${config.HOST}: anyone who can reach this address can read every mail sent, password reset links included (${BEFORE_GOING_LIVE}).`,
      );
  }
  if (config.NODE_ENV === 'production' && config.LAB_PROVIDER === 'local') refusals.push(LOCAL_ENGINE_REFUSED);
  if (config.NODE_ENV === 'production' && config.LAB_PROVIDER === 'kubernetes') {
    // the configured engine's module (decision 0040: loaded only where it runs), its kubeconfig read, no call made
    const { KubernetesLabs } = await import('./adapters/labs/kubernetes');
    const unsafe = new KubernetesLabs(config).unsafeCluster();
    if (unsafe) refusals.push(unsafe);
  }
  // a key of this process alone would void, on every other instance, the links and payments it signs
  const missing = secrets.missing();
  if (config.NODE_ENV === 'production' && missing.length)
    refusals.push(
      `The signing keys ${missing.join(', ')} are neither configured nor stored in the database: set them (the same on every instance), or let the first start store them (${SEVERAL_INSTANCES}).`,
    );
  if (config.NODE_ENV === 'production' && config.DATABASE_URL && !config.FIELD_ENCRYPTION_KEYS)
    warnings.push(
      `Note: FIELD_ENCRYPTION_KEYS is unset, so the field encryption key is the file in DATA_DIR: every instance on this database must share that DATA_DIR, or set FIELD_ENCRYPTION_KEYS to the same keys (${SEVERAL_INSTANCES}).`,
    );
  if (config.NODE_ENV === 'production' && config.PAYMENT_GATEWAY === 'test')
    warnings.push(
      `WARNING: the test payment gateway is in use (STAGING_TEST_GATEWAY=true): anyone can mark an order paid. Staging only (${BEFORE_GOING_LIVE}).`,
    );
  if (config.NODE_ENV === 'production' && config.TRUST_PROXY === false)
    warnings.push(
      `Note: TRUST_PROXY is unset, so X-Forwarded-For is believed from nobody; behind a reverse proxy every client shares the proxy's address in rate limits and the audit trail (${BEFORE_GOING_LIVE}).`,
    );
  if (config.NODE_ENV === 'production' && config.LAB_PROVIDER === 'container' && engineIsLocal()) {
    const quota = await keyQuota();
    if (quota && labsByKeys(quota) < LABS_A_HOST_SHOULD_HOLD)
      warnings.push(
        `Note: this lab host's kernel key quota (kernel.keys.maxkeys ${quota.maxkeys}, maxbytes ${quota.maxbytes}) holds ${labsByKeys(quota)} running labs with their terminals and desktops; starts past it are refused. Raise it: ${KEYS_ADVICE} (docs/operations.md, the lab host).`,
      );
  }
  return { refusals, warnings };
}
