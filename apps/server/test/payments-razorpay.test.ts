import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentGateway } from '../src/adapters/payments';
import { courseEnrolments } from '../src/db/schema';
import { loadConfig } from '../src/platform/config';
import { makeCourse } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { captured, sign, webhook } from './payments-support';

const KEY_ID = 'rzp_test_key';
const KEY_SECRET = 'rzp_key_secret_123';
const WEBHOOK_SECRET = 'rzp_webhook_secret_456';

/** A local fake of the Razorpay Orders API: checks the SDK's basic auth and answers as Razorpay does. */
let fake: Server;
const seen: { auth?: string; body: Record<string, unknown> }[] = [];
let tamper = false;
let t: TestApp;

beforeAll(async () => {
  fake = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {};
      seen.push({ auth: req.headers.authorization, body });
      const expected = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`;
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== expected) {
        res.statusCode = 401;
        return res.end(JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } }));
      }
      if (req.method === 'POST' && req.url === '/v1/orders') {
        return res.end(
          JSON.stringify({
            id: `order_${seen.length}abc`,
            entity: 'order',
            amount: tamper ? 100 : body.amount,
            currency: body.currency,
            receipt: body.receipt,
            status: 'created',
          }),
        );
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const port = (fake.address() as AddressInfo).port;
  t = await createTestApp({
    PAYMENT_GATEWAY: 'razorpay',
    RAZORPAY_KEY_ID: KEY_ID,
    RAZORPAY_KEY_SECRET: KEY_SECRET,
    RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    RAZORPAY_API_URL: `http://127.0.0.1:${port}`,
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => fake.close(r));
});

describe('Razorpay engine (SDK against a local fake API)', () => {
  it('creates the order for the server’s amount in paise; verifies the checkout signature with the key secret', async () => {
    const course = await makeCourse(t, { amount_paise: 129_900 });
    const { token, user } = await t.loginAs();
    await t.post('add-cart', { type: 'is_course', type_id: course.id, price: 1 }, token);
    const order = await t.post('checkout-cart', {}, token);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      gateway: 'razorpay',
      key_id: KEY_ID,
      amount_paise: 129_900,
      checkout_url: null,
    });
    expect(seen.at(-1)!.body).toMatchObject({ amount: 129_900, currency: 'INR' });
    expect(order.body.order_id).toMatch(/^order_/);
    // the test gateway's calls do not exist with Razorpay
    expect((await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' })).status).toBe(404);

    const paymentId = 'pay_RZP123';
    const forged = await t.post(
      'verify-payment',
      {
        razorpay_order_id: order.body.order_id,
        razorpay_payment_id: paymentId,
        razorpay_signature: sign(WEBHOOK_SECRET, `${order.body.order_id}|${paymentId}`),
      },
      token,
    );
    expect(forged.status).toBe(422);
    const ok = await t.post(
      'verify-payment',
      {
        razorpay_order_id: order.body.order_id,
        razorpay_payment_id: paymentId,
        razorpay_signature: sign(KEY_SECRET, `${order.body.order_id}|${paymentId}`),
      },
      token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(MSG.paymentSuccess);
    const rows = await t.deps.db.select().from(courseEnrolments).where(eq(courseEnrolments.user_id, user.id));
    expect(rows).toMatchObject([{ course_id: course.id, source: 'purchase' }]);
  });

  it('webhook: X-Razorpay-Signature over the raw body (as sent, whitespace included), before the callback, replay-safe', async () => {
    const course = await makeCourse(t, { amount_paise: 50_000 });
    const { token, user } = await t.loginAs();
    await t.post('add-cart', { type: 'is_course', type_id: course.id }, token);
    const order = await t.post('checkout-cart', {}, token);
    const raw = JSON.stringify(captured(order.body.order_id, 'pay_WH1', 50_000), null, 2);
    // signed over a re-serialised body: refused
    const reserialised = sign(WEBHOOK_SECRET, JSON.stringify(JSON.parse(raw)));
    expect((await webhook(t, 'razorpay', null, { raw, signature: reserialised })).status).toBe(400);
    const hook = await webhook(t, 'razorpay', null, { raw, secret: WEBHOOK_SECRET, eventId: 'evt_rzp_1' });
    expect(hook).toMatchObject({ status: 200, body: { status: 'handled' } });
    const replay = await webhook(t, 'razorpay', null, { raw, secret: WEBHOOK_SECRET, eventId: 'evt_rzp_1' });
    expect(replay.body.status).toBe('duplicate');
    // order.paid for the same order under another event id: still one purchase
    const paid = await webhook(
      t,
      'razorpay',
      {
        event: 'order.paid',
        payload: { order: { entity: { id: order.body.order_id, amount: 50_000, amount_paid: 50_000 } } },
      },
      { secret: WEBHOOK_SECRET },
    );
    expect(paid.body.status).toBe('handled');
    const rows = await t.deps.db.select().from(courseEnrolments).where(eq(courseEnrolments.user_id, user.id));
    expect(rows).toHaveLength(1);
    expect((await t.post('my-payments', {}, token)).body.list[0]).toMatchObject({ status: 1, payment_id: 'pay_WH1' });
  });

  it('an order the gateway made for another amount is refused', async () => {
    const course = await makeCourse(t, { amount_paise: 70_000 });
    const { token } = await t.loginAs();
    await t.post('add-cart', { type: 'is_course', type_id: course.id }, token);
    tamper = true;
    const res = await t.post('checkout-cart', {}, token);
    tamper = false;
    expect(res.status).toBe(500);
  });

  it('PAYMENT_GATEWAY=razorpay without its keys stops with a clear message', () => {
    expect(() => paymentGateway(loadConfig({ PAYMENT_GATEWAY: 'razorpay' }))).toThrow(/RAZORPAY_KEY_ID/);
  });
});
