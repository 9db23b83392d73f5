import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/client';
import type { SmsSender } from '../../platform/ports/sms';
import { HttpSms } from './http-sms';
import { OutboxSms } from './outbox-sms';

export type { SmsMessage, SmsSender } from '../../platform/ports/sms';
export { HttpSms } from './http-sms';
export { OutboxSms } from './outbox-sms';

/** The sender of this server (the composition root's Deps.sms): a gateway's HTTP API, else the outbox. */
export function createSms(config: Config, db: Db): SmsSender {
  return config.SMS_GATEWAY_URL ? new HttpSms(config.SMS_GATEWAY_URL, config.SMS_GATEWAY_TOKEN) : new OutboxSms(db);
}
