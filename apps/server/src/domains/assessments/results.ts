import { MSG } from '@trainlab/contract';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { assessmentAnswers, assessmentAttempts, assessments, questions, trainingUsers, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { trainingForManager } from '../trainings/access';
import { settleExpired } from './attempt';

const percentOf = (score: number, total: number) => (total > 0 ? Math.round((score * 100) / total) : 0);
const average = (values: number[]) =>
  values.length ? Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10) / 10 : null;

/**
 * Per learner the last submitted pre and post attempt, the gain (post percent − pre percent), the
 * class averages, and per question of each test how many answered it and how many got it right.
 */
export async function resultsFor(deps: Deps, trainingId: number, trainingName: string) {
  const tests = await deps.db.select().from(assessments).where(eq(assessments.training_id, trainingId));
  await settleExpired(
    deps.db,
    tests.map((t) => t.id),
  );
  const learners = await deps.db
    .select({ id: users.id, first_name: users.first_name, last_name: users.last_name, email: users.email })
    .from(trainingUsers)
    .innerJoin(users, eq(users.id, trainingUsers.user_id))
    .where(eq(trainingUsers.training_id, trainingId))
    .orderBy(asc(users.first_name), asc(users.last_name), asc(users.id));
  const typeOf = new Map(tests.map((t) => [t.id, t.type]));
  const attempts = tests.length
    ? await deps.db
        .select()
        .from(assessmentAttempts)
        .where(
          and(
            inArray(
              assessmentAttempts.assessment_id,
              tests.map((t) => t.id),
            ),
            sql`${assessmentAttempts.submitted_at} is not null`,
          ),
        )
        .orderBy(desc(assessmentAttempts.id))
    : [];
  // the latest submitted attempt per learner and type
  const last = new Map<string, (typeof attempts)[number]>();
  for (const a of attempts) {
    const key = `${a.user_id}:${typeOf.get(a.assessment_id)}`;
    if (!last.has(key)) last.set(key, a);
  }
  const rows = learners.map((l) => {
    const pre = last.get(`${l.id}:1`);
    const post = last.get(`${l.id}:2`);
    const prePercent = pre ? percentOf(pre.score ?? 0, pre.total) : null;
    const postPercent = post ? percentOf(post.score ?? 0, post.total) : null;
    return {
      user_id: l.id,
      name: `${l.first_name} ${l.last_name}`.trim(),
      email: l.email,
      pre_score: pre ? (pre.score ?? 0) : null,
      pre_total: pre ? pre.total : null,
      pre_percent: prePercent,
      post_score: post ? (post.score ?? 0) : null,
      post_total: post ? post.total : null,
      post_percent: postPercent,
      gain: prePercent !== null && postPercent !== null ? postPercent - prePercent : null,
    };
  });
  const counted = [...last.values()].map((a) => a.id);
  const perQuestion = counted.length
    ? await deps.db
        .select({
          assessment_id: assessmentAttempts.assessment_id,
          question_id: questions.id,
          question: questions.question,
          answered: sql<number>`count(*)::int`,
          right: sql<number>`count(*) filter (where ${assessmentAnswers.is_correct} = 1)::int`,
        })
        .from(assessmentAnswers)
        .innerJoin(assessmentAttempts, eq(assessmentAttempts.id, assessmentAnswers.attempt_id))
        .innerJoin(questions, eq(questions.id, assessmentAnswers.question_id))
        .where(inArray(assessmentAnswers.attempt_id, counted))
        .groupBy(assessmentAttempts.assessment_id, questions.id, questions.question)
        .orderBy(asc(assessmentAttempts.assessment_id), asc(questions.id))
    : [];
  const nums = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
  return {
    training_name: trainingName,
    learners: rows,
    averages: {
      pre: average(nums(rows.map((r) => r.pre_percent))),
      post: average(nums(rows.map((r) => r.post_percent))),
      gain: average(nums(rows.map((r) => r.gain))),
    },
    questions: perQuestion
      .map((q) => ({
        type: typeOf.get(q.assessment_id) ?? 0,
        question_id: q.question_id,
        question: q.question,
        answered: Number(q.answered),
        right: Number(q.right),
      }))
      .sort((a, b) => a.type - b.type || a.question_id - b.question_id),
  };
}

/** get-assessment-results */
export async function trainingResults(deps: Deps, auth: AuthContext, slug: string) {
  const training = await trainingForManager(deps, auth, slug);
  return resultsFor(deps, training.id, training.name);
}

/** export-assessment-results: the same figures as an .xlsx workbook. */
export async function exportResults(deps: Deps, auth: AuthContext, slug: string) {
  const training = await trainingForManager(deps, auth, slug);
  const r = await resultsFor(deps, training.id, training.name);
  // ExcelJS (30 MB) loads with the first export, not at start
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const learners = wb.addWorksheet('Learners');
  learners.columns = [
    { header: 'Name', key: 'name', width: 28 },
    { header: 'Email', key: 'email', width: 32 },
    { header: 'Pre score', key: 'pre_score', width: 11 },
    { header: 'Pre total', key: 'pre_total', width: 10 },
    { header: 'Pre %', key: 'pre_percent', width: 8 },
    { header: 'Post score', key: 'post_score', width: 11 },
    { header: 'Post total', key: 'post_total', width: 10 },
    { header: 'Post %', key: 'post_percent', width: 8 },
    { header: 'Gain', key: 'gain', width: 8 },
  ];
  for (const row of r.learners) learners.addRow(row);
  learners.addRow({
    name: 'Class average',
    pre_percent: r.averages.pre,
    post_percent: r.averages.post,
    gain: r.averages.gain,
  });
  learners.getRow(1).font = { bold: true };
  const qs = wb.addWorksheet('Questions');
  qs.columns = [
    { header: 'Test', key: 'test', width: 8 },
    { header: 'Question', key: 'question', width: 60 },
    { header: 'Answered', key: 'answered', width: 10 },
    { header: 'Right', key: 'right', width: 8 },
  ];
  for (const q of r.questions) qs.addRow({ ...q, test: q.type === 1 ? 'Pre' : 'Post' });
  qs.getRow(1).font = { bold: true };
  const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
  const safe = training.slug.replace(/[^a-zA-Z0-9_-]/g, '');
  return { bytes, fileName: `assessment-results-${safe}.xlsx` };
}

/** allow-assessment-retake: the learner's last submitted attempt lets one more start. */
export async function allowRetake(
  deps: Deps,
  auth: AuthContext,
  body: { slug: string; type: number; user_id: number },
) {
  const training = await trainingForManager(deps, auth, body.slug);
  const [a] = await deps.db
    .select({ id: assessments.id })
    .from(assessments)
    .where(and(eq(assessments.training_id, training.id), eq(assessments.type, body.type)))
    .limit(1);
  if (!a) throw notFound();
  const [last] = await deps.db
    .select()
    .from(assessmentAttempts)
    .where(and(eq(assessmentAttempts.assessment_id, a.id), eq(assessmentAttempts.user_id, body.user_id)))
    .orderBy(desc(assessmentAttempts.id))
    .limit(1);
  if (!last?.submitted_at) throw invalidField('user_id', 'The learner has no submitted attempt of this test.');
  await deps.db.update(assessmentAttempts).set({ retake_allowed: 1 }).where(eq(assessmentAttempts.id, last.id));
  return { message: MSG.recordUpdated };
}
