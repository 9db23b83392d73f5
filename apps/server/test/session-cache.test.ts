import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisRealtime } from '../src/adapters/realtime';
import { buildApp } from '../src/app';
import { users } from '../src/db/schema';
import { openSession } from '../src/domains/auth/sessions';
import { createSessionCache } from '../src/platform/auth/session-cache';
import { recordQueries } from '../src/platform/db/query-observer';
import { createTestApp, freshDatabaseUrl, PASSWORD, type TestApp } from './helpers';
import { eventually, redisEnv, secondInstance } from './second-instance';

const env = {
  LOGIN_RATE_LIMIT: '1000',
  ...redisEnv(),
  // long enough that only an invalidation, never the TTL, can explain a refusal below
  SESSION_CACHE_SECONDS: '60',
  // the calls below read the database each time, so a call's statements show its session lookup
  ANSWER_CACHE_SECONDS: '0',
};

let t: TestApp;
/** a second instance on the same database and Redis, with a session cache of its own */
let second: FastifyInstance;
let closeSecond: () => Promise<void>;
let drop: () => Promise<void>;
let admin: string;

beforeAll(async () => {
  const db = await freshDatabaseUrl();
  drop = db.drop;
  t = await createTestApp(env, { databaseUrl: db.url });
  const other = await secondInstance(t, env, db.url, async (bus) => ({
    sessions: await createSessionCache({ ttlMs: 60_000, bus, onAccountWrite: null }),
  }));
  second = other.app;
  closeSecond = other.close;
  admin = (await t.loginAs({ role: 'admin' })).token;
});
afterAll(async () => {
  await closeSecond();
  await t.close();
  await drop();
});

async function call(app: FastifyInstance, path: string, token: string, body: object = {}) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

const refusedOn = (app: FastifyInstance, token: string) => async () =>
  (await call(app, 'change-password', token)).status === 401;

describe('session cache', () => {
  it('answers a repeated call without the session query', async () => {
    const a = await t.loginAs({ role: 'provider' });
    expect((await call(t.app, 'get-all-lp-users', a.token)).status).toBe(200);
    const { queries } = await recordQueries(() => call(t.app, 'get-all-lp-users', a.token));
    expect(queries.some((q) => q.includes('"sessions"'))).toBe(false);
    expect(queries.length).toBeGreaterThan(0);
  });

  it('refuses a logged-out session at once on this instance and on the other', async () => {
    const a = await t.loginAs({ role: 'provider' });
    // both instances have it in memory
    expect((await call(t.app, 'get-all-lp-users', a.token)).status).toBe(200);
    expect((await call(second, 'get-all-lp-users', a.token)).status).toBe(200);
    expect((await call(t.app, 'logout', a.token)).status).toBe(200);
    expect((await call(t.app, 'get-all-lp-users', a.token)).status).toBe(401);
    expect(await eventually(refusedOn(second, a.token))).toBe(true);
  });

  it('refuses a session revoked by a new login or by a password change, on both instances', async () => {
    const user = await t.createUser({ role: 'provider' });
    const login = async (app: FastifyInstance) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: PASSWORD, is_previous: true },
      });
      return res.json().success.token as string;
    };
    const old = await login(t.app);
    expect((await call(t.app, 'get-all-lp-users', old)).status).toBe(200);
    expect((await call(second, 'get-all-lp-users', old)).status).toBe(200);
    // signing in again (is_previous) revokes the old session everywhere
    const current = await login(t.app);
    expect((await call(t.app, 'get-all-lp-users', old)).status).toBe(401);
    expect(await eventually(refusedOn(second, old))).toBe(true);

    // a second device (opened directly: the login rule allows one), known to both instances
    const device = await openSession(t.deps.db, user.id, 1);
    for (const app of [t.app, second]) {
      expect((await call(app, 'get-all-lp-users', current)).status).toBe(200);
      expect((await call(app, 'get-all-lp-users', device)).status).toBe(200);
    }
    const changed = await call(t.app, 'change-password', current, {
      current_password: PASSWORD,
      password: 'Another@123',
      password_confirmation: 'Another@123',
    });
    expect(changed.status).toBe(200);
    // the session that changed the password stays; the other device is out on both instances
    expect((await call(t.app, 'get-all-lp-users', device)).status).toBe(401);
    expect(await eventually(refusedOn(second, device))).toBe(true);
    expect((await call(second, 'get-all-lp-users', current)).status).toBe(200);
  });

  it('refuses a deactivated account at once, on both instances', async () => {
    const org = await t.createOrganization();
    const member = await t.loginAs({ role: 'organization_user', organization_id: org.id });
    const user = await t.loginAs({ role: 'provider' });
    for (const app of [t.app, second]) {
      expect((await call(app, 'change-password', member.token)).status).toBe(422);
      expect((await call(app, 'get-all-lp-users', user.token)).status).toBe(200);
    }
    // the organization is switched off through the API (its sessions are revoked)
    expect((await call(t.app, 'org-status', admin, { org_id: org.id, status: 0 })).status).toBe(200);
    expect((await call(t.app, 'change-password', member.token)).status).toBe(401);
    expect(await eventually(refusedOn(second, member.token))).toBe(true);

    // an account switched off by a plain UPDATE, sessions left as they are: still refused everywhere
    await t.deps.db.update(users).set({ status: 0 }).where(eq(users.id, user.user.id));
    expect((await call(t.app, 'get-all-lp-users', user.token)).status).toBe(401);
    expect(await eventually(refusedOn(second, user.token))).toBe(true);
  });

  it('sees a role change at once', async () => {
    const a = await t.loginAs({ role: 'provider' });
    expect((await call(t.app, 'get-all-lp-users', a.token)).status).toBe(200);
    expect((await call(second, 'get-all-lp-users', a.token)).status).toBe(200);
    await t.deps.db
      .update(users)
      .set({ roles: ['user'] })
      .where(eq(users.id, a.user.id));
    expect((await call(t.app, 'get-all-lp-users', a.token)).status).toBe(403);
    expect(await eventually(async () => (await call(second, 'get-all-lp-users', a.token)).status === 403)).toBe(true);
  });

  it("never answers one tenant's call with another's data", async () => {
    const a = await t.loginAs({ role: 'provider', first_name: 'Alpha' });
    const b = await t.loginAs({ role: 'provider', first_name: 'Beta' });
    const learnerA = await t.createUser({ role: 'provider_user', provider_id: a.user.id, first_name: 'OnlyA' });
    const learnerB = await t.createUser({ role: 'provider_user', provider_id: b.user.id, first_name: 'OnlyB' });
    for (let round = 0; round < 3; round++) {
      for (const app of [t.app, second]) {
        const listA = await call(app, 'get-all-lp-users', a.token);
        const listB = await call(app, 'get-all-lp-users', b.token);
        expect(listA.body.list.map((u: { email: string }) => u.email)).toEqual([learnerA.email]);
        expect(listB.body.list.map((u: { email: string }) => u.email)).toEqual([learnerB.email]);
        expect((await call(app, 'current-token', a.token, { email: a.user.email })).body).toBe(a.token);
        expect((await call(app, 'current-token', b.token, { email: b.user.email })).body).toBe(b.token);
      }
    }
  });
});

