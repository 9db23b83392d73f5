import type { SmsMessage, SmsSender } from '../../platform/ports/sms';

/**
 * Production engine: an SMS gateway reached over HTTP. POST {to, text} as JSON to SMS_GATEWAY_URL,
 * with `Authorization: Bearer SMS_GATEWAY_TOKEN` when a token is configured. Any non-2xx answer
 * or a timeout is an error (the caller decides whether to retry).
 */
export class HttpSms implements SmsSender {
  readonly kind = 'http' as const;

  constructor(
    private readonly url: string,
    private readonly token?: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ to: message.to, text: message.text }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`SMS gateway answered ${res.status}`);
    }
    await res.body?.cancel();
  }
}
