import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema';
import { backoffMs, enqueue, MAX_ATTEMPTS, registerJobHandler, runDueJobs, startJobRunner } from '../src/platform/jobs';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const job = async (id: number) => (await t.deps.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const makeDue = (id: number) =>
  t.deps.db.execute(sql`update jobs set run_at = now() - interval '1 second' where id = ${id}`);

describe('durable jobs', () => {
  it('runs a due job once with its payload and marks it done', async () => {
    const seen: unknown[] = [];
    registerJobHandler('test.ok', async (_deps, payload) => {
      seen.push(payload);
    });
    const id = await enqueue(t.deps, 'test.ok', { n: 1, s: 'x' });
    expect((await job(id)).status).toBe('queued');
    expect(await runDueJobs(t.deps, { kinds: ['test.ok'] })).toMatchObject({ done: 1 });
    expect(seen).toEqual([{ n: 1, s: 'x' }]);
    const row = await job(id);
    expect(row).toMatchObject({ status: 'done', attempts: 1, last_error: null });
    expect(row.finished_at).toBeInstanceOf(Date);
    expect(await runDueJobs(t.deps, { kinds: ['test.ok'] })).toEqual({ done: 0, retried: 0, failed: 0 });
    expect(seen).toHaveLength(1);
  });

  it('does not run a job before its run_at', async () => {
    let runs = 0;
    registerJobHandler('test.later', async () => {
      runs++;
    });
    const id = await enqueue(t.deps, 'test.later', {}, { runAt: new Date(Date.now() + 60_000) });
    await runDueJobs(t.deps);
    expect(runs).toBe(0);
    await makeDue(id);
    await runDueJobs(t.deps);
    expect(runs).toBe(1);
  });

  it('retries a failing job with growing backoff and fails it after the last attempt', async () => {
    let runs = 0;
    registerJobHandler('test.fail', async () => {
      runs++;
      throw new Error(`boom ${runs}`);
    });
    const id = await enqueue(t.deps, 'test.fail', {});
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const before = Date.now();
      expect(await runDueJobs(t.deps, { kinds: ['test.fail'] })).toMatchObject({ retried: 1 });
      const row = await job(id);
      expect(row).toMatchObject({ status: 'queued', attempts: attempt, last_error: `boom ${attempt}` });
      expect(row.run_at.getTime()).toBeGreaterThanOrEqual(before + backoffMs(attempt) - 1000);
      // not due yet: nothing runs
      expect(await runDueJobs(t.deps, { kinds: ['test.fail'] })).toEqual({ done: 0, retried: 0, failed: 0 });
      await makeDue(id);
    }
    expect(await runDueJobs(t.deps, { kinds: ['test.fail'] })).toMatchObject({ failed: 1 });
    const row = await job(id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: `boom ${MAX_ATTEMPTS}` });
    expect(row.finished_at).toBeInstanceOf(Date);
    await makeDue(id);
    expect(await runDueJobs(t.deps, { kinds: ['test.fail'] })).toEqual({ done: 0, retried: 0, failed: 0 });
    expect(runs).toBe(MAX_ATTEMPTS);
    expect(backoffMs(1)).toBeLessThan(backoffMs(2));
  });

  it('a job of an unknown kind is retried (another process may know it), with the reason kept', async () => {
    const id = await enqueue(t.deps, 'test.nobody', {});
    await runDueJobs(t.deps);
    expect(await job(id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect((await job(id)).last_error).toContain("no handler registered for job kind 'test.nobody'");
  });

  it('a running job whose lease expired (the process died) is claimed again', async () => {
    let runs = 0;
    registerJobHandler('test.orphan', async () => {
      runs++;
    });
    const id = await enqueue(t.deps, 'test.orphan', {});
    await t.deps.db.execute(
      sql`update jobs set status = 'running', attempts = 1, run_at = now() + interval '5 minutes' where id = ${id}`,
    );
    await runDueJobs(t.deps);
    expect(runs).toBe(0);
    await makeDue(id);
    await runDueJobs(t.deps);
    expect(runs).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('a run limited to some kinds leaves the other due jobs queued for the next run', async () => {
    const ran: string[] = [];
    registerJobHandler('test.mine', async () => {
      ran.push('mine');
    });
    registerJobHandler('test.other', async () => {
      ran.push('other');
    });
    const other = await enqueue(t.deps, 'test.other', {});
    const mine = await enqueue(t.deps, 'test.mine', {});
    expect(await runDueJobs(t.deps, { kinds: ['test.mine'] })).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(ran).toEqual(['mine']);
    expect((await job(mine)).status).toBe('done');
    expect((await job(other)).status).toBe('queued');
    expect(await runDueJobs(t.deps, { kinds: ['test.other'] })).toEqual({ done: 1, retried: 0, failed: 0 });
    expect(ran).toEqual(['mine', 'other']);
  });

  it('two runners in parallel never run the same job twice (FOR UPDATE SKIP LOCKED)', async () => {
    const counts = new Map<number, number>();
    registerJobHandler('test.parallel', async (_deps, payload) => {
      await new Promise((r) => setTimeout(r, 2));
      const n = Number(payload.n);
      counts.set(n, (counts.get(n) ?? 0) + 1);
    });
    for (let n = 0; n < 30; n++) await enqueue(t.deps, 'test.parallel', { n });
    const only = { kinds: ['test.parallel'] };
    const results = await Promise.all([runDueJobs(t.deps, only), runDueJobs(t.deps, only), runDueJobs(t.deps, only)]);
    expect(results.reduce((s, r) => s + r.done, 0)).toBe(30);
    expect(counts.size).toBe(30);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });

  it('startJobRunner works the queue in the background and stops cleanly', async () => {
    let runs = 0;
    registerJobHandler('test.background', async () => {
      runs++;
    });
    const runner = startJobRunner(t.deps, { intervalMs: 20 });
    await enqueue(t.deps, 'test.background', {});
    await enqueue(t.deps, 'test.background', {});
    const deadline = Date.now() + 5000;
    while (runs < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await runner.stop();
    expect(runs).toBe(2);
    // stopped: a new job stays queued
    const id = await enqueue(t.deps, 'test.background', {});
    await new Promise((r) => setTimeout(r, 100));
    expect((await job(id)).status).toBe('queued');
  });

  it('stopping waits for the job in hand only: the rest of its batch is queued again, unclaimed', async () => {
    let runs = 0;
    let stopped: Promise<void> | undefined;
    let runner: ReturnType<typeof startJobRunner> | undefined;
    let finished = false;
    registerJobHandler('test.safe-point', async () => {
      runs++;
      // the signal arrives while this job runs: it still finishes
      stopped ??= runner!.stop();
      await new Promise((r) => setTimeout(r, 100));
      finished = true;
    });
    const ids = [
      await enqueue(t.deps, 'test.safe-point', { n: 1 }),
      await enqueue(t.deps, 'test.safe-point', { n: 2 }),
      await enqueue(t.deps, 'test.safe-point', { n: 3 }),
    ];
    runner = startJobRunner(t.deps, { intervalMs: 20 });
    const deadline = Date.now() + 5000;
    while (!stopped && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await stopped;
    expect(finished).toBe(true);
    expect(runs).toBe(1);
    const states = await Promise.all(ids.map(job));
    expect(states.map((j) => j.status).sort()).toEqual(['done', 'queued', 'queued']);
    // released, not failed: the attempt they were claimed for is not counted, and they are due now
    const released = states.filter((j) => j.status === 'queued');
    expect(released.map((j) => j.attempts)).toEqual([0, 0]);
    expect(released.every((j) => j.run_at.getTime() <= Date.now())).toBe(true);
    // the next process runs them
    expect((await runDueJobs(t.deps)).done).toBeGreaterThanOrEqual(2);
    expect(runs).toBe(3);
  });
});