describe('session cache without the bus', () => {
  it('heals a missed invalidation within the TTL', async () => {
    const a = await t.loginAs({ role: 'provider' });
    // an instance that hears nothing (its bus message was lost): only its short TTL helps
    const deaf = await createSessionCache({ ttlMs: 300, bus: null, onAccountWrite: null });
    const lonely = await buildApp({ ...t.deps, sessions: deaf });
    await lonely.ready();
    try {
      expect((await call(lonely, 'get-all-lp-users', a.token)).status).toBe(200);
      expect((await call(t.app, 'logout', a.token)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 350));
      expect((await call(lonely, 'get-all-lp-users', a.token)).status).toBe(401);
    } finally {
      await lonely.close();
      await deaf.close();
    }
  });

  it('keeps at most maxEntries sessions, dropping the oldest', async () => {
    const cache = await createSessionCache({ ttlMs: 60_000, maxEntries: 2, bus: null, onAccountWrite: null });
    const session = { user: (await t.createUser()) as never, sessionId: 1, expiresAt: new Date(Date.now() + 60_000) };
    let loads = 0;
    const load = async () => {
      loads++;
      return session;
    };
    await cache.resolve('a', load);
    await cache.resolve('b', load);
    await cache.resolve('c', load);
    expect(cache.size).toBe(2);
    await cache.resolve('c', load);
    expect(loads).toBe(3);
    await cache.resolve('a', load);
    expect(loads).toBe(4);
    await cache.close();
  });

  it('keeps nothing while it cannot hear the other instances (Redis down at start-up)', async () => {
    // nothing listens on port 1: the subscription fails, so another instance's logout would go unheard
    const bus = redisRealtime('redis://127.0.0.1:1', '');
    const cache = await createSessionCache({ ttlMs: 60_000, bus, onAccountWrite: null });
    const session = { user: (await t.createUser()) as never, sessionId: 1, expiresAt: new Date(Date.now() + 60_000) };
    let loads = 0;
    const load = async () => {
      loads++;
      return session;
    };
    try {
      await cache.resolve('a', load);
      await cache.resolve('a', load);
      expect(loads).toBe(2);
      expect(cache.size).toBe(0);
    } finally {
      await cache.close();
      await bus.close();
    }
  });
});
