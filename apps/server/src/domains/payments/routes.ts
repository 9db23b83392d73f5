import { API } from '@trainlab/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type AuditTarget, audited } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { isManager, managerTenant } from '../../platform/tenancy';
import { addCart, mergeCart, removeCart, showCart } from './cart';
import './receipt-mail';
import { checkoutCart, reportFailure, verifyCallback } from './checkout';
import { getBillingSettings, myPayments, saveBillingSettings, visiblePayment, vmPaymentsHistory } from './history';
import { myPurchases } from './purchases';
import { saveVmPayment, vmCheckout, vmPaymentData } from './vm-billing';
import { handleWebhook, testGatewayOrder, testGatewayPay } from './webhook';

/** A VM bill checkout: the order it opened and what it asks for. */
const vmOrderTarget: AuditTarget = {
  type: 'payment',
  describe: (result) => {
    const order = result as { receipt_no: string; order_id: string; amount_paise: number };
    return {
      key: undefined,
      after: { receipt_no: order.receipt_no, order_id: order.order_id, amount_paise: order.amount_paise },
    };
  },
};

/** Sets the download's headers and returns its bytes: defineCall sends them (sending here too answered twice). */
function attachment(reply: FastifyReply, file: { bytes: Uint8Array; fileName: string }) {
  reply.type('application/pdf').header('content-disposition', `attachment; filename="${file.fileName}"`);
  return Buffer.from(file.bytes);
}

/** Cart, checkout, gateway callbacks and webhooks, VM billing, receipts (spec 01 §7 cart, spec 02 §7 VM billing). */
export function paymentRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.addCart, ({ auth, body }) => addCart(deps, auth, body));
  defineCall(app, deps, API.showCart, ({ auth, body }) => showCart(deps, auth, body.device_key));
  defineCall(app, deps, API.removeCart, ({ auth, body }) => removeCart(deps, auth, body));
  defineCall(app, deps, API.mergeCart, ({ auth, body }) => mergeCart(deps, auth, body.device_key));

  defineCall(app, deps, API.checkoutCart, ({ auth, body }) => checkoutCart(deps, auth, body.device_key));
  defineCall(app, deps, API.verifyPayment, ({ auth, body }) =>
    verifyCallback(deps, auth, isManager(auth) ? managerTenant(auth) : null, body),
  );
  defineCall(app, deps, API.paymentFailed, ({ auth, body }) =>
    reportFailure(deps, auth, isManager(auth) ? managerTenant(auth) : null, body),
  );
  defineCall(app, deps, API.myPayments, ({ auth, body }) => myPayments(deps, auth, body));
  defineCall(app, deps, API.myPurchases, ({ auth, body }) => myPurchases(deps, auth, body));
  defineCall(app, deps, API.paymentReceipt, async ({ auth, body, reply }) =>
    // pdf-lib and the fonts load with the first receipt, not at start
    attachment(reply, await (await import('./receipt')).receiptPdf(deps, await visiblePayment(deps, auth, body.id))),
  );

  defineCall(app, deps, API.testGatewayOrder, ({ body }) => testGatewayOrder(deps, body.order_id));
  defineCall(app, deps, API.testGatewayPay, ({ body }) => testGatewayPay(deps, body.order_id, body.outcome));

  defineCall(app, deps, API.vmPaymentData, ({ auth }) => vmPaymentData(deps, auth));
  defineCall(
    app,
    deps,
    API.vmCheckout,
    audited(API.vmCheckout, vmOrderTarget, ({ auth }) => vmCheckout(deps, auth)),
  );
  defineCall(
    app,
    deps,
    API.saveVmPaymentData,
    audited(API.saveVmPaymentData, { type: 'payment' }, ({ auth, body }) => saveVmPayment(deps, auth, body)),
  );
  defineCall(app, deps, API.vmPaymentsHistory, ({ auth, body }) => vmPaymentsHistory(deps, auth, body), {
    cache: { tables: ['payments', 'payment_items'] },
  });
  defineCall(app, deps, API.getBillingSettings, ({ auth }) => getBillingSettings(deps, auth));
  defineCall(
    app,
    deps,
    API.saveBillingSettings,
    audited(API.saveBillingSettings, { type: 'billing-settings' }, ({ auth, body }) =>
      saveBillingSettings(deps, auth, body),
    ),
  );

  // Gateway webhooks: outside /api (not a client call); the signature is over the raw body, so this
  // scope alone keeps the body as the exact string received.
  app.register(async (scope) => {
    scope.removeContentTypeParser(['application/json', 'text/plain']);
    scope.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { gateway: string } }>('/webhooks/payments/:gateway', async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const header = (name: string) => {
        const v = request.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const outcome = await handleWebhook(
        deps,
        request.params.gateway,
        raw,
        header('x-razorpay-signature'),
        header('x-razorpay-event-id'),
      );
      return reply.send({ status: outcome });
    });
  });
}
