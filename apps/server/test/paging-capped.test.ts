import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { COUNT_AHEAD } from '../src/platform/http/paging';
import { createTestApp, type TestApp } from './helpers';

/**
 * A hot list counts at most COUNT_AHEAD rows past the end of the page asked for (decision 0047):
 * exactly at that reach the total is exact; one row more and the answer says total_capped (there
 * are more than `total`). The audit trail stands for the hot lists: they share the count.
 */
let t: TestApp;
let provider: { token: string; user: { id: number } };
const REACH = 20 + COUNT_AHEAD;

async function seed(rows: number) {
  const now = Date.now();
  const values = Array.from({ length: rows }, (_, i) => ({
    at: new Date(now - i * 1000),
    actor_id: provider.user.id,
    actor_role: 'provider',
    tenant_owner_id: provider.user.id,
    action: '/api/bench',
    target_type: 'training',
    target_id: String(i),
  }));
  for (let i = 0; i < values.length; i += 500) await t.deps.db.insert(auditLog).values(values.slice(i, i + 500));
}
const count = async () => (await t.deps.db.$count(auditLog, undefined)) as number;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = await t.loginAs({ role: 'provider' });
});
afterAll(() => t.close());

const page = (body: Record<string, unknown> = {}) => t.post('get-audit-log', body, provider.token);

describe('a hot list counts so far past the page', () => {
  it('exactly at the reach (page end + COUNT_AHEAD): the exact total, not capped', async () => {
    const before = await page();
    await seed(REACH - before.body.total);
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.body.list).toHaveLength(20);
    expect(res.body.total).toBe(REACH);
    expect(res.body.total_capped).toBeUndefined();
    expect(await count()).toBeGreaterThanOrEqual(REACH);
  });

  it('one row past the reach: total is the reach and total_capped says there are more', async () => {
    await seed(1);
    const res = await page();
    expect(res.body).toMatchObject({ total: REACH, total_capped: true, page: 1 });
    expect(res.body.list).toHaveLength(20);
  });

  it('paging on reaches further: page 2 counts to its own end + COUNT_AHEAD, so the whole list is exact again', async () => {
    const res = await page({ page: 2 });
    expect(res.body.total).toBe(REACH + 1);
    expect(res.body.total_capped).toBeUndefined();
    // the last page of all holds the one row past the first reach
    const last = await page({ page: Math.ceil((REACH + 1) / 20) });
    expect(last.body.list).toHaveLength((REACH + 1) % 20 || 20);
    expect(last.body.total).toBe(REACH + 1);
  });
});
