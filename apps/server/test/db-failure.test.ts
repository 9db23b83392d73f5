import { afterAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { createTestApp, PASSWORD } from './helpers';

/** A failed query never leaves the database unusable, and a database that cannot answer is a 503. */
describe('database failures', () => {
  const apps: Awaited<ReturnType<typeof createTestApp>>[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close().catch(() => {});
  });

  it('a transaction that fails mid-batch (a constraint violation) leaves the next requests and logins working', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    apps.push(t);
    const other = await t.createUser({ role: 'user' });
    await expect(
      t.deps.db.transaction(async (tx) => {
        await tx.insert(users).values({
          slug: 'batch-1',
          first_name: 'A',
          last_name: 'B',
          email: 'batch-1@x.test',
          password_hash: 'x',
          roles: ['user'],
          user_type: 2,
        });
        // the same e-mail again: a unique violation in the middle of the batch
        await tx.insert(users).values({
          slug: 'batch-2',
          first_name: 'A',
          last_name: 'B',
          email: 'batch-1@x.test',
          password_hash: 'x',
          roles: ['user'],
          user_type: 2,
        });
      }),
    ).rejects.toThrow();
    const login = await t.post('login', { email: other.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect((await t.post('lpu/get-trainings', {}, login.body.success.token)).status).toBe(200);
  });

  it('an authenticated call while the database cannot answer is 503 with Retry-After, not 401', async () => {
    const t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    apps.push(t);
    const { token } = await t.loginAs({ role: 'user' });
    await t.deps.database.close();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lpu/get-trainings',
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toEqual({ message: 'Service temporarily unavailable.', code: 'service_unavailable' });
  });
});
