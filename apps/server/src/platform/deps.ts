import type { SessionCache } from './auth/session-cache';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { FieldCipher } from './field-cipher';
import type { AnswerCache } from './http/answer-cache';
import type { Mailer } from './ports/mail';
import type { Limits } from './rate-limit';
import type { SharedSecrets } from './shared-secrets';

/** Everything a use case may reach: built once at start (or per test) and passed down. */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  mail: Mailer;
  limits: Limits;
  /** encryption of sensitive columns at rest */
  cipher: FieldCipher;
  /** resolved sessions kept for SESSION_CACHE_SECONDS (decision 0024) */
  sessions: SessionCache;
  /** the hot lists' answers, kept while nothing they read is written (decision 0050) */
  answers: AnswerCache;
  /** signing keys shared by every instance: configured, or stored in the database (platform/shared-secrets.ts) */
  secrets: SharedSecrets;
}
