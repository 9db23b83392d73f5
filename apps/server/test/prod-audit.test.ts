import { API, PAGING } from '@trainlab/contract';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../src/db/schema';
import { changedFields, pruneAudit, REDACTED } from '../src/platform/audit';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { makeTraining } from './trainings-fixtures';

let t: TestApp;
let admin: { token: string; id: number };
let providerA: { token: string; id: number };
let providerB: { token: string; id: number };
let orgOwner: { token: string; id: number; organizationId: number };

const lastRow = async () => (await t.deps.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0]!;
const rowsFor = async (token: string, body: Record<string, unknown> = {}) => t.post('get-audit-log', body, token);

beforeAll(async () => {
  // the client address comes from X-Forwarded-For only because this proxy setting says so
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', TRUST_PROXY: 'true', AUDIT_RETENTION_DAYS: '30' });
  const a = await t.loginAs({ role: 'admin' });
  admin = { token: a.token, id: a.user.id };
  const pa = await t.loginAs({ role: 'provider' });
  providerA = { token: pa.token, id: pa.user.id };
  const pb = await t.loginAs({ role: 'provider' });
  providerB = { token: pb.token, id: pb.user.id };
  const o = await orgWithOwner(t);
  orgOwner = { token: o.token, id: o.owner.id, organizationId: o.organization.id };
});
afterAll(() => t?.close());

