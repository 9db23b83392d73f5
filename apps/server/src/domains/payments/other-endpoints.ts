import { json, must, type OtherEndpoint } from '../../platform/http/other-endpoints';

/**
 * The payment gateway's webhook.
 * These endpoints' handlers speak HTTP directly, so this is their one description for the API document;
 * apps/server/src/other-endpoints.ts hands it, with the other domains', to platform/http/openapi.ts.
 */
export const PAYMENT_ENDPOINTS: readonly OtherEndpoint[] = [
  {
    path: '/webhooks/payments/{gateway}',
    methods: {
      post: {
        summary:
          'Payment gateway webhook: payment.captured, order.paid, payment.failed and refunds, each event handled once and in any order.',
        access: { who: 'The gateway, by the signature over the raw body', security: [{ webhookSignature: [] }] },
        params: { gateway: 'The configured gateway: razorpay, or test (the embedded test gateway).' },
        headers: {
          'X-Razorpay-Signature': must('HMAC-SHA256 (hex) of the raw body with the webhook secret.'),
          'X-Razorpay-Event-Id': 'The event id, for handling it once (else a hash of the body).',
        },
        body: {
          type: ['application/json', 'text/plain'],
          description: 'The gateway’s event, read as the exact bytes sent.',
          schema: { type: 'object', properties: { event: { type: 'string' }, payload: { type: 'object' } } },
        },
        responses: {
          200: json('{"status": "handled" | "duplicate" | "ignored"}.', {
            type: 'object',
            properties: { status: { enum: ['handled', 'duplicate', 'ignored'] } },
          }),
          400: json('Invalid signature, or a body that is not JSON.'),
          404: json('Not Found: not the configured gateway.'),
        },
      },
    },
  },
];
