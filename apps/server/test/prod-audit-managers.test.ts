import { desc, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { REDACTED } from '../src/platform/audit';
import { assessedTraining, enrolledLearner, seedBank } from './assessments-fixtures';
import { courseWithModule } from './courses-support';
import type { TestApp } from './helpers';
import { orgWithOwner } from './org-fixtures';
import { startOidcIdp, type TestOidcIdp } from './sso-idps';
import { domainOf } from './sso-support';
import { trainerTestApp } from './trainers-support';
import { makeTraining } from './trainings-fixtures';

/**
 * Take calls, building and running tests, course authoring and single sign-on settings: each change a
 * tenant's manager makes writes one audit row with its actor, action and target, secrets redacted.
 */
let t: TestApp;
let cleanup: () => Promise<void>;
let provider: { token: string; id: number };
let idp: TestOidcIdp | undefined;

beforeAll(async () => {
  // the single sign-on case saves a test identity provider listening on 127.0.0.1
  ({ t, cleanup } = await trainerTestApp({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' }));
  const p = await t.loginAs({ role: 'provider' });
  provider = { token: p.token, id: p.user.id };
});
afterAll(async () => {
  await idp?.close();
  await cleanup();
});

const lastId = async () => (await t.deps.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0]?.id ?? 0;
const rowsAfter = (id: number) => t.deps.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(auditLog.id);

async function oneRow(call: () => Promise<{ status: number; body: unknown }>) {
  const before = await lastId();
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const rows = await rowsAfter(before);
  expect(rows).toHaveLength(1);
  return { row: rows[0]!, body: res.body as Record<string, unknown> };
}

const hoursAhead = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

describe('audit rows of managers’ other changes', () => {
  it('take calls: create and reschedule', async () => {
    const trainer = await t.loginAs({ role: 'trainer' });
    const training = await makeTraining(t, provider.token);
    const created = await oneRow(() =>
      t.post(
        'create-take-call',
        {
          title: 'Sound out',
          start: hoursAhead(2),
          end: hoursAhead(3),
          slug: training.slug,
          trainer_ids: [trainer.user.id],
        },
        provider.token,
      ),
    );
    expect(created.row).toMatchObject({
      actor_id: provider.id,
      actor_role: 'provider',
      tenant_owner_id: provider.id,
      action: 'create-take-call',
      target_type: 'take_call',
    });
    expect(created.row.changes).toMatchObject({ title: { after: 'Sound out' } });
    const list = await t.post('show-take-call', {}, provider.token);
    const id = list.body.list[0].id as number;
    const moved = await oneRow(() =>
      t.post(
        'reschedule-take-call',
        { id, title: 'Sound out again', start: hoursAhead(4), end: hoursAhead(5) },
        provider.token,
      ),
    );
    expect(moved.row).toMatchObject({
      action: 'reschedule-take-call',
      target_type: 'take_call',
      target_id: String(id),
    });
    expect(moved.row.changes).toMatchObject({ title: { before: 'Sound out', after: 'Sound out again' } });
  });

  it('tests: a pre-test built by hand, a time extension for a learner', async () => {
    const ids = await seedBank(t, provider.token, 1, 'Audit');
    const tr = await assessedTraining(t, provider.token);
    const built = await oneRow(() =>
      t.post(
        'add-random-questions',
        { minute: 15, type: 1, slug: tr.slug, question_ids: [ids.Beginner[0]!] },
        provider.token,
      ),
    );
    expect(built.row).toMatchObject({ action: 'add-random-questions', target_type: 'assessment', target_id: tr.slug });
    const learner = await enrolledLearner(t, tr.id);
    const extended = await oneRow(() =>
      t.post(
        'set-assessment-time-extension',
        { slug: tr.slug, user_id: learner.user.id, extra_percent: 50 },
        provider.token,
      ),
    );
    expect(extended.row).toMatchObject({ action: 'set-assessment-time-extension', target_id: tr.slug });
    expect(extended.row.changes).toMatchObject({ extra_percent: { after: 50 }, user_id: { after: learner.user.id } });
  });

  it('course authoring: a new module', async () => {
    const { token, user, courseId } = await courseWithModule(t);
    const made = await oneRow(() => t.post('create-module', { course_id: courseId, name: 'Networking' }, token));
    expect(made.row).toMatchObject({
      actor_id: user.id,
      action: 'create-module',
      target_type: 'course_module',
      target_id: String(made.body.id),
    });
  });

  it('single sign-on settings: the client secret is never written', async () => {
    const domain = domainOf('audit');
    const owner = await orgWithOwner(t, { org_domain: domain });
    idp = await startOidcIdp([`http://app.test/sso/oidc/${owner.organization.slug}/callback`], []);
    const saved = await oneRow(() =>
      t.post(
        'save-sso-settings',
        {
          protocol: 'oidc',
          domains: [domain],
          oidc_issuer: idp!.issuer,
          oidc_client_id: idp!.clientId,
          oidc_client_secret: idp!.clientSecret,
        },
        owner.token,
      ),
    );
    expect(saved.row).toMatchObject({
      actor_role: 'organization',
      tenant_organization_id: owner.organization.id,
      action: 'save-sso-settings',
      target_type: 'sso_settings',
    });
    expect(saved.row.changes).toMatchObject({
      oidc_client_secret: { after: REDACTED },
      oidc_client_id: { after: idp.clientId },
    });
    expect(JSON.stringify(saved.row)).not.toContain(idp.clientSecret);
  });
});
