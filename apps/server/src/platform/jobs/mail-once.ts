import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { jobMails } from '../../db/schema';
import type { Db } from '../db/client';
import type { Mailer } from '../ports/mail';

/** The job whose handler is running (the runner sets it; mail sent by anything else is not tracked). */
const runningJob = new AsyncLocalStorage<{ id: number; sent: Map<string, number> }>();

export const asJob = <T>(jobId: number, fn: () => Promise<T>): Promise<T> =>
  runningJob.run({ id: jobId, sent: new Map() }, fn);

/**
 * A mailer that, inside a job, records each message against the job once sent (by recipient and
 * subject, and which of that pair it is in the run), so that a run of the same job again (its first
 * runner died before marking it done) skips what was sent. A mail is recorded after it went out: a
 * runner that dies between the two sends it again on the next run, never loses it.
 */
export function mailOncePerJob(db: Db, inner: Mailer): Mailer {
  return {
    kind: inner.kind,
    close: inner.close?.bind(inner),
    async send(message) {
      const job = runningJob.getStore();
      if (!job) return inner.send(message);
      const pair = createHash('sha256').update(`${message.to}\n${message.subject}`).digest('base64url');
      const n = (job.sent.get(pair) ?? 0) + 1;
      job.sent.set(pair, n);
      const key = `${pair}#${n}`;
      const [sent] = await db
        .select({ key: jobMails.mail_key })
        .from(jobMails)
        .where(and(eq(jobMails.job_id, job.id), eq(jobMails.mail_key, key)));
      if (sent) return;
      await inner.send(message);
      await db.insert(jobMails).values({ job_id: job.id, mail_key: key }).onConflictDoNothing();
    },
  };
}
