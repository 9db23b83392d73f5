/** A text message to one mobile number. */
export interface SmsMessage {
  to: string;
  text: string;
}

export interface SmsSender {
  readonly kind: 'outbox' | 'http';
  send(message: SmsMessage): Promise<void>;
}