describe('each audited call writes its row', () => {
  it('an admin approving an organization: actor, target, before/after and the forwarded client address', async () => {
    const pending = await t.createOrganization({ is_approved: 0 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/org-approved',
      headers: { authorization: `Bearer ${admin.token}`, 'x-forwarded-for': '203.0.113.7' },
      payload: { org_id: pending.id, is_approved: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await lastRow();
    expect(row).toMatchObject({
      actor_id: admin.id,
      actor_role: 'admin',
      action: 'org-approved',
      target_type: 'organization',
      target_id: String(pending.id),
      tenant_owner_id: null,
      tenant_organization_id: null,
      ip: '203.0.113.7',
    });
    expect(row.changes.is_approved).toEqual({ before: 0, after: 1 });
    // only the fields that changed
    expect(row.changes.name).toBeUndefined();
  });

  it('a provider creating and deleting a training: its tenant on the row, the deleted fields kept', async () => {
    const training = await makeTraining(t, providerA.token, { name: 'Audited Training' });
    const created = await lastRow();
    expect(created).toMatchObject({
      actor_id: providerA.id,
      actor_role: 'provider',
      action: 'create-training',
      target_type: 'training',
      target_id: String(training.id),
      tenant_owner_id: providerA.id,
    });
    expect(created.changes.name).toEqual({ before: null, after: 'Audited Training' });

    expect((await t.post('delete-trainings', { slug: training.slug }, providerA.token)).status).toBe(200);
    const deleted = await lastRow();
    expect(deleted).toMatchObject({ action: 'delete-trainings', target_id: String(training.id) });
    expect(deleted.changes.name).toEqual({ before: 'Audited Training', after: null });
  });

  it('an organization manager enrolling a learner and granting the certificate', async () => {
    const training = await makeTraining(t, orgOwner.token, { name: 'Org Training' });
    const add = await t.post(
      'lp/add-training-user',
      {
        first_name: 'Ena',
        last_name: 'Rolled',
        email: 'ena-rolled@example.test',
        mobile_no: '9876543210',
        slug: training.slug,
      },
      orgOwner.token,
    );
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect(await lastRow()).toMatchObject({
      action: 'lp/add-training-user',
      target_type: 'enrolment',
      actor_id: orgOwner.id,
      actor_role: 'organization',
      tenant_organization_id: orgOwner.organizationId,
    });
    const list = await t.post('lp/get-training-users', { slug: training.slug }, orgOwner.token);
    const enrolment = list.body.list[0];
    expect((await t.post('lpu/download-certificate-access', { id: enrolment.id }, orgOwner.token)).status).toBe(200);
    const row = await lastRow();
    expect(row).toMatchObject({ action: 'lpu/download-certificate-access', target_id: String(enrolment.id) });
    expect(Object.keys(row.changes).length).toBeGreaterThan(0);
  });

  it('a refused or invalid change writes nothing, and a learner’s own changes are not audited', async () => {
    const before = (await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;
    expect((await t.post('org-approved', { org_id: 999_999, is_approved: 1 }, admin.token)).status).toBe(404);
    expect((await t.post('org-approved', { org_id: 'x' }, admin.token)).status).toBe(422);
    expect((await t.post('delete-trainings', { slug: 'nope' }, providerB.token)).status).toBe(404);
    const after = (await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;
    expect(after).toBe(before);
  });
});

describe('secrets never reach a row', () => {
  it('an admin updating a trainer: the password hash is neither changed nor written', async () => {
    const trainer = await t.createUser({ role: 'trainer' });
    const res = await t.post(
      'update-trainer',
      { id: trainer.id, first_name: 'Renamed', last_name: 'Trainer', email: trainer.email, mobile_no: '9000000001' },
      admin.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await lastRow();
    expect(row).toMatchObject({ action: 'update-trainer', target_type: 'trainer', target_id: String(trainer.id) });
    expect(row.changes.first_name).toEqual({ before: trainer.first_name, after: 'Renamed' });
    const [stored] = await t.deps.db.select().from(users).where(eq(users.id, trainer.id));
    const everything = JSON.stringify(await t.deps.db.select().from(auditLog));
    expect(everything).not.toContain(stored!.password_hash);
  });

  it('changed secret fields are written as redacted, nested ones too', () => {
    const changes = changedFields(
      { password_hash: 'old', name: 'a', settings: { api_key: 'k1', color: 'red' } },
      { password_hash: 'new', name: 'b', settings: { api_key: 'k2', color: 'red' }, password: 'Plain#1', token: 't' },
    );
    expect(changes.password_hash).toEqual({ before: REDACTED, after: REDACTED });
    expect(changes.password).toEqual({ before: undefined, after: REDACTED });
    expect(changes.token).toEqual({ before: undefined, after: REDACTED });
    expect(changes.name).toEqual({ before: 'a', after: 'b' });
    // the only difference inside settings was a secret: after redaction nothing is left to show
    expect(changes.settings).toBeUndefined();
    expect(JSON.stringify(changes)).not.toMatch(/old|new|Plain#1|k1|k2/);
  });
});

describe('reading the trail', () => {
  it('401 without a session, 403 for roles that may not read it', async () => {
    await expectGuarded(
      t,
      ['get-audit-log', 'export-audit-log'],
      ['admin', 'provider', 'organization', 'org_subadmin'],
    );
  });

  it('a manager reads their own tenant’s rows only; the admin reads all', async () => {
    await makeTraining(t, providerB.token, { name: 'B Training' });
    const a = await rowsFor(providerA.token, { per_page: 100 });
    expect(a.status).toBe(200);
    expect(a.body.list.length).toBeGreaterThan(0);
    expect(a.body.list.every((r: { actor_id: number }) => r.actor_id === providerA.id)).toBe(true);
    const b = await rowsFor(providerB.token, { per_page: 100 });
    expect(b.body.list.map((r: { actor_id: number }) => r.actor_id)).toEqual([providerB.id]);
    const org = await rowsFor(orgOwner.token, { per_page: 100 });
    expect(org.body.list.every((r: { actor_id: number }) => r.actor_id === orgOwner.id)).toBe(true);
    // a sub-admin of another organization sees none of them
    const other = await orgWithOwner(t);
    const sub = await t.loginAs({ role: 'org_subadmin', organization_id: other.organization.id });
    expect((await rowsFor(sub.token)).body).toEqual({ list: [], total: 0, page: 1, per_page: PAGING.defaultPerPage });
    // a target id of another tenant is not there for this tenant, even asked by name
    const bRow = b.body.list[0];
    expect((await rowsFor(providerA.token, { target_id: bRow.target_id, target_type: 'training' })).body.total).toBe(0);
    const all = await rowsFor(admin.token, { per_page: 100 });
    const actors = new Set(all.body.list.map((r: { actor_id: number }) => r.actor_id));
    for (const id of [admin.id, providerA.id, providerB.id, orgOwner.id]) expect(actors.has(id)).toBe(true);
  });

  it('filters by actor, action, target and dates; pages at the limit and one past', async () => {
    const byAction = await rowsFor(admin.token, { action: 'create-training' });
    expect(byAction.body.total).toBeGreaterThanOrEqual(3);
    expect(byAction.body.list.every((r: { action: string }) => r.action === 'create-training')).toBe(true);
    const byActor = await rowsFor(admin.token, { actor: String(providerA.id) });
    expect(byActor.body.list.every((r: { actor_id: number }) => r.actor_id === providerA.id)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await rowsFor(admin.token, { from: today, to: today })).body.total).toBe(
      (await rowsFor(admin.token)).body.total,
    );
    expect((await rowsFor(admin.token, { from: tomorrow })).body.total).toBe(0);
    expect((await rowsFor(admin.token, { from: '2026-13-01' })).status).toBe(422);
    expect((await rowsFor(admin.token, { per_page: PAGING.maxPerPage })).status).toBe(200);
    expect((await rowsFor(admin.token, { per_page: PAGING.maxPerPage + 1 })).status).toBe(422);
    expect((await rowsFor(admin.token, { actor: 'x'.repeat(100) })).status).toBe(200);
    expect((await rowsFor(admin.token, { actor: 'x'.repeat(101) })).status).toBe(422);
    const one = await rowsFor(admin.token, { per_page: 1, page: 2, sort: 'at' });
    expect(one.body.list).toHaveLength(1);
  });

  it('exports the filtered rows as CSV, the tenant’s own only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/export-audit-log',
      headers: { authorization: `Bearer ${providerA.token}` },
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actor_id,actor_email,actor_role,action,target_type,target_id,changes,ip');
    expect(lines.length).toBe((await rowsFor(providerA.token, { per_page: 100 })).body.total + 1);
    // every exported row is provider A's own (third column: actor_id)
    expect(new Set(lines.slice(1).map((l) => l.split(',')[2]))).toEqual(new Set([String(providerA.id)]));
  });
});

describe('append-only and kept for the configured time', () => {
  it('no call changes or removes a row, and the database refuses an UPDATE', async () => {
    const auditPaths = Object.values(API)
      .map((c) => c.path)
      .filter((p) => p.includes('audit'));
    expect(auditPaths.sort()).toEqual(['export-audit-log', 'get-audit-log']);
    const row = await lastRow();
    await expect(t.deps.db.update(auditLog).set({ action: 'forged' }).where(eq(auditLog.id, row.id))).rejects.toThrow();
    expect((await lastRow()).action).toBe(row.action);
  });

  it('the retention job removes rows older than AUDIT_RETENTION_DAYS, keeps those at the limit', async () => {
    const now = new Date();
    const at = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await t.deps.db.insert(auditLog).values([
      { actor_role: 'admin', action: 'old-31', target_type: 'x', at: at(31) },
      { actor_role: 'admin', action: 'edge-30', target_type: 'x', at: new Date(at(30).getTime() + 1000) },
    ]);
    expect(await pruneAudit(t.deps, now)).toBe(1);
    const left = await t.deps.db.select({ action: auditLog.action }).from(auditLog);
    expect(left.map((r) => r.action)).toContain('edge-30');
    expect(left.map((r) => r.action)).not.toContain('old-31');
  });
});
