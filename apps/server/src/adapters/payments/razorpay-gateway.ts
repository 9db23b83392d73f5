import Razorpay from 'razorpay';
import { hmacHex, type PaymentGateway, signatureMatches } from './gateway';

/** Razorpay through its SDK: orders over its API; signatures checked here with the key and webhook secrets. */
export class RazorpayGateway implements PaymentGateway {
  readonly name = 'razorpay' as const;
  private readonly client: Razorpay;

  constructor(
    readonly keyId: string,
    private readonly keySecret: string,
    private readonly webhookSecret: string,
    apiUrl?: string,
  ) {
    this.client = new Razorpay({ key_id: keyId, key_secret: keySecret });
    if (apiUrl) {
      // The SDK fixes its host; a test points the same client at a local fake of the API.
      (this.client as unknown as { api: { rq: { defaults: { baseURL: string } } } }).api.rq.defaults.baseURL = apiUrl;
    }
  }

  async createOrder(input: {
    amount_paise: number;
    currency: string;
    receipt: string;
    notes?: Record<string, string>;
  }) {
    const order = await this.client.orders.create({
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
