import { outbox } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Mailer, MailMessage } from './mailer';

/** The embedded default: mail is written to the outbox table and read on the dev mailbox page. */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  constructor(private readonly db: Db) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(outbox).values({
      channel: 'mail',
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
    });
  }
}
