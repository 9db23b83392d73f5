import { inArray, sql } from 'drizzle-orm';
import { jobs } from '../../db/schema';
import type { Deps } from '../deps';

/**
 * Durable background jobs in the `jobs` table (same database, PGlite or PostgreSQL). A request
 * enqueues and returns at once; the runner claims due jobs with FOR UPDATE SKIP LOCKED (so several
 * server processes never run the same job), retries failures with exponential backoff and gives up
 * after MAX_ATTEMPTS.
 */
export const MAX_ATTEMPTS = 5;
/** How long a claimed job may run before another runner may take it over (the process died). */
const LEASE_MS = 5 * 60_000;
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

interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
}

async function claim(deps: Deps, limit: number): Promise<ClaimedJob[]> {
  const leaseEnd = new Date(Date.now() + LEASE_MS);
  const result = await deps.db.execute(sql`
    update ${jobs} set status = 'running', attempts = ${jobs.attempts} + 1, run_at = ${leaseEnd.toISOString()}::timestamptz
    where ${jobs.id} in (
      select id from ${jobs}
      where status in ('queued', 'running') and run_at <= now()
      order by run_at, id
      limit ${limit}
      for update skip locked
    )
    returning id, kind, payload, attempts`);
  const rows = (result as unknown as { rows: ClaimedJob[] }).rows;
  return rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }));
}

async function runOne(deps: Deps, job: ClaimedJob): Promise<'done' | 'retry' | 'failed'> {
  try {
    const handler = handlers.get(job.kind);
    if (!handler) throw new Error(`no handler registered for job kind '${job.kind}'`);
    await handler(deps, job.payload ?? {});
    await deps.db.execute(
      sql`update ${jobs} set status = 'done', finished_at = now(), last_error = null where id = ${job.id}`,
    );
    return 'done';
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).slice(0, 2000);
    if (job.attempts >= MAX_ATTEMPTS) {
      await deps.db.execute(
        sql`update ${jobs} set status = 'failed', finished_at = now(), last_error = ${message} where id = ${job.id}`,
      );
      return 'failed';
    }
    const next = new Date(Date.now() + backoffMs(job.attempts));
    await deps.db.execute(
      sql`update ${jobs} set status = 'queued', run_at = ${next.toISOString()}::timestamptz, last_error = ${message} where id = ${job.id}`,
    );
    return 'retry';
  }
}

/** Claimed jobs not started: queued again, due now, the claim's attempt not counted. */
async function release(deps: Deps, left: ClaimedJob[]): Promise<void> {
  if (!left.length) return;
  await deps.db
    .update(jobs)
    .set({ status: 'queued', attempts: sql`${jobs.attempts} - 1`, run_at: new Date() })
    .where(
      inArray(
        jobs.id,
        left.map((j) => j.id),
      ),
    );
}

/**
 * Runs every job that is due now (in batches) and reports what happened; tests call this directly.
 * `stopping` is asked between jobs: once it says so, the job in hand has finished (the safe point),
 * the rest of the batch goes back to the queue for the next process, and nothing more is claimed.
 */
export async function runDueJobs(
  deps: Deps,
  opts: { stopping?: () => boolean } = {},
): Promise<{ done: number; retried: number; failed: number }> {
  const tally = { done: 0, retried: 0, failed: 0 };
  const stopping = opts.stopping ?? (() => false);
  for (;;) {
    if (stopping()) return tally;
    const batch = await claim(deps, BATCH);
    if (!batch.length) return tally;
    for (const [i, job] of batch.entries()) {
      if (stopping()) {
        await release(deps, batch.slice(i));
        return tally;
      }
      const outcome = await runOne(deps, job);
      if (outcome === 'done') tally.done++;
      else if (outcome === 'retry') tally.retried++;
      else tally.failed++;
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
