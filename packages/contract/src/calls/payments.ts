import { call } from '../api-base.js';
import type { Role } from '../roles.js';
import * as c from '../schemas/payments.js';

const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];

/** The cart, checkout, payments and VM billing (spec 01 §7, spec 02 §7 VM billing). */
export const PAYMENT_CALLS = {
  addCart: call(
    'add-cart',
    'public',
    'Add a course or certification to the cart (the account’s when signed in, else the device key’s); the price sent is ignored. 422 {type_id} when the signed-in caller already has the item.',
    c.addCartRequest,
    c.addCartResponse,
  ),
  showCart: call(
    'show-cart',
    'public',
    'The cart with current catalogue prices; lines the signed-in caller already has are flagged `owned` and left out of the total, which is exactly what checkout-cart charges.',
    c.showCartRequest,
    c.cartResponse,
  ),
  removeCart: call('remove-cart', 'public', 'Remove an item from the cart.', c.cartItemRequest, c.addCartResponse),
  mergeCart: call(
    'merge-cart',
    'authenticated',
    'Move the device key’s anonymous cart into the signed-in account’s cart (the client calls it right after login); duplicates are dropped.',
    c.mergeCartRequest,
    c.cartResponse,
  ),
  checkoutCart: call(
    'checkout-cart',
    'authenticated',
    'Create a gateway order for the cart total computed on the server (a second click reuses the pending order).',
    c.checkoutCartRequest,
    c.checkoutResponse,
  ),
  verifyPayment: call(
    'verify-payment',
    'authenticated',
    'The checkout’s signed callback: verify HMAC-SHA256(order_id|payment_id) and complete the purchase once.',
    c.verifyPaymentRequest,
    c.paymentResultResponse,
  ),
  paymentFailed: call(
    'payment-failed',
    'authenticated',
    'The checkout reported a failure: a pending payment of the caller becomes Failed; nothing is bought.',
    c.paymentFailedRequest,
    c.paymentResultResponse,
  ),
  myPayments: call(
    'my-payments',
    'authenticated',
    'The caller’s own purchases, paged (status 1 Success, 2 Failed, 3 Pending).',
    c.paymentHistoryRequest,
    c.paymentPage,
  ),
  myPurchases: call(
    'my-purchases',
    'authenticated',
    'What the caller bought (each item of their successful cart payments): when, the receipt, and the next step (the course to open, the certification’s exam page); paged. Only ever the caller’s own.',
    c.myPurchasesRequest,
    c.purchasePage,
  ),
  paymentReceipt: call(
    'payment-receipt',
    'authenticated',
    'The PDF receipt of a payment of the caller (or of the caller’s tenant for a VM bill).',
    c.paymentIdRequest,
    c.receiptFileResponse,
  ),
  testGatewayOrder: call(
    'test-gateway-order',
    'public',
    'The embedded test gateway: an order as its checkout page shows it.',
    c.testGatewayOrderRequest,
    c.testGatewayOrder,
  ),
  testGatewayPay: call(
    'test-gateway-pay',
    'public',
    'The embedded test gateway: Pay or Fail an order; answers the signed callback and sends the webhook.',
    c.testGatewayPayRequest,
    c.testGatewayPayResponse,
  ),
  vmPaymentData: call(
    'vm-payment-data',
    MANAGERS,
    'Unpaid VM usage of the caller’s tenant with users, and its total.',
    c.showCartRequest.partial(),
    c.vmPaymentDataResponse,
  ),
  vmCheckout: call(
    'vm-checkout',
    MANAGERS,
    'Create a gateway order for the tenant’s unpaid VM usage (422 when nothing is due).',
    c.showCartRequest.partial(),
    c.checkoutResponse,
  ),
  saveVmPaymentData: call(
    'save-vm-payment-data',
    MANAGERS,
    'Accept a verified VM bill payment: the usage rows of that order are marked paid exactly once.',
    c.saveVmPaymentRequest,
    c.paymentResultResponse,
  ),
  vmPaymentsHistory: call(
    'vm-payments-history',
    MANAGERS,
    'VM bill payments of the caller’s tenant, paged (status 1 Success, 2 Failed, 3 Pending).',
    c.paymentHistoryRequest,
    c.paymentPage,
  ),
  getBillingSettings: call(
    'get-billing-settings',
    MANAGERS,
    'The tenant’s GST rate and GSTIN for its receipts.',
    c.showCartRequest.partial(),
    c.billingSettings,
  ),
  saveBillingSettings: call(
    'save-billing-settings',
    MANAGERS,
    'Set the tenant’s GST rate (percent, included in prices) and GSTIN.',
    c.saveBillingSettingsRequest,
    c.billingSettings,
  ),
};
