import type { ListQuery, TRAINING_SORT_KEYS } from '@trainlab/contract';
import { and, asc, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { trainings } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import { cappedCount, countWhere, orderFor, pageWindow, searchWhere, toCountedPage } from '../../platform/http/paging';

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Counts computed per training row (enrolled learners, syllabus topics). */
// Subqueries name their tables explicitly: drizzle leaves columns unqualified in one-table selects.
export const trainingCounts = {
  total_participants: sql<number>`(select count(*)::int from training_users tu where tu.training_id = "trainings"."id")`,
  totalTopics: sql<number>`(select count(*)::int from syllabus_topics st where st.training_id = "trainings"."id")`,
};

/**
 * Upcoming: not completed and not ended. Completed is exactly the complement. `not past` adds
 * nothing to the meaning (past implies ended) but lets the planner read the upcoming list's partial
 * index, which holds no ended training (decision 0049).
 */
export const upcoming = (): SQL =>
  sql`${trainings.status} in (0, 1) and not ${trainings.past} and ${trainings.end_date} >= now()`;
export const completed = (): SQL => sql`(${trainings.status} = 2 or ${trainings.end_date} < now())`;

type Row = typeof trainings.$inferSelect & { total_participants: number; totalTopics: number };

export const toTrainingRow = (r: Row) => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  link: r.link,
  start_date: r.start_date.toISOString(),
  end_date: r.end_date.toISOString(),
  total_training_day: r.total_training_day,
  number_of_participants: r.number_of_participants,
  total_participants: Number(r.total_participants),
  is_public: r.is_public,
  status: r.status,
  totalTopics: Number(r.totalTopics),
  is_download_certificate: r.is_download_certificate,
  description: r.description,
  requirements: r.requirements,
  cost: Number(r.cost),
  pre_assessment: r.pre_assessment,
  post_assessment: r.post_assessment,
});

/**
 * What a list of trainings with their counts reads: the trainings, their learners and topics, and
 * the accounts (a removed account takes its enrolments with it).
 */
export const TRAINING_LIST_TABLES = ['trainings', 'training_users', 'syllabus_topics', 'users'] as const;

/** When the first of these trainings ends (ms epoch): an upcoming list holding it is wrong from then. */
export const firstEnd = (list: readonly { end_date: string }[]): number | undefined =>
  list.length ? Math.min(...list.map((t) => Date.parse(t.end_date))) : undefined;

/** Training rows with their counts, oldest start first (completed lists: latest end first). */
export async function trainingRows(db: Db, where: SQL, order: 'start' | 'end-desc' = 'start') {
  const rows = await db
    .select({ ...getTableColumns(trainings), ...trainingCounts })
    .from(trainings)
    .where(where)
    .orderBy(
      ...(order === 'start'
        ? [asc(trainings.start_date), asc(trainings.id)]
        : [sql`${trainings.end_date} desc`, sql`${trainings.id} desc`]),
    );
  return rows.map(toTrainingRow);
}

type TrainingSort = (typeof TRAINING_SORT_KEYS)[number];

/**
 * One page of training rows (the list convention). A plain LIMIT over the (status, start_date)
 * index: the per-row counts are worked out for the page's rows only, after the sort.
 */
export async function trainingPage(db: Db, where: SQL, q: ListQuery<TrainingSort>, order: 'start' | 'end-desc') {
  const window = pageWindow(q);
  const filter = and(where, searchWhere(q.search, [trainings.name, trainings.link]));
  const fallback =
    order === 'start' ? [asc(trainings.start_date)] : [sql`${trainings.end_date} desc`, sql`${trainings.id} desc`];
  const rows = await db
    .select({ ...getTableColumns(trainings), ...trainingCounts, capped_total: cappedCount(trainings, filter, window) })
    .from(trainings)
    .where(filter)
    .orderBy(
      ...orderFor(
        q.sort,
        {
          name: trainings.name,
          start_date: trainings.start_date,
          end_date: trainings.end_date,
          total_participants: trainingCounts.total_participants,
        },
        fallback,
        trainings.id,
      ),
    )
    .limit(window.limit)
    .offset(window.offset);
  return toCountedPage(rows, window, toTrainingRow, (limit) => countWhere(db, trainings, filter, limit));
}
