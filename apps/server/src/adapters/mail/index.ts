import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/client';
import type { Mailer } from './mailer';
import { OutboxMailer } from './outbox-mailer';
import { SmtpMailer } from './smtp-mailer';

export type { MailAttachment, Mailer, MailMessage } from './mailer';

export function createMailer(config: Config, db: Db): Mailer {
  return config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM) : new OutboxMailer(db);
}
