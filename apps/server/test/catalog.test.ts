import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseEnrolments, courses } from '../src/db/schema';
import { makeCertification, makeCourse } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('catalogue', () => {
  it('/get-home-trainings: public paid courses of every tenant, most bought first, and the certifications', async () => {
    const org = await t.createOrganization();
    const a = await makeCourse(t, { name: 'Alpha Kubernetes' });
    const b = await makeCourse(t, {
      name: 'Beta Terraform',
      owner_user_id: null,
      ownerId: undefined,
      organization_id: org.id,
    });
    await t.deps.db.update(courses).set({ owner_user_id: null }).where(eq(courses.id, b.id));
    const hidden = await makeCourse(t, { name: 'Private course', is_public: 0 });
    const free = await makeCourse(t, { name: 'Free course', is_paid: 0, amount_paise: 0 });
    const buyer = await t.createUser();
    await t.deps.db.insert(courseEnrolments).values({ course_id: b.id, user_id: buyer.id, source: 'purchase' });
    // the count a paid enrolment keeps (payments/store.ts; tested in payments.test.ts)
    await t.deps.db.update(courses).set({ purchase_count: 1 }).where(eq(courses.id, b.id));
    const cert = await makeCertification(t, { name: 'AWS Solutions Architect', cost_inr: 12_345.5 });

    // an existing client posts it without a body
    const res = await t.app.inject({ method: 'POST', url: '/api/get-home-trainings' });
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    const names = body.courses.map((c: { name: string }) => c.name);
    expect(names[0]).toBe('Beta Terraform');
    expect(names).toContain('Alpha Kubernetes');
    expect(names).not.toContain(hidden.name);
    expect(names).not.toContain(free.name);
    const alpha = body.courses.find((c: { id: number }) => c.id === a.id);
    expect(alpha).toMatchObject({ slug: a.slug, amount: 499, amount_paise: 49_900 });
    expect(body.courses[0].offered_by).toBe(org.name);
    expect(body.certifications[0]).toMatchObject({ id: cert.id, certification_type: 'AWS', cost_inr: 12_345.5 });
    // the spec’s clients read `list` (the courses) with the certifications beside it
    expect(body.list).toEqual(body.courses);
    expect(body.list.map((c: { id: number }) => c.id)).toContain(a.id);
  });

  it('/search-by-courses: paged, searchable, price range in rupees, sortable', async () => {
    for (const [name, paise] of [
      ['Search Python', 10_000],
      ['Search Go', 20_000],
      ['Search Rust', 30_000],
    ] as const)
      await makeCourse(t, { name, amount_paise: paise });
    const page = await t.post('search-by-courses', { search: 'search', per_page: 2, sort: 'amount' });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(page.body.list.map((c: { name: string }) => c.name)).toEqual(['Search Python', 'Search Go']);
    const second = await t.post('search-by-courses', { search: 'search', per_page: 2, page: 2, sort: 'amount' });
    expect(second.body.list.map((c: { name: string }) => c.name)).toEqual(['Search Rust']);
    const ranged = await t.post('search-by-courses', { search: 'search', min_price: 200, max_price: 300 });
    expect(ranged.body.list.map((c: { name: string }) => c.name).sort()).toEqual(['Search Go', 'Search Rust']);
    expect((await t.post('search-by-courses', { sort: 'price' })).status).toBe(422);
    expect((await t.post('search-by-courses', { per_page: 101 })).status).toBe(422);
    expect((await t.post('search-by-courses', { per_page: 100 })).status).toBe(200);
    expect((await t.post('search-by-courses', { min_price: -1 })).status).toBe(422);
  });

  it('/search-by-certifications: type AWS by default, All, Google, level, price, search, paged', async () => {
    await makeCertification(t, {
      vendor: 'Google',
      name: 'Google Cloud Engineer',
      level: 'Intermediate',
      cost_inr: 15_000,
    });
    await makeCertification(t, { vendor: 'Microsoft', name: 'Azure Fundamentals', level: 'Beginner', cost_inr: 5_000 });
    await makeCertification(t, { vendor: 'AWS', name: 'AWS Developer', level: 'Intermediate', cost_inr: 9_000 });
    const def = await t.post('search-by-certifications', {});
    expect(def.status).toBe(200);
    expect(def.body.list.every((c: { certification_type: string }) => c.certification_type === 'AWS')).toBe(true);
    expect(def.body.total).toBe(2);
    const all = await t.post('search-by-certifications', { certification_type: 'All' });
    expect(all.body.total).toBe(4);
    const google = await t.post('search-by-certifications', { certification_type: 'Google' });
    expect(google.body.list.map((c: { name: string }) => c.name)).toEqual(['Google Cloud Engineer']);
    const level = await t.post('search-by-certifications', { certification_type: 'All', level: 'Intermediate' });
    expect(level.body.total).toBe(2);
    const cheap = await t.post('search-by-certifications', {
      certification_type: 'All',
      max_price: 9000,
      sort: '-cost_inr',
    });
    expect(cheap.body.list.map((c: { name: string }) => c.name)).toEqual(['AWS Developer', 'Azure Fundamentals']);
    const paged = await t.post('search-by-certifications', {
      certification_type: 'All',
      per_page: 1,
      page: 4,
      sort: 'name',
    });
    expect(paged.body).toMatchObject({ total: 4, page: 4, per_page: 1 });
    const past = await t.post('search-by-certifications', { certification_type: 'All', per_page: 1, page: 9 });
    expect(past.body).toMatchObject({ total: 4, list: [] });
    const search = await t.post('search-by-certifications', { certification_type: 'All', search: 'azure' });
    expect(search.body.list.map((c: { name: string }) => c.name)).toEqual(['Azure Fundamentals']);
    const bad = await t.post('search-by-certifications', { certification_type: 'IBM' });
    expect(bad.status).toBe(422);
    expect(bad.body.certification_type).toEqual([expect.any(String)]);
  });

  it('/get-certification-details answers the public details page', async () => {
    const cert = await makeCertification(t, { cost_inr: 7_000, cost_doller: 85 });
    const res = await t.post('get-certification-details', { id: cert.id });
    expect(res.status).toBe(200);
    expect(res.body.success).toMatchObject({ cost_inr: 7_000, cost_doller: 85 });
  });
});
