import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certifications, courses } from '../src/db/schema';
import { makeCertification, makeCourse } from './catalog-fixtures';
import { createTestApp, PASSWORD, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

describe('cart', () => {
  it('an anonymous visitor adds under the device key; the client price is ignored', async () => {
    const course = await makeCourse(t, { amount_paise: 49_900 });
    const cert = await makeCertification(t, { cost_inr: 8_000.5 });
    const key = 'device-anon-1';
    const a = await t.post('add-cart', { type: 'is_course', type_id: course.id, price: 1, device_key: key });
    expect(a.status).toBe(200);
    expect(a.body.message).toBe('Item Added Into Cart!');
    const b = await t.post('add-cart', {
      type: 'is_certificate',
      type_id: String(cert.id),
      price: '1',
      device_key: key,
    });
    expect(b.body.message).toBe('Certification Added Into Cart!');
    // the same item twice stays one line
    await t.post('add-cart', { type: 'is_course', type_id: course.id, price: 1, device_key: key });
    const cart = await t.post('show-cart', { device_key: key });
    expect(cart.status).toBe(200);
    expect(cart.body).toMatchObject({ count: 2, total_paise: 49_900 + 800_050, total: 8_499.5 });
    expect(cart.body.list[0]).toMatchObject({ type: 'is_course', name: course.name, slug: course.slug, price: 499 });
    // another device sees nothing
    expect((await t.post('show-cart', { device_key: 'other-device' })).body).toMatchObject({ count: 0, list: [] });
    // the price shown is always the current one
    await t.deps.db.update(courses).set({ amount_paise: 59_900 }).where(eq(courses.id, course.id));
    expect((await t.post('show-cart', { device_key: key })).body.list[0].price_paise).toBe(59_900);
    // an item that left the catalogue disappears from the cart
    await t.deps.db.update(courses).set({ is_public: 0 }).where(eq(courses.id, course.id));
    expect((await t.post('show-cart', { device_key: key })).body.count).toBe(1);
  });

  it('422 per field, 404 for what is not for sale', async () => {
    const bad = await t.post('add-cart', { type: 'is_video', type_id: 'x', device_key: 'bad key!' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body).sort()).toEqual(['device_key', 'type', 'type_id']);
    expect((await t.post('add-cart', { type: 'is_course', type_id: 1 })).body).toEqual({
      device_key: ['The device key field is required.'],
    });
    expect((await t.post('add-cart', { type: 'is_course', type_id: 99_999, device_key: 'k' })).status).toBe(404);
    const priv = await makeCourse(t, { is_public: 0 });
    expect((await t.post('add-cart', { type: 'is_course', type_id: priv.id, device_key: 'k' })).status).toBe(404);
    expect((await t.post('add-cart', { type: 'is_course', type_id: 1, device_key: 'x'.repeat(100) })).status).toBe(404);
    expect((await t.post('add-cart', { type: 'is_course', type_id: 1, device_key: 'x'.repeat(101) })).status).toBe(422);
    // an empty cart without a key is simply empty
    expect((await t.post('show-cart')).body).toMatchObject({ count: 0, list: [], total: 0 });
  });

  it('remove an item; another cart’s item answers 404', async () => {
    const course = await makeCourse(t);
    await t.post('add-cart', { type: 'is_course', type_id: course.id, device_key: 'rm-1' });
    expect((await t.post('remove-cart', { type: 'is_course', type_id: course.id, device_key: 'rm-2' })).status).toBe(
      404,
    );
    const res = await t.post('remove-cart', { type: 'is_course', type_id: course.id, device_key: 'rm-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 0, message: MSG.itemRemovedFromCart });
  });

  it('sign-in merges the device cart into the account’s without duplicates', async () => {
    const c1 = await makeCourse(t);
    const c2 = await makeCourse(t);
    const cert = await makeCertification(t);
    const { token, user } = await t.loginAs();
    await t.post('add-cart', { type: 'is_course', type_id: c1.id }, token);
    const key = 'merge-device';
    await t.post('add-cart', { type: 'is_course', type_id: c1.id, device_key: key });
    await t.post('add-cart', { type: 'is_course', type_id: c2.id, device_key: key });
    await t.post('add-cart', { type: 'is_certificate', type_id: cert.id, device_key: key });
    expect((await t.post('merge-cart', { device_key: key })).status).toBe(401);
    const merged = await t.post('merge-cart', { device_key: key }, token);
    expect(merged.status).toBe(200);
    expect(merged.body.count).toBe(3);
    expect(merged.body.list.map((l: { type_id: number }) => l.type_id).sort()).toEqual([c1.id, c2.id, cert.id].sort());
    // the device cart is gone; merging again changes nothing
    expect((await t.post('show-cart', { device_key: key })).body.count).toBe(0);
    expect((await t.post('merge-cart', { device_key: key }, token)).body.count).toBe(3);
    // signed in, the account's cart is shown whatever key is sent
    expect((await t.post('show-cart', { device_key: 'whatever' }, token)).body.count).toBe(3);
    // signing in again (a new session) keeps the account's cart
    const again = await t.post('login', { email: user.email, password: PASSWORD, is_previous: true });
    expect((await t.post('show-cart', {}, again.body.success.token)).body.count).toBe(3);
    // a removed certification leaves the cart
    await t.deps.db.delete(certifications).where(eq(certifications.id, cert.id));
    expect((await t.post('show-cart', {}, again.body.success.token)).body.count).toBe(2);
  });
});
