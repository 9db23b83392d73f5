import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, outbox } from '../src/db/schema';
import { claimJobs, enqueue, registerJobHandler, runDueJobs, startJobRunner } from '../src/platform/jobs';
import { makeVmUsage } from './catalog-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { TEST_SECRET } from './payments-support';

/**
 * A claim is a short lease renewed while the job runs: a job claimed by an instance that died is
 * run by another runner once the lease has passed (here 2 s; 30 s by default, so within a minute),
 * a job that runs longer than its lease is not taken over while its runner lives, and a job run
 * twice sends its mail once.
 */
const LEASE_SECONDS = 2;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    JOB_LEASE_SECONDS: String(LEASE_SECONDS),
    TEST_GATEWAY_SECRET: TEST_SECRET,
  });
});
afterAll(() => t.close());

const job = async (id: number) => (await t.deps.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await sleep(100);
  }
  throw new Error(`not within ${ms} ms`);
}

describe('job leases', () => {
  it('a job claimed by an instance that died (its lease never renewed) is run by another runner once the lease passes', async () => {
    const ran: number[] = [];
    const ranAt: number[] = [];
    registerJobHandler('test.orphaned', async (_deps, payload) => {
      ran.push(Number(payload.n));
      ranAt.push(Date.now());
    });
    const id = await enqueue(t.deps, 'test.orphaned', { n: 7 });
    // the dead instance's claim: the row is running under its lease, and nobody renews it
    const [claimed] = (await claimJobs(t.deps, 10)).filter((j) => j.id === id);
    expect(claimed).toMatchObject({ id, attempts: 1 });
    const lease = await job(id);
    expect(lease.status).toBe('running');
    // the lease is the setting's length, on the database's clock
    expect(lease.run_at.getTime() - Date.now()).toBeLessThanOrEqual(LEASE_SECONDS * 1000 + 500);

    const runner = startJobRunner(t.deps, { intervalMs: 100 });
    try {
      const took = await waitFor(async () => (await job(id)).status === 'done', 60_000);
      expect(took).toBeLessThan(LEASE_SECONDS * 1000 + 2000);
    } finally {
      await runner.stop();
    }
    expect(ran).toEqual([7]);
    // not before the lease had passed, while the claim might still have been alive. Compared with the
    // lease's end itself, not with a sleep from the runner's start: on a loaded machine the claim and
    // the runner's start can be over a second apart (a 1 s sleep then reached past the lease)
    expect(ranAt[0]).toBeGreaterThanOrEqual(lease.run_at.getTime());
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  // the suite's time limit, not a shorter one: at load 20 this test's 6 s of leases took 38 s in all
  it('a job running longer than its lease keeps it (the runner renews it): another runner does not start it again', async () => {
    let runs = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    registerJobHandler('test.long', async () => {
      runs++;
      await held;
    });
    const id = await enqueue(t.deps, 'test.long', {});
    const first = runDueJobs(t.deps);
    await waitFor(async () => runs === 1, 5000);
    // a second runner (another instance) polls all through three leases
    const other = startJobRunner(t.deps, { intervalMs: 100 });
    try {
      await sleep(LEASE_SECONDS * 3000);
      expect(runs).toBe(1);
      expect((await job(id)).status).toBe('running');
      release();
      expect(await first).toMatchObject({ done: 1 });
    } finally {
      await other.stop();
    }
    expect(runs).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a runner whose lease was taken over cannot mark the job: the claim that runs it now does', async () => {
    registerJobHandler('test.fenced', async () => {});
    const id = await enqueue(t.deps, 'test.fenced', {});
    const [stale] = (await claimJobs(t.deps, 10)).filter((j) => j.id === id);
    // the lease passes, another runner claims it (attempt 2) and is still at work
    await t.deps.db.execute(sql`update jobs set run_at = now() - interval '1 second' where id = ${id}`);
    const [current] = (await claimJobs(t.deps, 10)).filter((j) => j.id === id);
    expect(current!.attempts).toBe(2);
    // the first runner comes back and tries to finish its claim: nothing changes
    const finished = await t.deps.db
      .update(jobs)
      .set({ status: 'done' })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), eq(jobs.attempts, stale!.attempts)))
      .returning();
    expect(finished).toEqual([]);
    expect(await job(id)).toMatchObject({ status: 'running', attempts: 2 });
  });
});

describe('a job run twice does no harm', () => {
  it('the receipt mail of a paid order is sent once though its job runs again after a crash', async () => {
    const { token, user } = await t.loginAs({ role: 'provider' });
    await makeVmUsage(t, user.id, [2_000]);
    const order = await t.post('vm-checkout', {}, token);
    expect(order.status).toBe(200);
    const cb = await t.post('test-gateway-pay', { order_id: order.body.order_id, outcome: 'pay' });
    const paid = await t.post(
      'save-vm-payment-data',
      {
        payment_id: cb.body.razorpay_payment_id,
        razorpay_order_id: order.body.order_id,
        razorpay_signature: cb.body.razorpay_signature,
      },
      token,
    );
    expect(paid.status).toBe(200);
    const receipts = async () =>
      (await t.deps.db.select().from(outbox).where(eq(outbox.to, user.email))).filter((m) =>
        m.subject.startsWith('Your receipt'),
      );

    await runDueJobs(t.deps);
    expect(await receipts()).toHaveLength(1);
    const [receiptJob] = await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'payments.receipt'));
    expect(receiptJob!.status).toBe('done');
    // the runner sent the mail and died before marking the job done: its lease passes, the job runs again
    await t.deps.db.execute(
      sql`update jobs set status = 'running', finished_at = null, run_at = now() - interval '1 second' where id = ${receiptJob!.id}`,
    );
    // (other jobs of the order, the test gateway's webhook, may fall due in the same run)
    expect((await runDueJobs(t.deps)).done).toBeGreaterThanOrEqual(1);
    expect(await job(receiptJob!.id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await receipts()).toHaveLength(1);
  });

  it('a job that sends several mails sends, on its second run, only the ones it had not sent', async () => {
    let failAfterFirst = true;
    registerJobHandler('test.two-mails', async (deps) => {
      await deps.mail.send({ to: 'one@example.test', subject: 'Hello', text: 'first' });
      if (failAfterFirst) throw new Error('died between two mails');
      await deps.mail.send({ to: 'two@example.test', subject: 'Hello', text: 'second' });
    });
    const id = await enqueue(t.deps, 'test.two-mails', {});
    expect(await runDueJobs(t.deps, { kinds: ['test.two-mails'] })).toMatchObject({ retried: 1 });
    failAfterFirst = false;
    await t.deps.db.execute(sql`update jobs set run_at = now() - interval '1 second' where id = ${id}`);
    expect(await runDueJobs(t.deps, { kinds: ['test.two-mails'] })).toMatchObject({ done: 1 });
    const sent = await t.deps.db.select().from(outbox).where(eq(outbox.subject, 'Hello'));
    expect(sent.map((m) => m.to).sort()).toEqual(['one@example.test', 'two@example.test']);
  });
});
