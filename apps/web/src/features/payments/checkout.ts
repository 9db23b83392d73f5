import type { Checkout } from '@trainlab/contract';
import { apiPost } from '../../api/client';

export type CheckoutFor = 'cart' | 'vm';

/** The browser callback of a paid order goes to the server for verification. */
export function confirmPaid(
  purpose: CheckoutFor,
  cb: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string },
) {
  return purpose === 'vm'
    ? apiPost('save-vm-payment-data', {
        payment_id: cb.razorpay_payment_id,
        razorpay_order_id: cb.razorpay_order_id,
        razorpay_signature: cb.razorpay_signature,
      })
    : apiPost('verify-payment', cb);
}

interface RazorpayWindow {
  Razorpay?: new (opts: Record<string, unknown>) => { open(): void; on(event: string, fn: (r: unknown) => void): void };
}

function loadRazorpay(): Promise<void> {
  if ((window as unknown as RazorpayWindow).Razorpay) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = 'https://checkout.razorpay.com/v1/checkout.js';
    s.onload = () => resolve();
    s.onerror = () => reject(new Error('The payment window could not be loaded.'));
    document.head.appendChild(s);
  });
}

/**
 * Opens the gateway's checkout for an order the server made: the embedded test gateway's page, or
 * Razorpay Checkout (its script, loaded only when Razorpay is configured).
 */
export async function openCheckout(
  checkout: Checkout,
  purpose: CheckoutFor,
  navigate: (to: string) => void,
  done: (outcome: 'paid' | 'failed', paymentId?: number) => void,
) {
  if (checkout.gateway === 'test' && checkout.checkout_url) {
    navigate(`${checkout.checkout_url}&for=${purpose}`);
    return;
  }
  await loadRazorpay();
  const Rzp = (window as unknown as RazorpayWindow).Razorpay!;
  const rzp = new Rzp({
    key: checkout.key_id,
    amount: checkout.amount_paise,
    currency: checkout.currency,
    order_id: checkout.order_id,
    description: checkout.description,
    handler: async (cb: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) => {
      try {
        const res = await confirmPaid(purpose, cb);
        done('paid', res.payment.id);
      } catch {
        done('failed');
      }
    },
  });
  rzp.on('payment.failed', async () => {
    await apiPost('payment-failed', { razorpay_order_id: checkout.order_id }).catch(() => undefined);
    done('failed');
  });
  rzp.open();
}
