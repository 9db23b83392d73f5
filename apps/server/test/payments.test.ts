import { MSG, PAYMENT_STATUS } from '@trainlab/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificationPurchases, courseEnrolments, courses, payments, vmUsages } from '../src/db/schema';
import { runDueJobs } from '../src/platform/jobs';
import { makeCertification, makeCourse, makeVmUsage } from './catalog-fixtures';
import { createTestApp, rolesExcept, type TestApp } from './helpers';
import { captured, sign, TEST_SECRET, webhook } from './payments-support';
import { pdfContent, sortedChars } from './pdf-extract';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TEST_GATEWAY_SECRET: TEST_SECRET, GST_PERCENT: '18', LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

const enrolments = (userId: number) =>
  t.deps.db.select().from(courseEnrolments).where(eq(courseEnrolments.user_id, userId));
const paymentOf = async (orderId: string) =>
  (await t.deps.db.select().from(payments).where(eq(payments.gateway_order_id, orderId)))[0]!;

async function buyerWithCart() {
  const course = await makeCourse(t, { amount_paise: 49_900 });
  const cert = await makeCertification(t, { cost_inr: 8_000 });
  const { token, user } = await t.loginAs();
  await t.post('add-cart', { type: 'is_course', type_id: course.id }, token);
  await t.post('add-cart', { type: 'is_certificate', type_id: cert.id }, token);
  return { course, cert, token, user };
}

/** The receipt PDF of a payment, as its payer downloads it. */
const receiptOf = (token: string, id: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payment-receipt',
    headers: { authorization: `Bearer ${token}` },
    payload: { id },
  });

