import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { trainings } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { whenDatabaseReady } from '../../platform/http/database-ready';

/** How often the mark looks for trainings whose end date has passed. */
export const MARK_PAST_EVERY_MS = 60_000;

/**
 * Marks the trainings whose end date has passed (`past`, decision 0049). A write of end_date is
 * marked by the table's trigger; this is for time passing. Idempotent and safe from several
 * instances at once; reads never depend on it being recent (they also check end_date).
 */
export async function markPastTrainings(deps: Pick<Deps, 'db'>): Promise<number> {
  const marked = await deps.db
    .update(trainings)
    .set({ past: true })
    .where(and(eq(trainings.past, false), lt(trainings.end_date, sql`now()`)))
    .returning({ id: trainings.id });
  return marked.length;
}

/** Runs the mark when the server is ready and every MARK_PAST_EVERY_MS after; a failure waits for the next. */
export function scheduleMarkPast(app: FastifyInstance, deps: Deps): void {
  let timer: NodeJS.Timeout | undefined;
  const mark = () =>
    markPastTrainings(deps).catch((e: unknown) => app.log.warn({ err: e }, 'marking ended trainings failed'));
  whenDatabaseReady(app, async () => {
    void mark();
    timer = setInterval(() => void mark(), MARK_PAST_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
