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
      // The outbox keeps attachment names and sizes, not their bytes.
      text: message.attachments?.length
        ? `${message.text}\n\nAttachments: ${message.attachments.map((a) => `${a.filename} (${a.content.byteLength} bytes)`).join(', ')}`
        : message.text,
      html: message.html ?? null,
    });
  }
}
