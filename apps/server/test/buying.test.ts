import { randomBytes } from 'node:crypto';
import { MSG } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseEnrolments, courseModules, courseTopics } from '../src/db/schema';
import { makeCertification, makeCourse } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { TEST_SECRET } from './payments-support';

/**
 * The buying journey of issue 32: the course page, owned items refused or left out, the amount
 * asked equal to the amount shown, and 'My purchases' showing the caller's purchases only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TEST_GATEWAY_SECRET: TEST_SECRET, LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

/** Checkout, the test gateway's Pay and the signed callback: the cart is bought. */
async function buy(token: string) {
  const order = await t.post('checkout-cart', {}, token);
  expect(order.status).toBe(200);
  const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
  expect((await t.post('verify-payment', cb.body, token)).status).toBe(200);
  return order.body as { id: number; amount_paise: number; receipt_no: string };
}

/** POST with the body and a query string, as an attacker would try both. */
async function postWithQuery(path: string, query: string, body: unknown, token: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}?${query}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body as Record<string, unknown>,
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe('the course page', () => {
  it('shows a course for sale with its modules and topics, and whether the caller has it', async () => {
    const course = await makeCourse(t, { amount_paise: 129_950, description: 'Pods, services and Helm.' });
    const [m2] = await t.deps.db
      .insert(courseModules)
      .values({ course_id: course.id, name: 'Helm', position: 2 })
      .returning();
    const [m1] = await t.deps.db
      .insert(courseModules)
      .values({ course_id: course.id, name: 'Basics', position: 1 })
      .returning();
    const hex = () => randomBytes(4).toString('hex');
    await t.deps.db.insert(courseTopics).values([
      { slug: `t-${hex()}`, module_id: m1!.id, name: 'What is a pod', position: 1, duration_seconds: 300 },
      { slug: `t-${hex()}`, module_id: m1!.id, name: 'Services', position: 2, duration_seconds: null },
      { slug: `t-${hex()}`, module_id: m2!.id, name: 'Charts', position: 1, duration_seconds: 610 },
    ]);

    const res = await t.post('get-catalogue-course', { slug: course.slug });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: course.id,
      name: course.name,
      description: 'Pods, services and Helm.',
      amount: 1_299.5,
      amount_paise: 129_950,
      owned: false,
    });
    expect(res.body.modules).toEqual([
      {
        id: m1!.id,
        name: 'Basics',
        topics: [
          { name: 'What is a pod', duration_seconds: 300 },
          { name: 'Services', duration_seconds: null },
        ],
      },
      { id: m2!.id, name: 'Helm', topics: [{ name: 'Charts', duration_seconds: 610 }] },
    ]);
    // nothing of the videos travels to a visitor
    expect(JSON.stringify(res.body)).not.toMatch(/video|slug":"t-/);

    const { token, user } = await t.loginAs();
    expect((await t.post('get-catalogue-course', { slug: course.slug }, token)).body.owned).toBe(false);
    await t.deps.db.insert(courseEnrolments).values({ course_id: course.id, user_id: user.id, source: 'assigned' });
    expect((await t.post('get-catalogue-course', { slug: course.slug }, token)).body.owned).toBe(true);
  });

  it('a course not for sale, or unknown, is 404; a missing slug is 422', async () => {
    const hidden = await makeCourse(t, { is_public: 0 });
    expect((await t.post('get-catalogue-course', { slug: hidden.slug })).status).toBe(404);
    expect((await t.post('get-catalogue-course', { slug: 'no-such-course' })).status).toBe(404);
    const bad = await t.post('get-catalogue-course', {});
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body)).toEqual(['slug']);
  });
});

describe('owned items', () => {
  it('add-cart refuses a course or certification the buyer already has, with a 422 in plain English', async () => {
    const course = await makeCourse(t, { amount_paise: 49_900 });
    const cert = await makeCertification(t, { cost_inr: 1_299 });
    const { token } = await t.loginAs();
    await t.post('add-cart', { type: 'is_course', type_id: course.id }, token);
    await t.post('add-cart', { type: 'is_certificate', type_id: cert.id }, token);
    await buy(token);

    const again = await t.post('add-cart', { type: 'is_course', type_id: course.id, price: 1 }, token);
    expect(again).toEqual({ status: 422, body: { type_id: [MSG.alreadyOwned] } });
    const certAgain = await t.post('add-cart', { type: 'is_certificate', type_id: cert.id }, token);
    expect(certAgain).toEqual({ status: 422, body: { type_id: [MSG.alreadyOwned] } });
    expect((await t.post('show-cart', {}, token)).body).toMatchObject({ count: 0, total_paise: 0 });
  });

  it('an owned item that reaches the cart from the device is shown, flagged, left out of the total and not charged', async () => {
    const owned = await makeCourse(t, { amount_paise: 129_900 });
    const fresh = await makeCourse(t, { amount_paise: 49_900 });
    const { token, user } = await t.loginAs();
    await t.deps.db.insert(courseEnrolments).values({ course_id: owned.id, user_id: user.id, source: 'purchase' });
    // before signing in, the visitor (whose account owns one course) adds both under the device key
    const key = `device-${randomBytes(4).toString('hex')}`;
    await t.post('add-cart', { type: 'is_course', type_id: owned.id, device_key: key });
    await t.post('add-cart', { type: 'is_course', type_id: fresh.id, device_key: key });
    expect((await t.post('show-cart', { device_key: key })).body.total_paise).toBe(129_900 + 49_900);

    const merged = await t.post('merge-cart', { device_key: key }, token);
    expect(merged.status).toBe(200);
    expect(merged.body.count).toBe(2);
    expect(merged.body.list.map((l: { type_id: number; owned: boolean }) => [l.type_id, l.owned])).toEqual([
      [owned.id, true],
      [fresh.id, false],
    ]);
    const cart = (await t.post('show-cart', {}, token)).body;
    expect(cart).toMatchObject({ total_paise: 49_900, total: 499 });

    // the amount asked is the amount shown, to the paisa
    const order = await t.post('checkout-cart', {}, token);
    expect(order.body.amount_paise).toBe(cart.total_paise);
    const gateway = await t.post('test-gateway-order', { order_id: order.body.order_id });
    expect(gateway.body.amount_paise).toBe(cart.total_paise);
    expect(order.body.description).toBe(fresh.name);
  });

  it('a cart holding only owned items has nothing to pay', async () => {
    const owned = await makeCourse(t);
    const { token, user } = await t.loginAs();
    const key = `device-${randomBytes(4).toString('hex')}`;
    await t.post('add-cart', { type: 'is_course', type_id: owned.id, device_key: key });
    await t.deps.db.insert(courseEnrolments).values({ course_id: owned.id, user_id: user.id, source: 'assigned' });
    await t.post('merge-cart', { device_key: key }, token);
    expect((await t.post('show-cart', {}, token)).body).toMatchObject({ count: 1, total_paise: 0 });
    const res = await t.post('checkout-cart', {}, token);
    expect(res).toEqual({ status: 422, body: { cart: [MSG.cartEmptyCheckout] } });
  });
});

