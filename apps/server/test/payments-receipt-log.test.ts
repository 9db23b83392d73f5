import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCourse } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { TEST_SECRET } from './payments-support';

/** Every line the app logs, as pino's JSON objects. */
const lines: { level: number; msg?: string }[] = [];
const sink = new PassThrough();
let pending = '';
sink.on('data', (chunk: Buffer) => {
  pending += chunk.toString();
  const parts = pending.split('\n');
  pending = parts.pop()!;
  for (const part of parts) if (part.trim()) lines.push(JSON.parse(part));
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TEST_GATEWAY_SECRET: TEST_SECRET, LOG_LEVEL: 'info' }, { logStream: sink });
});
afterAll(() => t.close());

describe('downloading a payment receipt', () => {
  it('answers the PDF once and logs nothing at warning level or above (was "Reply was already sent")', async () => {
    const course = await makeCourse(t, { amount_paise: 49_900 });
    const { token } = await t.loginAs();
    await t.post('add-cart', { type: 'is_course', type_id: course.id }, token);
    const order = await t.post('checkout-cart', {}, token);
    const paid = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    const done = await t.post('verify-payment', paid.body, token);
    expect(done.status).toBe(200);
    const before = lines.length;
    const pdf = await t.app.inject({
      method: 'POST',
      url: '/api/payment-receipt',
      headers: { authorization: `Bearer ${token}` },
      payload: { id: done.body.payment.id },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // the request's own lines arrived (so the sink works); none of them warns (pino: 40 warn, 50 error)
    await new Promise((r) => setImmediate(r));
    const logged = lines.slice(before);
    expect(logged.some((l) => l.msg === 'request completed')).toBe(true);
    expect(logged.filter((l) => l.level >= 40)).toEqual([]);
  });
});
