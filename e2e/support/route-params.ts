import { type APIRequestContext, expect } from '@playwright/test';
import { DEMO_PASSWORD } from './session';

/** Values for a route's `:params`, keyed by `pattern` or by param name. */
export type ParamValues = Record<string, string>;

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post('/api/login', {
    data: { email, password: DEMO_PASSWORD, is_previous: true, is_sso: false },
  });
  expect(res.ok(), `login ${email}`).toBe(true);
  const { success } = (await res.json()) as { success: { token: string } };
  return async <T>(path: string, data: Record<string, unknown> = {}): Promise<T> => {
    const r = await request.post(`/api/${path}`, { data, headers: { Authorization: `Bearer ${success.token}` } });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as T;
  };
}

type List<T> = { list: T[] };

/**
 * Real ids of the demo data (apps/server/src/seed/demo.ts) for the route table's params, read through
 * the API as the provider and the admin. Call it before any page signs in: an API login ends the
 * account's other session. Params with no demo record (a take call, a bank detail, a recording) get
 * an id that does not exist, so their pages are checked in their not-found state.
 */
export async function demoParams(request: APIRequestContext): Promise<ParamValues> {
  const provider = await signIn(request, 'provider@demo.test');
  const [training] = (await provider<List<{ id: number; slug: string; link: string }>>('all-trainings')).list;
  const [course] = (await provider<List<{ slug: string }>>('get-courses')).list;
  const [topic] = course
    ? (await provider<List<{ tslug: string }>>('get-course-module-topic-list', { slug: course.slug })).list
    : [];
  const [vm] = (await provider<List<{ vm_name: string }>>('vm-list')).list;
  const [learner] = (await provider<List<{ slug: string }>>('get-all-lp-users')).list;
  const admin = await signIn(request, 'admin@demo.test');
  const [certification] = (await admin<List<{ id: number }>>('certification-list')).list;
  const [providerAccount] = (await admin<List<{ slug: string }>>('admin/get-users-list', { role: 'provider' })).list;
  // a course for sale, for its public page (the provider's first course may not be in the catalogue)
  const [forSale] = (await admin<List<{ slug: string }>>('search-by-courses')).list;
  if (!training || !course || !vm || !learner || !certification || !providerAccount || !forSale) {
    throw new Error('the demo data lacks a training, course, lab, learner, certification, provider or course for sale');
  }
  const missing = '999999';
  return {
    // by pattern, where one param name means different records on different routes
    '/certification-details/:id': String(certification.id),
    '/certification/edit/:id': String(certification.id),
    '/training/start/:id': String(training.id),
    '/training-attendance/:id': String(training.id),
    '/public/conference/:meetingId': training.link,
    '/course/:slug': course.slug,
    '/course-details/:slug': forSale.slug,
    '/course-view/:slug': course.slug,
    // the edit screen is a topic's (its video, captions and transcript); the demo courses have none yet
    '/edit-course/:slug': topic?.tslug ?? 'no-such-topic',
    '/course/assign-to-users/:slug': course.slug,
    '/course/assign-users-list/:slug': course.slug,
    '/update-user-profile/:slug': learner.slug,
    '/admin/learning-provider-users-list/:slug': providerAccount.slug,
    '/admin/organization-sso/:id': '1',
    // by name: the rest of the slugs are trainings', names are labs'
    slug: training.slug,
    name: vm.vm_name,
    i_t: 'not-a-reset-token',
    ref_no: 'NOT-A-CERTIFICATE',
    id: missing,
    trainer_id: missing,
    take_call_id: missing,
  };
}

/** A concrete path for a route pattern: each `:param` replaced by its demo value. */
export function fillParams(pattern: string, values: ParamValues): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[pattern] ?? values[name];
    if (value === undefined) throw new Error(`no demo value for :${name} of ${pattern}`);
    return encodeURIComponent(value);
  });
}
