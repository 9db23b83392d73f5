import type { Config } from '../../platform/config';
import { afterCommit } from '../../platform/db/ambient-transaction';
import type { Db } from '../../platform/db/client';
import { mailOncePerJob } from '../../platform/jobs/mail-once';
import type { Mailer } from './mailer';
import { OutboxMailer } from './outbox-mailer';
import { SmtpMailer } from './smtp-mailer';

export type { MailAttachment, Mailer, MailMessage } from './mailer';

/**
 * Inside a job, each mail is sent once per job even when the job runs twice (platform/jobs/mail-once.ts).
 * The outbox writes its row with the change that sent the mail (the same transaction). An SMTP send
 * cannot be taken back: inside a transaction it waits for the commit (and never happens on a
 * rollback), so no transaction is held while an SMTP server answers.
 */
export function createMailer(config: Config, db: Db): Mailer {
  if (!config.SMTP_URL) return mailOncePerJob(db, new OutboxMailer(db));
  const smtp = new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return mailOncePerJob(db, {
    kind: smtp.kind,
    send: (message) => afterCommit(() => smtp.send(message)),
    close: () => smtp.close(),
  });
}
