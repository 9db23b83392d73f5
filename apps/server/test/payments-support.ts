import { createHmac, randomBytes } from 'node:crypto';
import type { TestApp } from './helpers';

export const TEST_SECRET = 'test-gateway-secret-0123456789';
export const sign = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');

/** POSTs a webhook with the exact raw body, signed (or not) as the gateway would. */
export async function webhook(
  t: TestApp,
  gateway: string,
  event: unknown,
  opts: { secret?: string; signature?: string; eventId?: string; raw?: string } = {},
) {
  const raw = opts.raw ?? JSON.stringify(event);
  const res = await t.app.inject({
    method: 'POST',
    url: `/webhooks/payments/${gateway}`,
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': opts.signature ?? sign(opts.secret ?? TEST_SECRET, raw),
      'x-razorpay-event-id': opts.eventId ?? `evt_${randomBytes(6).toString('hex')}`,
    },
    payload: raw,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

export const captured = (orderId: string, paymentId: string, amount: number) => ({
  event: 'payment.captured',
  payload: { payment: { entity: { id: paymentId, order_id: orderId, amount, status: 'captured' } } },
});
