import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/client';
import { HttpSms } from './http-sms';
import { OutboxSms } from './outbox-sms';
import type { SmsSender } from './sms';

export { HttpSms } from './http-sms';
export { OutboxSms } from './outbox-sms';
export type { SmsMessage, SmsSender } from './sms';

export function createSms(config: Config, db: Db): SmsSender {
  return config.SMS_GATEWAY_URL ? new HttpSms(config.SMS_GATEWAY_URL, config.SMS_GATEWAY_TOKEN) : new OutboxSms(db);
}

/**
 * Deps has no SMS slot yet (platform/deps.ts belongs to the foundation); one sender per Deps is
 * built on first use. Tests may replace it with `setSmsSender`.
 */
const senders = new WeakMap<object, SmsSender>();
export function smsFor(deps: { config: Config; db: Db }): SmsSender {
  let sender = senders.get(deps);
  if (!sender) {
    sender = createSms(deps.config, deps.db);
    senders.set(deps, sender);
  }
  return sender;
}
export function setSmsSender(deps: object, sender: SmsSender): void {
  senders.set(deps, sender);
}
