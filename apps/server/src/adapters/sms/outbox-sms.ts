import { outbox } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { SmsMessage, SmsSender } from '../../platform/ports/sms';

/** The embedded default: SMS rows in the outbox (channel 'sms'), shown on the dev mailbox page. */
export class OutboxSms implements SmsSender {
  readonly kind = 'outbox' as const;
  constructor(private readonly db: Db) {}

  async send(message: SmsMessage): Promise<void> {
    await this.db.insert(outbox).values({ channel: 'sms', to: message.to, subject: 'SMS', text: message.text });
  }
}
