import { and, eq, or, sql } from 'drizzle-orm';
import { jobs } from '../../db/schema';
import type { Deps } from '../deps';
import { asJob } from './mail-once';

/**
 * Durable background jobs in the `jobs` table (same database, PGlite or PostgreSQL). A request
 * enqueues and returns at once; the runner claims due jobs with FOR UPDATE SKIP LOCKED (so several
 * server processes never run the same job at once), retries failures with exponential backoff and
 * gives up after MAX_ATTEMPTS.
 *
 * A claim is a lease of JOB_LEASE_SECONDS (30 s) on the database's clock, renewed by the runner
 * every third of it while it holds the job: a job whose instance died is claimed by another one once
 * the lease has passed, within a minute. Each claim counts an attempt, and that count fences the
 * claim: a runner that lost its lease (paused past it, cut off from the database) cannot mark done a
 * job another runner has taken since. A job may therefore run twice; handlers are idempotent, and
 * the mails a job sends are recorded per job and not sent again (mail-once.ts).
 */
export const MAX_ATTEMPTS = 5;
const BATCH = 10;

export type JobHandler = (deps: Deps, payload: Record<string, unknown>) => Promise<void>;
const handlers = new Map<string, JobHandler>();

/** Handlers are registered by kind when a domain registers its routes. */
export function registerJobHandler(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

/** Delay before attempt n+1 after n failed attempts: 30 s, 2 min, 8 min, 32 min (capped at 1 h). */
export const backoffMs = (attempts: number): number => Math.min(30_000 * 4 ** Math.max(0, attempts - 1), 3600_000);

export async function enqueue(
  deps: Pick<Deps, 'db'>,
  kind: string,
  payload: Record<string, unknown>,
  opts: { runAt?: Date } = {},
): Promise<number> {
  const [row] = await deps.db
    .insert(jobs)
    .values({ kind, payload, run_at: opts.runAt ?? new Date() })
    .returning({ id: jobs.id });
  return row!.id;
}

export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  /** the attempt this claim counts, which fences it */
  attempts: number;
}

const leaseSeconds = (deps: Deps) => deps.config.JOB_LEASE_SECONDS;

/**
 * Claims up to `limit` due jobs (queued and due, or running with a lease that has passed); `kinds`
 * limits the claim to those kinds (a test runs the job under test and not another that falls due
 * meanwhile).
 */
export async function claimJobs(deps: Deps, limit: number, kinds?: readonly string[]): Promise<ClaimedJob[]> {
  const ofKinds = kinds
    ? sql` and kind in (${sql.join(
        kinds.map((k) => sql`${k}`),
        sql`, `,
      )})`
    : sql``;
  const result = await deps.db.execute(sql`
    update ${jobs} set status = 'running', attempts = ${jobs.attempts} + 1,
      run_at = now() + make_interval(secs => ${leaseSeconds(deps)})
    where ${jobs.id} in (
      select id from ${jobs}
      where status in ('queued', 'running') and run_at <= now()${ofKinds}
      order by run_at, id
      limit ${limit}
      for update skip locked
    )
    returning id, kind, payload, attempts`);
  const rows = (result as unknown as { rows: ClaimedJob[] }).rows;
  return rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }));
}

/** The row of this claim: still running under the attempt it counted. */
const held = (job: ClaimedJob) => and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.attempts, job.attempts));

/** Extends the lease of the jobs this runner holds (those another runner took are left alone). */
async function renew(deps: Deps, holding: ClaimedJob[]): Promise<void> {
  if (!holding.length) return;
  await deps.db
    .update(jobs)
    .set({ run_at: sql`now() + make_interval(secs => ${leaseSeconds(deps)})` })
    .where(or(...holding.map(held)));
}

async function runOne(deps: Deps, job: ClaimedJob): Promise<'done' | 'retry' | 'failed'> {
  try {
    const handler = handlers.get(job.kind);
    if (!handler) throw new Error(`no handler registered for job kind '${job.kind}'`);
    await asJob(job.id, () => handler(deps, job.payload ?? {}));
    await deps.db.update(jobs).set({ status: 'done', finished_at: new Date(), last_error: null }).where(held(job));
    return 'done';
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).slice(0, 2000);
    if (job.attempts >= MAX_ATTEMPTS) {
      await deps.db
        .update(jobs)
        .set({ status: 'failed', finished_at: new Date(), last_error: message })
        .where(held(job));
      return 'failed';
    }
    await deps.db
      .update(jobs)
      .set({ status: 'queued', run_at: new Date(Date.now() + backoffMs(job.attempts)), last_error: message })
      .where(held(job));
    return 'retry';
  }
}

/** Claimed jobs not started: queued again, due now, the claim's attempt not counted. */
async function release(deps: Deps, left: ClaimedJob[]): Promise<void> {
  if (!left.length) return;
  await deps.db
    .update(jobs)
    .set({ status: 'queued', attempts: sql`${jobs.attempts} - 1`, run_at: new Date() })
    .where(or(...left.map(held)));
}

/**
 * Runs every job that is due now (in batches) and reports what happened; tests call this directly.
 * `stopping` is asked between jobs: once it says so, the job in hand has finished (the safe point),
 * the rest of the batch goes back to the queue for the next process, and nothing more is claimed.
 * While a batch is in hand its leases are renewed every third of JOB_LEASE_SECONDS.
 */
export async function runDueJobs(
  deps: Deps,
  opts: { stopping?: () => boolean; kinds?: readonly string[] } = {},
): Promise<{ done: number; retried: number; failed: number }> {
  const tally = { done: 0, retried: 0, failed: 0 };
  const stopping = opts.stopping ?? (() => false);
  for (;;) {
    if (stopping()) return tally;
    const batch = await claimJobs(deps, BATCH, opts.kinds);
    if (!batch.length) return tally;
    const holding = new Set(batch);
    // a failed renewal (the database away) is tried again at the next beat; the lease covers two misses
    const beat = setInterval(
      () => void renew(deps, [...holding]).catch(() => undefined),
      (leaseSeconds(deps) * 1000) / 3,
    );
    beat.unref();
    try {
      for (const [i, job] of batch.entries()) {
        if (stopping()) {
          await release(deps, batch.slice(i));
          return tally;
        }
        const outcome = await runOne(deps, job);
        holding.delete(job);
        if (outcome === 'done') tally.done++;
        else if (outcome === 'retry') tally.retried++;
        else tally.failed++;
      }
    } finally {
      clearInterval(beat);
    }
  }
}

export interface JobRunner {
  /** Stops polling and waits for the job in hand to finish; the rest of its batch is queued again. */
  stop(): Promise<void>;
}

/** Polls for due jobs every `intervalMs` until stopped. Errors are logged, never thrown. */
export function startJobRunner(
  deps: Deps,
  opts: { intervalMs?: number; onError?: (e: unknown) => void } = {},
): JobRunner {
  const intervalMs = opts.intervalMs ?? 1000;
  const onError = opts.onError ?? ((e: unknown) => console.error('job runner:', e));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const tick = () => {
    current = runDueJobs(deps, { stopping: () => stopped })
      .then(() => undefined, onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
