import { randomBytes } from 'node:crypto';
import type { Config } from '../../platform/config';
import type { PaymentGateway } from './gateway';
import { RazorpayGateway } from './razorpay-gateway';
import { TestGateway } from './test-gateway';

export type { GatewayEvent, PaymentGateway } from './gateway';
export { hmacHex } from './gateway';
export { RazorpayGateway } from './razorpay-gateway';
export { TestGateway } from './test-gateway';

const cache = new WeakMap<Config, PaymentGateway>();

/** The gateway chosen by PAYMENT_GATEWAY (one per configuration, so the test secret stays stable). */
export function paymentGateway(config: Config): PaymentGateway {
  let g = cache.get(config);
  if (!g) {
    if (config.PAYMENT_GATEWAY === 'razorpay') {
      if (!config.RAZORPAY_KEY_ID || !config.RAZORPAY_KEY_SECRET || !config.RAZORPAY_WEBHOOK_SECRET) {
        throw new Error(
          'PAYMENT_GATEWAY=razorpay needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET.',
        );
      }
      g = new RazorpayGateway(
        config.RAZORPAY_KEY_ID,
        config.RAZORPAY_KEY_SECRET,
        config.RAZORPAY_WEBHOOK_SECRET,
        config.RAZORPAY_API_URL,
      );
    } else {
      g = new TestGateway(config.TEST_GATEWAY_SECRET ?? randomBytes(24).toString('hex'));
    }
    cache.set(config, g);
  }
  return g;
}
