import type { Config } from '../../platform/config';
import type { PaymentGateway } from '../../platform/ports/payments';
import type { SharedSecrets } from '../../platform/shared-secrets';
import { RazorpayGateway } from './razorpay-gateway';
import { TestGateway } from './test-gateway';

export type { GatewayEvent, PaymentGateway } from '../../platform/ports/payments';
export { hmacHex } from '../../platform/ports/payments';
export { RazorpayGateway } from './razorpay-gateway';
export { TestGateway } from './test-gateway';

/**
 * The gateway chosen by PAYMENT_GATEWAY, built once by the composition root (Deps.payments). The test
 * gateway signs with TEST_GATEWAY_SECRET, else the key every instance on the database shares (platform/shared-secrets.ts).
 */
export function paymentGateway(config: Config, secrets?: SharedSecrets): PaymentGateway {
  if (config.PAYMENT_GATEWAY === 'razorpay') {
    if (!config.RAZORPAY_KEY_ID || !config.RAZORPAY_KEY_SECRET || !config.RAZORPAY_WEBHOOK_SECRET) {
      throw new Error(
        'PAYMENT_GATEWAY=razorpay needs RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET.',
      );
    }
    return new RazorpayGateway(
      config.RAZORPAY_KEY_ID,
      config.RAZORPAY_KEY_SECRET,
      config.RAZORPAY_WEBHOOK_SECRET,
      config.RAZORPAY_API_URL,
    );
  }
  return new TestGateway(() => {
    if (config.TEST_GATEWAY_SECRET) return config.TEST_GATEWAY_SECRET;
    if (!secrets) throw new Error('The test gateway has no signing key: set TEST_GATEWAY_SECRET');
    return secrets.get('TEST_GATEWAY_SECRET');
  });
}
