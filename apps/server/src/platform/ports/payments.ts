import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A card payment gateway: an order for an amount made on the server, a checkout in the browser that
 * answers a signed callback, and signed webhooks. Both engines use Razorpay's wire shapes and
 * signatures, so the payments domain has one flow.
 */
export interface PaymentGateway {
  readonly name: 'test' | 'razorpay';
  /** the public key the browser's checkout needs */
  readonly keyId: string;
  createOrder(input: {
    amount_paise: number;
    currency: string;
    receipt: string;
    notes?: Record<string, string>;
  }): Promise<{
    order_id: string;
  }>;
  /** the checkout callback: HMAC-SHA256(order_id|payment_id) with the key secret */
  verifyCheckout(orderId: string, paymentId: string, signature: string): boolean;
  /** a webhook: HMAC-SHA256(raw body) with the webhook secret */
  verifyWebhook(rawBody: string, signature: string | undefined): boolean;
}

export const hmacHex = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');

/** Constant-time comparison of a received hex signature with the expected one. */
export function signatureMatches(expected: string, received: string | undefined): boolean {
  if (!received) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The webhook event shape (Razorpay's): `event`, and the entities under `payload`. */
export interface GatewayEvent {
  event: string;
  payload: {
    payment?: { entity: { id: string; order_id: string; amount: number; status?: string; error_description?: string } };
    order?: { entity: { id: string; amount: number; amount_paid?: number; status?: string } };
    refund?: { entity: { id: string; payment_id: string; amount: number } };
  };
}