describe('cart checkout with the test gateway', () => {
  it('401 when not signed in (the cart is kept); 422 for an empty cart', async () => {
    const course = await makeCourse(t);
    await t.post('add-cart', { type: 'is_course', type_id: course.id, device_key: 'keep-me' });
    expect((await t.post('checkout-cart', { device_key: 'keep-me' })).status).toBe(401);
    expect((await t.post('show-cart', { device_key: 'keep-me' })).body.count).toBe(1);
    const { token } = await t.loginAs();
    const empty = await t.post('checkout-cart', {}, token);
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ cart: [MSG.cartEmptyCheckout] });
  });

  it('order → checkout page → Pay → signed callback: enrols, records the certification, empties the cart, mails a receipt', async () => {
    const { course, cert, token, user } = await buyerWithCart();
    const order = await t.post('checkout-cart', {}, token);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({ gateway: 'test', amount_paise: 849_900, amount: 8_499, currency: 'INR' });
    expect(order.body.checkout_url).toBe(`/payment?order=${order.body.order_id}`);
    // a double click on Pay gets the same order
    const again = await t.post('checkout-cart', {}, token);
    expect(again.body.order_id).toBe(order.body.order_id);
    expect((await t.deps.db.select().from(payments).where(eq(payments.user_id, user.id))).length).toBe(1);

    const page = await t.post('test-gateway-order', { order_id: order.body.order_id });
    expect(page.body).toMatchObject({ amount_paise: 849_900, status: PAYMENT_STATUS.pending });
    const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    expect(cb.status).toBe(200);
    expect(cb.body.razorpay_signature).toBe(sign(TEST_SECRET, `${order.body.order_id}|${cb.body.razorpay_payment_id}`));

    const done = await t.post('verify-payment', cb.body, token);
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(MSG.paymentSuccess);
    expect(done.body.payment).toMatchObject({
      status: 1,
      amount_paise: 849_900,
      payment_id: cb.body.razorpay_payment_id,
    });
    expect(await enrolments(user.id)).toMatchObject([{ course_id: course.id, source: 'purchase' }]);
    const certs = await t.deps.db
      .select()
      .from(certificationPurchases)
      .where(eq(certificationPurchases.user_id, user.id));
    expect(certs).toMatchObject([{ certification_id: cert.id }]);
    expect((await t.post('show-cart', {}, token)).body.count).toBe(0);

    // the webhook arrives after the callback: nothing happens twice
    await runDueJobs(t.deps);
    expect(await enrolments(user.id)).toHaveLength(1);
    const p = await paymentOf(order.body.order_id);
    expect(p.tax_paise).toBe(Math.round((849_900 * 1800) / 11_800));
    const mails = (await t.outbox()).filter((m) => m.to === user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(p.receipt_no);

    // the callback replayed: still one purchase
    expect((await t.post('verify-payment', cb.body, token)).status).toBe(200);
    expect(await enrolments(user.id)).toHaveLength(1);
    // the catalogue's purchase counter rose once, with the enrolment
    const [bought] = await t.deps.db.select().from(courses).where(eq(courses.id, course.id));
    expect(bought!.purchase_count).toBe(1);

    const history = await t.post('my-payments', {}, token);
    expect(history.body).toMatchObject({ total: 1, list: [{ status: 1, receipt_no: p.receipt_no }] });
    const pdf = await receiptOf(token, p.id);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // someone else's receipt is not there
    const other = await t.loginAs();
    expect((await t.post('payment-receipt', { id: p.id }, other.token)).status).toBe(404);
    expect((await t.post('verify-payment', cb.body, other.token)).status).toBe(404);
  });

  it('the receipt prints names and item titles in their own script, amounts with ₹', async () => {
    const course = await makeCourse(t, { amount_paise: 49_900, name: 'पायथन बेसिक्स — Python' });
    const { token } = await t.loginAs({ first_name: 'José', last_name: 'Łukasz शर्मा' });
    await t.post('add-cart', { type: 'is_course', type_id: course.id }, token);
    const order = await t.post('checkout-cart', {}, token);
    const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    expect((await t.post('verify-payment', cb.body, token)).status).toBe(200);
    const p = await paymentOf(order.body.order_id);
    const pdf = await receiptOf(token, p.id);
    expect(pdf.statusCode).toBe(200);
    const { spans, fonts } = await pdfContent(pdf.rawPayload);
    const reads = (text: string) => {
      const span = spans.find((s) => s.actual === text || s.actual.startsWith(text));
      expect(span, text).toBeDefined();
      expect(sortedChars(span!.glyphs), text).toBe(sortedChars(span!.actual));
    };
    reads('Billed to José Łukasz शर्मा <');
    reads('पायथन बेसिक्स — Python');
    reads('₹499.00');
    expect(fonts).toEqual(
      expect.arrayContaining(['Helvetica', 'NotoSansDevanagari-Regular', 'NotoSansDevanagari-Bold']),
    );
  });

  it('a forged signature pays nothing', async () => {
    const { token, user } = await buyerWithCart();
    const order = await t.post('checkout-cart', {}, token);
    const forged = {
      razorpay_order_id: order.body.order_id,
      razorpay_payment_id: 'pay_forged',
      razorpay_signature: sign('not-the-secret-at-all', `${order.body.order_id}|pay_forged`),
    };
    const res = await t.post('verify-payment', forged, token);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ razorpay_signature: [MSG.paymentNotVerified] });
    expect((await paymentOf(order.body.order_id)).status).toBe(PAYMENT_STATUS.pending);
    expect(await enrolments(user.id)).toHaveLength(0);
    // a forged webhook is refused too
    const hook = await webhook(t, 'test', captured(order.body.order_id, 'pay_x', 849_900), { secret: 'wrong-secret' });
    expect(hook.status).toBe(400);
    expect(await enrolments(user.id)).toHaveLength(0);
    expect((await t.post('verify-payment', {}, token)).body).toEqual({
      razorpay_order_id: [expect.any(String)],
      razorpay_payment_id: [expect.any(String)],
      razorpay_signature: [expect.any(String)],
    });
  });

  it('webhook before the callback, replayed webhook: one purchase, and the late callback still succeeds', async () => {
    const { token, user } = await buyerWithCart();
    const order = await t.post('checkout-cart', {}, token);
    const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    await runDueJobs(t.deps); // the webhook lands first
    expect((await paymentOf(order.body.order_id)).status).toBe(PAYMENT_STATUS.success);
    expect(await enrolments(user.id)).toHaveLength(1);
    const event = captured(order.body.order_id, cb.body.razorpay_payment_id, 849_900);
    const first = await webhook(t, 'test', event, { eventId: 'evt_replay' });
    const replay = await webhook(t, 'test', event, { eventId: 'evt_replay' });
    expect(first.body.status).toBe('handled');
    expect(replay.body.status).toBe('duplicate');
    const late = await t.post('verify-payment', cb.body, token);
    expect(late.body.payment.status).toBe(1);
    expect(await enrolments(user.id)).toHaveLength(1);
    await runDueJobs(t.deps);
    expect((await t.outbox()).filter((m) => m.to === user.email)).toHaveLength(1);
  });

  it('a webhook for a tampered amount completes nothing', async () => {
    const { token, user } = await buyerWithCart();
    const order = await t.post('checkout-cart', {}, token);
    const res = await webhook(t, 'test', captured(order.body.order_id, 'pay_cheap', 100));
    expect(res.body.status).toBe('ignored');
    const p = await paymentOf(order.body.order_id);
    expect(p.status).toBe(PAYMENT_STATUS.pending);
    expect(p.failure_reason).toContain('amount mismatch');
    expect(await enrolments(user.id)).toHaveLength(0);
  });

  it('a price changed between cart and checkout: the order is for the current price', async () => {
    const { course, token } = await buyerWithCart();
    const first = await t.post('checkout-cart', {}, token);
    await t.deps.db.update(courses).set({ amount_paise: 59_900 }).where(eq(courses.id, course.id));
    const second = await t.post('checkout-cart', {}, token);
    expect(second.body.amount_paise).toBe(859_900);
    expect(second.body.order_id).not.toBe(first.body.order_id);
  });

  it('Fail: the payment shows Failed, nothing is bought, the cart stays; a later capture still completes it once', async () => {
    const { token, user } = await buyerWithCart();
    const order = await t.post('checkout-cart', {}, token);
    const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'fail' });
    expect(cb.body.razorpay_signature).toBeNull();
    const res = await t.post(
      'payment-failed',
      { razorpay_order_id: order.body.order_id, reason: 'card declined' },
      token,
    );
    expect(res.body.payment.status).toBe(PAYMENT_STATUS.failed);
    await runDueJobs(t.deps);
    expect((await paymentOf(order.body.order_id)).status).toBe(PAYMENT_STATUS.failed);
    expect(await enrolments(user.id)).toHaveLength(0);
    expect((await t.post('show-cart', {}, token)).body.count).toBe(2);
    expect((await t.post('my-payments', {}, token)).body.list[0].status).toBe(2);
    // a retry on the same order succeeds
    const retry = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    expect((await t.post('verify-payment', retry.body, token)).body.payment.status).toBe(1);
    // a payment.failed arriving late changes nothing
    await runDueJobs(t.deps);
    await webhook(t, 'test', {
      event: 'payment.failed',
      payload: { payment: { entity: { id: 'pay_late', order_id: order.body.order_id, amount: 849_900 } } },
    });
    expect((await paymentOf(order.body.order_id)).status).toBe(PAYMENT_STATUS.success);
    expect(await enrolments(user.id)).toHaveLength(1);
    expect((await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' })).status).toBe(422);
  });

  it('refunds are counted once per refund, in any order', async () => {
    const { token } = await buyerWithCart();
    const order = await t.post('checkout-cart', {}, token);
    const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    await t.post('verify-payment', cb.body, token);
    const refund = (event: string) => ({
      event,
      payload: { refund: { entity: { id: 'rfnd_1', payment_id: cb.body.razorpay_payment_id, amount: 10_000 } } },
    });
    await webhook(t, 'test', refund('refund.created'));
    await webhook(t, 'test', refund('refund.processed'));
    expect((await paymentOf(order.body.order_id)).refunded_paise).toBe(10_000);
  });

  it('the webhook of another gateway is 404; test gateway calls validate', async () => {
    expect((await webhook(t, 'razorpay', { event: 'x', payload: {} })).status).toBe(404);
    expect((await t.post('test-gateway-order', { order_id: 'order_nope' })).status).toBe(404);
    expect((await t.post('test-gateway-pay', { order_id: 'order_nope', outcome: 'maybe' })).body).toEqual({
      outcome: ['The selected outcome is invalid.'],
    });
  });
});

