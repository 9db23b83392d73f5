import { createHash, randomBytes } from 'node:crypto';
import { MSG, PAYMENT_STATUS } from '@trainlab/contract';
import { eq, sql } from 'drizzle-orm';
import { type GatewayEvent, TestGateway } from '../../adapters/payments';
import { paymentEvents, payments } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { AppError, invalidJson, notFound } from '../../platform/errors';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import { toRupees } from '../catalog/catalog';
import { complete, fail, paymentByOrder } from './store';

/**
 * Gateway webhooks (POST /webhooks/payments/{gateway}): the signature is checked over the raw body,
 * each event is handled once (by its event id) and in any order: a capture after a failure still
 * completes the payment, a failure after a capture changes nothing, refunds are added once per refund.
 */

export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';

export async function handleWebhook(
  deps: Deps,
  gatewayName: string,
  rawBody: string,
  signature: string | undefined,
  eventIdHeader: string | undefined,
): Promise<WebhookOutcome> {
  const gateway = deps.payments;
  if (gateway.name !== gatewayName) throw notFound();
  if (!gateway.verifyWebhook(rawBody, signature)) throw new AppError(400, 'Invalid signature.');
  let event: GatewayEvent;
  try {
    event = JSON.parse(rawBody) as GatewayEvent;
  } catch {
    throw invalidJson();
  }
  const eventId = eventIdHeader || `body:${createHash('sha256').update(rawBody).digest('hex')}`;
  return deps.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const orderId = event.payload?.payment?.entity?.order_id ?? event.payload?.order?.entity?.id ?? null;
    const fresh = await tx
      .insert(paymentEvents)
      .values({ gateway: gateway.name, event_id: eventId, type: String(event.event), gateway_order_id: orderId })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (fresh.length === 0) return 'duplicate';
    switch (event.event) {
      case 'payment.captured':
      case 'order.paid': {
        if (!orderId) return 'ignored';
        const p = await paymentByOrder(tx, orderId);
        if (!p || p.gateway !== gateway.name) return 'ignored';
        const paid =
          event.event === 'order.paid'
            ? (event.payload.order?.entity.amount_paid ?? event.payload.payment?.entity.amount)
            : event.payload.payment?.entity.amount;
        if (Number(paid) !== p.amount_paise) {
          // never complete a payment for another amount than the order's
          await tx
            .update(payments)
            .set({ failure_reason: `amount mismatch: ${paid} paise received for ${p.amount_paise}` })
            .where(eq(payments.id, p.id));
          return 'ignored';
        }
        await complete(tx, p.id, event.payload.payment?.entity.id ?? null);
        return 'handled';
      }
      case 'payment.failed': {
        if (!orderId) return 'ignored';
        const p = await paymentByOrder(tx, orderId);
        if (!p || p.gateway !== gateway.name) return 'ignored';
        await fail(tx, p.id, event.payload.payment?.entity.error_description ?? null);
        return 'handled';
      }
      case 'refund.created':
      case 'refund.processed':
      case 'payment.refunded': {
        const refund = event.payload.refund?.entity;
        if (!refund) return 'ignored';
        const once = await tx
          .insert(paymentEvents)
          .values({ gateway: gateway.name, event_id: `refund:${refund.id}`, type: 'refund', gateway_order_id: orderId })
          .onConflictDoNothing()
          .returning({ id: paymentEvents.id });
        if (once.length === 0) return 'duplicate';
        await tx
          .update(payments)
          .set({ refunded_paise: sql`${payments.refunded_paise} + ${Number(refund.amount)}`, updated_at: sql`now()` })
          .where(eq(payments.gateway_payment_id, refund.payment_id));
        return 'handled';
      }
      default:
        return 'ignored';
    }
  });
}

// ------------------------------------------------------------------------------------------------
// the embedded test gateway's own side: its checkout page's order view, Pay/Fail, and its webhooks

export const TEST_WEBHOOK_JOB = 'payments.test-webhook';

function testGateway(deps: Deps): TestGateway {
  const g = deps.payments;
  if (!(g instanceof TestGateway)) throw notFound();
  return g;
}

export async function testGatewayOrder(deps: Deps, orderId: string) {
  testGateway(deps);
  const p = await paymentByOrder(deps.db, orderId);
  if (!p || p.gateway !== 'test') throw notFound();
  return {
    order_id: p.gateway_order_id,
    amount: toRupees(p.amount_paise),
    amount_paise: p.amount_paise,
    currency: p.currency,
    description: `Receipt ${p.receipt_no}`,
    status: p.status,
  };
}

/** Pay or Fail on the test checkout page: the signed callback for the browser, the webhook queued. */
export async function testGatewayPay(deps: Deps, orderId: string, outcome: 'pay' | 'fail') {
  const g = testGateway(deps);
  const p = await paymentByOrder(deps.db, orderId);
  if (!p || p.gateway !== 'test') throw notFound();
  if (p.status === PAYMENT_STATUS.success) {
    throw new AppError(422, 'This order is already paid.', { order_id: ['This order is already paid.'] });
  }
  const paymentId = g.newPaymentId();
  const event: GatewayEvent =
    outcome === 'pay'
      ? {
          event: 'payment.captured',
          payload: {
            payment: { entity: { id: paymentId, order_id: orderId, amount: p.amount_paise, status: 'captured' } },
          },
        }
      : {
          event: 'payment.failed',
          payload: {
            payment: {
              entity: {
                id: paymentId,
                order_id: orderId,
                amount: p.amount_paise,
                status: 'failed',
                error_description: MSG.paymentFailed,
              },
            },
          },
        };
  const body = JSON.stringify(event);
  await enqueue(deps, TEST_WEBHOOK_JOB, {
    body,
    signature: g.signWebhook(body),
    event_id: `evt_test_${randomBytes(9).toString('hex')}`,
  });
  return {
    outcome,
    razorpay_order_id: orderId,
    razorpay_payment_id: paymentId,
    razorpay_signature: outcome === 'pay' ? g.sign(orderId, paymentId) : null,
  };
}

registerJobHandler(TEST_WEBHOOK_JOB, async (deps, payload) => {
  if (deps.config.PAYMENT_GATEWAY !== 'test') return;
  await handleWebhook(deps, 'test', String(payload.body), String(payload.signature), String(payload.event_id));
});
