import type { SessionCache } from './auth/session-cache';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { FieldCipher } from './field-cipher';
import type { AnswerCache } from './http/answer-cache';
import type { FileStore } from './ports/files';
import type { LabProvider } from './ports/labs';
import type { Mailer } from './ports/mail';
import type { MeetingProvider } from './ports/meeting';
import type { PaymentGateway } from './ports/payments';
import type { Realtime } from './ports/realtime';
import type { SmsSender } from './ports/sms';
import type { Limits } from './rate-limit';
import type { SharedSecrets } from './shared-secrets';

/**
 * Everything a use case may reach: built once at start (or per test) by the composition root
 * (bootstrap.ts) and passed down. Each engine has its slot, typed by its port (platform/ports);
 * a test passes its fake through the same slot.
 */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  mail: Mailer;
  sms: SmsSender;
  /** uploads, videos, recordings, trainer images: disk or S3 (FILE_STORE) */
  files: FileStore;
  /** the lab engine (LAB_PROVIDER); its client library loads on first use (decision 0040) */
  labs: LabProvider;
  /** the clock the lab meters, schedules and idle rules read (a test's fixed time) */
  clock: () => Date;
  /** MEETING_PROVIDER: how a participant joins a room */
  meeting: MeetingProvider;
  /** PAYMENT_GATEWAY: built at start, so a misconfigured gateway stops the start */
  payments: PaymentGateway;
  /** fan-out and shared presence: in-process, or Redis when REDIS_URL is set */
  realtime: Realtime;
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
