import { randomBytes } from 'node:crypto';
import { hmacHex, type PaymentGateway, signatureMatches } from '../../platform/ports/payments';

/**
 * The embedded test gateway (default): orders, payments and signatures made by our own server with a
 * local secret, and a checkout page of our own (/payment) offering Pay and Fail. Same flow and
 * signatures as Razorpay, so every payment journey runs offline.
 */
export class TestGateway implements PaymentGateway {
  readonly name = 'test' as const;
  readonly keyId = 'test_gateway';
  /** the signing key, or how to get it when signing (a key stored in the database is read once it answers) */
  constructor(private readonly key: string | (() => string)) {}

  private get secret(): string {
    return typeof this.key === 'string' ? this.key : this.key();
  }

  async createOrder(): Promise<{ order_id: string }> {
    return { order_id: `order_test_${randomBytes(9).toString('hex')}` };
  }

  newPaymentId(): string {
    return `pay_test_${randomBytes(9).toString('hex')}`;
  }

  sign(orderId: string, paymentId: string): string {
    return hmacHex(this.secret, `${orderId}|${paymentId}`);
  }

  signWebhook(rawBody: string): string {
    return hmacHex(this.secret, rawBody);
  }

  verifyCheckout(orderId: string, paymentId: string, signature: string): boolean {
    return signatureMatches(this.sign(orderId, paymentId), signature);
  }

  verifyWebhook(rawBody: string, signature: string | undefined): boolean {
    return signatureMatches(this.signWebhook(rawBody), signature);
  }
}