describe('VM billing', () => {
  it('access: managers only', async () => {
    for (const path of ['vm-payment-data', 'vm-checkout', 'vm-payments-history', 'get-billing-settings']) {
      expect((await t.post(path, {})).status).toBe(401);
      for (const role of rolesExcept('provider', 'organization', 'org_subadmin')) {
        const { token } = await t.loginAs({ role });
        expect((await t.post(path, {}, token)).status, `${path} as ${role}`).toBe(403);
      }
    }
  });

  it('real unpaid usage; paying marks exactly those rows once; history shows Success with a receipt', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    const learner = await t.createUser({ first_name: 'Lab' });
    const { usages } = await makeVmUsage(t, provider.user.id, [1_250, 3_000], learner.id);
    // another tenant's usage is not on this bill
    const other = await t.loginAs({ role: 'provider' });
    await makeVmUsage(t, other.user.id, [9_999]);

    const data = await t.post('vm-payment-data', {}, provider.token);
    expect(data.body).toMatchObject({ total_cost: 42.5, total_cost_paise: 4_250 });
    expect(data.body.list[0]).toMatchObject({
      used_min: 60,
      total_cost: 12.5,
      first_name: 'Lab',
      email: learner.email,
    });

    const order = await t.post('vm-checkout', {}, provider.token);
    expect(order.body.amount_paise).toBe(4_250);
    const twice = await t.post('vm-checkout', {}, provider.token);
    expect(twice.body.order_id).toBe(order.body.order_id);
    const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });

    // only a verified payment is accepted
    const unverified = await t.post(
      'save-vm-payment-data',
      { payment_id: cb.body.razorpay_payment_id, razorpay_order_id: order.body.order_id, razorpay_signature: 'x' },
      provider.token,
    );
    expect(unverified.status).toBe(422);
    const bare = await t.post('save-vm-payment-data', { payment_id: cb.body.razorpay_payment_id }, provider.token);
    expect(bare.status).toBe(422);
    const body = {
      payment_id: cb.body.razorpay_payment_id,
      razorpay_order_id: order.body.order_id,
      razorpay_signature: cb.body.razorpay_signature,
    };
    // another tenant cannot claim it
    expect((await t.post('save-vm-payment-data', body, other.token)).status).toBe(404);
    const saved = await t.post('save-vm-payment-data', body, provider.token);
    expect(saved.status).toBe(200);
    const paid = await t.deps.db.select().from(vmUsages).where(eq(vmUsages.payment_id, saved.body.payment.id));
    expect(paid.map((u) => u.id).sort()).toEqual(usages.map((u) => u.id).sort());
    expect((await t.post('vm-payment-data', {}, provider.token)).body.total_cost_paise).toBe(0);
    const none = await t.post('vm-checkout', {}, provider.token);
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ total_cost: [MSG.nothingToPay] });
    expect((await t.post('save-vm-payment-data', body, provider.token)).status).toBe(200);
    await runDueJobs(t.deps);

    const history = await t.post('vm-payments-history', {}, provider.token);
    expect(history.body).toMatchObject({ total: 1, list: [{ status: 1, amount: 42.5 }] });
    expect((await t.post('vm-payments-history', {}, other.token)).body.total).toBe(0);
    expect((await t.post('payment-receipt', { id: saved.body.payment.id }, provider.token)).status).toBe(200);
    expect((await t.post('payment-receipt', { id: saved.body.payment.id }, other.token)).status).toBe(404);
    expect((await t.post('vm-payments-history', { sort: 'bogus' }, provider.token)).status).toBe(422);
  });

  it('two orders racing for the same rows never pay a row twice', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    const { usages } = await makeVmUsage(t, provider.user.id, [500]);
    const first = await t.post('vm-checkout', {}, provider.token);
    await makeVmUsage(t, provider.user.id, [700]); // new usage: a second, different order
    const second = await t.post('vm-checkout', {}, provider.token);
    expect(second.body.order_id).not.toBe(first.body.order_id);
    for (const order of [second, first]) {
      const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
      await t.post(
        'save-vm-payment-data',
        {
          payment_id: cb.body.razorpay_payment_id,
          razorpay_order_id: order.body.order_id,
          razorpay_signature: cb.body.razorpay_signature,
        },
        provider.token,
      );
    }
    const [row] = await t.deps.db.select().from(vmUsages).where(eq(vmUsages.id, usages[0]!.id));
    expect(row!.payment_id).toBe(second.body.id);
    const firstPayment = await paymentOf(first.body.order_id);
    expect(firstPayment.failure_reason).toContain('refund due: 500 paise');
  });

  it('a failed VM payment shows Failed and leaves the usage unpaid', async () => {
    const org = await t.createOrganization();
    const orgAcc = await t.loginAs({ role: 'organization', organization_id: org.id });
    const sub = await t.loginAs({ role: 'org_subadmin', organization_id: org.id });
    const { vm } = await makeVmUsage(t, orgAcc.user.id, [2_000]);
    const { vms } = await import('../src/db/schema');
    await t.deps.db.update(vms).set({ owner_user_id: null, organization_id: org.id }).where(eq(vms.id, vm.id));
    const order = await t.post('vm-checkout', {}, sub.token);
    expect(order.body.amount_paise).toBe(2_000);
    await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'fail' });
    await runDueJobs(t.deps);
    const history = await t.post('vm-payments-history', {}, orgAcc.token);
    expect(history.body.list[0]).toMatchObject({ status: 2 });
    expect((await t.post('vm-payment-data', {}, orgAcc.token)).body.total_cost_paise).toBe(2_000);
    const unpaid = await t.deps.db
      .select()
      .from(vmUsages)
      .where(and(eq(vmUsages.vm_id, vm.id)));
    expect(unpaid.every((u) => u.payment_id === null)).toBe(true);
  });

  it('GST per tenant: saved, validated, used on the next order', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    expect((await t.post('get-billing-settings', {}, provider.token)).body).toEqual({ gst_percent: 18, gstin: null });
    expect((await t.post('save-billing-settings', { gst_percent: 101 }, provider.token)).status).toBe(422);
    expect((await t.post('save-billing-settings', { gst_percent: 100 }, provider.token)).status).toBe(200);
    expect((await t.post('save-billing-settings', { gst_percent: 12, gstin: 'short' }, provider.token)).status).toBe(
      422,
    );
    const ok = await t.post('save-billing-settings', { gst_percent: 12, gstin: '27AAEPM1234C1Z9' }, provider.token);
    expect(ok.body).toEqual({ gst_percent: 12, gstin: '27AAEPM1234C1Z9' });
    await makeVmUsage(t, provider.user.id, [11_200]);
    const order = await t.post('vm-checkout', {}, provider.token);
    const p = await paymentOf(order.body.order_id);
    expect(p).toMatchObject({ gst_bp: 1200, tax_paise: 1_200 });
  });
});
