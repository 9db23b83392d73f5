import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainings } from '../src/db/schema';
import { markPastTrainings } from '../src/domains/trainings/past';
import { createTestApp, type TestApp } from './helpers';
import { inDays, makeTraining } from './trainings-fixtures';

/**
 * The `past` mark (decision 0049): true once a training's end date has passed, never before; the
 * upcoming list's index leaves marked trainings out, and the lists stay right between two marks.
 */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  token = (await t.loginAs({ role: 'provider' })).token;
});
afterAll(() => t.close());

const pastOf = async (id: number) =>
  (await t.deps.db.select({ past: trainings.past }).from(trainings).where(eq(trainings.id, id)))[0]!.past;
const names = async (path: string) =>
  ((await t.post(path, { per_page: 100 }, token)).body.list as { name: string }[]).map((r) => r.name);

describe('trainings whose end date has passed', () => {
  it('a written end date marks the training at once, either way', async () => {
    const { id } = await makeTraining(t, token, { name: 'Moved about' });
    expect(await pastOf(id)).toBe(false);
    await t.deps.db
      .update(trainings)
      .set({ start_date: new Date(inDays(-3)), end_date: new Date(inDays(-1)) })
      .where(eq(trainings.id, id));
    expect(await pastOf(id)).toBe(true);
    expect(await names('all-trainings')).not.toContain('Moved about');
    expect(await names('completed-trainings')).toContain('Moved about');
    // moved back into the future: unmarked, upcoming again
    await t.deps.db
      .update(trainings)
      .set({ start_date: new Date(inDays(1)), end_date: new Date(inDays(2)) })
      .where(eq(trainings.id, id));
    expect(await pastOf(id)).toBe(false);
    expect(await names('all-trainings')).toContain('Moved about');
  });

  it('a training that ends while unmarked leaves the upcoming list at once; the periodic mark then marks it, once', async () => {
    const { id } = await makeTraining(t, token, { name: 'Ends soon' });
    const running = await makeTraining(t, token, { name: 'Running now' });
    // started yesterday, ends in 1.5 s; another started yesterday and ends tomorrow
    await t.deps.db.execute(
      sql`update trainings set start_date = now() - interval '1 day', end_date = now() + interval '1.5 seconds' where id = ${id}`,
    );
    await t.deps.db.execute(
      sql`update trainings set start_date = now() - interval '1 day', end_date = now() + interval '1 day' where id = ${running.id}`,
    );
    expect(await names('all-trainings')).toEqual(expect.arrayContaining(['Ends soon', 'Running now']));
    await new Promise((r) => setTimeout(r, 2_000));
    // not marked yet, but ended: the lists read end_date as well
    expect(await pastOf(id)).toBe(false);
    expect(await names('all-trainings')).not.toContain('Ends soon');
    expect(await names('completed-trainings')).toContain('Ends soon');
    expect(await markPastTrainings(t.deps)).toBe(1);
    expect(await pastOf(id)).toBe(true);
    expect(await markPastTrainings(t.deps)).toBe(0);
    // the running training is upcoming and unmarked; its total counts it
    expect(await pastOf(running.id)).toBe(false);
    const page = await t.post('all-trainings', {}, token);
    expect(page.body.list.map((r: { name: string }) => r.name)[0]).toBe('Running now');
    expect(page.body.total).toBe(page.body.list.length);
  });

  it('the upcoming count and the dashboard agree with the lists', async () => {
    const dashboard = await t.post('get-dashboard-data', {}, token);
    const upcoming = await t.post('all-trainings', { per_page: 100 }, token);
    const completed = await t.post('completed-trainings', { per_page: 100 }, token);
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.upcoming_trainings).toBe(upcoming.body.total);
    expect(dashboard.body.completed_trainings).toBe(completed.body.total);
  });
});