describe('my purchases', () => {
  it('lists exactly the caller’s bought items with their receipt and next step; never another buyer’s', async () => {
    const course = await makeCourse(t, { amount_paise: 49_900, name: 'Terraform Basics' });
    const cert = await makeCertification(t, { cost_inr: 8_000, name: 'Google Cloud Engineer' });
    const buyer = await t.loginAs();
    const other = await t.loginAs();
    expect((await t.post('my-purchases', {}, buyer.token)).body).toEqual({ list: [], total: 0, page: 1, per_page: 20 });

    await t.post('add-cart', { type: 'is_course', type_id: course.id }, buyer.token);
    await t.post('add-cart', { type: 'is_certificate', type_id: cert.id }, buyer.token);
    const paid = await buy(buyer.token);
    // the other buyer's purchase, and a failed attempt of the buyer, are not purchases of the buyer
    const otherCourse = await makeCourse(t, { name: 'Other buyer course' });
    await t.post('add-cart', { type: 'is_course', type_id: otherCourse.id }, other.token);
    await buy(other.token);
    const failedCourse = await makeCourse(t, { name: 'Declined course' });
    await t.post('add-cart', { type: 'is_course', type_id: failedCourse.id }, buyer.token);
    const declined = await t.post('checkout-cart', {}, buyer.token);
    await t.post('payment-failed', { razorpay_order_id: declined.body.order_id }, buyer.token);

    const mine = await t.post('my-purchases', { sort: 'name' }, buyer.token);
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBe(2);
    expect(mine.body.list).toMatchObject([
      {
        kind: 'certification',
        ref_id: cert.id,
        name: 'Google Cloud Engineer',
        amount: 8_000,
        amount_paise: 800_000,
        payment_id: paid.id,
        receipt_no: paid.receipt_no,
        course_slug: null,
      },
      {
        kind: 'course',
        ref_id: course.id,
        name: 'Terraform Basics',
        amount: 499,
        amount_paise: 49_900,
        payment_id: paid.id,
        receipt_no: paid.receipt_no,
        course_slug: course.slug,
        exam_link: null,
      },
    ]);
    expect(Date.parse(mine.body.list[0].bought_at)).toBeGreaterThan(Date.now() - 60_000);

    // the attacker's first move: another user's id in the body or the query string
    for (const res of [
      await t.post('my-purchases', { user_id: buyer.user.id }, other.token),
      await postWithQuery('my-purchases', `user_id=${buyer.user.id}`, { user_id: buyer.user.id }, other.token),
    ]) {
      expect(res.status).toBe(200);
      expect(res.body.list.map((p: { name: string }) => p.name)).toEqual(['Other buyer course']);
    }
    expect((await t.post('my-purchases', {})).status).toBe(401);
    // a search narrows to the caller's own rows only
    expect((await t.post('my-purchases', { search: 'Other buyer' }, buyer.token)).body.total).toBe(0);
  });
});

describe('get-home-trainings', () => {
  it('answers `list` (the courses) with `certifications` beside it, and `courses` as before', async () => {
    const course = await makeCourse(t, { name: 'Home list course' });
    const res = await t.post('get-home-trainings', {});
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.list)).toBe(true);
    expect(res.body.list).toEqual(res.body.courses);
    expect(Array.isArray(res.body.certifications)).toBe(true);
    // the first call of this app fills the 10 s cache, so the course made just before is in it
    expect(res.body.list.find((c: { id: number }) => c.id === course.id)).toMatchObject({
      slug: course.slug,
      amount_paise: course.amount_paise,
    });
  });
});

describe('GSTIN check character', () => {
  it('billing settings refuse a GSTIN whose check character is wrong (the trainer profile: trainers-data.test.ts)', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    const ok = await t.post('save-billing-settings', { gst_percent: 18, gstin: '27aapfu0939f1zv' }, provider.token);
    expect(ok).toEqual({ status: 200, body: { gst_percent: 18, gstin: '27AAPFU0939F1ZV' } });
    const wrong = await t.post('save-billing-settings', { gst_percent: 18, gstin: '27AAPFU0939F1ZW' }, provider.token);
    expect(wrong).toEqual({
      status: 422,
      body: { gstin: ['The gstin is not valid: check it for a mistyped character.'] },
    });
  });
});
