import type { sessionBundleRequest } from '@trainlab/contract';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { syllabusTopics, trainingUsers, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalOver } from '../../platform/http/paging';
import { trainingForManager } from '../trainings/access';
import { resultsFor } from './results';

/**
 * /get-session-bundle: what a training achieved, in one place — per learner the minutes the server
 * measured in the conference, the pre and post percent and the gain (the same figures as the
 * results screen), and the training's recordings.
 */
export async function sessionBundle(deps: Deps, auth: AuthContext, q: z.output<typeof sessionBundleRequest>) {
  const training = await trainingForManager(deps, auth, q.slug);
  const window = pageWindow(q);
  const minutes = sql<number>`(select coalesce(sum(ta.minutes), 0)::int from training_attendances ta where ta.training_user_id = "training_users"."id")`;
  const where = and(
    eq(trainingUsers.training_id, training.id),
    searchWhere(q.search, [users.first_name, users.last_name, users.email]),
  );
  const rows = await deps.db
    .select({
      user_id: users.id,
      first_name: users.first_name,
      last_name: users.last_name,
      email: users.email,
      minutes,
      total: totalOver(),
    })
    .from(trainingUsers)
    .innerJoin(users, eq(users.id, trainingUsers.user_id))
    .where(where)
    .orderBy(...orderFor(q.sort, { first_name: users.first_name, email: users.email, minutes }, [], trainingUsers.id))
    .limit(window.limit)
    .offset(window.offset);
  const results = await resultsFor(deps, training.id, training.name);
  const scores = new Map(results.learners.map((l) => [l.user_id, l]));
  const page = await toPage(
    rows,
    window,
    ({ total: _total, first_name, last_name, ...r }) => {
      const s = scores.get(r.user_id);
      return {
        ...r,
        name: `${first_name} ${last_name}`.trim(),
        minutes: Number(r.minutes),
        pre_percent: s?.pre_percent ?? null,
        post_percent: s?.post_percent ?? null,
        gain: s?.gain ?? null,
      };
    },
    async () => {
      const [n] = await deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(trainingUsers)
        .innerJoin(users, eq(users.id, trainingUsers.user_id))
        .where(where);
      return Number(n?.n ?? 0);
    },
  );
  const topics = await deps.db
    .select({ id: syllabusTopics.id, topic: syllabusTopics.session_topic })
    .from(syllabusTopics)
    .where(and(eq(syllabusTopics.training_id, training.id), isNotNull(syllabusTopics.recording_url)))
    .orderBy(asc(syllabusTopics.start_time), asc(syllabusTopics.id));
  return {
    ...page,
    training_name: training.name,
    recordings: topics.map((t) => ({
      topic_id: t.id,
      topic: t.topic,
      page: `/recording/${Buffer.from(String(t.id)).toString('base64')}`,
    })),
  };
}
