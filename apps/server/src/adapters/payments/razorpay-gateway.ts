import type Razorpay from 'razorpay';
import { hmacHex, type PaymentGateway, signatureMatches } from '../../platform/ports/payments';

/**
 * Razorpay through its SDK: orders over its API; signatures checked here with the key and webhook
 * secrets. The SDK loads with the first order, not at start (signatures need only node:crypto).
 */
export class RazorpayGateway implements PaymentGateway {
  readonly name = 'razorpay' as const;
  private client?: Promise<Razorpay>;

  constructor(
    readonly keyId: string,
    private readonly keySecret: string,
    private readonly webhookSecret: string,
    private readonly apiUrl?: string,
  ) {}

  private sdk(): Promise<Razorpay> {
    this.client ??= import('razorpay').then(({ default: Sdk }) => {
      const client = new Sdk({ key_id: this.keyId, key_secret: this.keySecret });
      if (this.apiUrl) {
        // The SDK fixes its host; a test points the same client at a local fake of the API.
        (client as unknown as { api: { rq: { defaults: { baseURL: string } } } }).api.rq.defaults.baseURL = this.apiUrl;
      }
      return client;
    });
    return this.client;
  }

  async createOrder(input: {
    amount_paise: number;
    currency: string;
    receipt: string;
    notes?: Record<string, string>;
  }) {
    const order = await (await this.sdk()).orders.create({
      amount: input.amount_paise,
      currency: input.currency,
      receipt: input.receipt,
      notes: input.notes ?? {},
    });
    if (Number(order.amount) !== input.amount_paise) throw new Error('Razorpay created an order for another amount');
    return { order_id: String(order.id) };
  }

  verifyCheckout(orderId: string, paymentId: string, signature: string): boolean {
    return signatureMatches(hmacHex(this.keySecret, `${orderId}|${paymentId}`), signature);
  }

  verifyWebhook(rawBody: string, signature: string | undefined): boolean {
    return signatureMatches(hmacHex(this.webhookSecret, rawBody), signature);
  }
}
