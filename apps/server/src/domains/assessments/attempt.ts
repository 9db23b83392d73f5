import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { assessmentAnswers, assessmentAttempts, assessmentQuestions, assessments, questions } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { AppError, invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { trainingForLearner } from '../trainings/access';
import { type AssessmentRow, poolOf, questionCount } from './build';
import { drawFor } from './draw';
import { extendedSeconds, extraPercentFor } from './time-extensions';

export const TAKE_MSG = {
  noTest: 'This test is not available.',
  alreadyTaken: 'You have already taken this test.',
  submitted: 'The test has already been submitted.',
  timeOver: 'The time for this test is over.',
  notInTest: 'The question is not part of this test.',
  cannotDraw: 'The test cannot be drawn: the question bank no longer has enough questions.',
  answerSaved: 'Answer saved.',
} as const;

type AttemptRow = typeof assessmentAttempts.$inferSelect;
const secondsLeft = (a: AttemptRow, now = Date.now()) => Math.max(0, Math.ceil((a.deadline_at.getTime() - now) / 1000));
const percentOf = (score: number, total: number) => (total > 0 ? Math.round((score * 100) / total) : 0);

async function learnerAssessment(deps: Deps, auth: AuthContext, slug: string, type: number) {
  const { training } = await trainingForLearner(deps, auth, slug);
  const [a] = await deps.db
    .select()
    .from(assessments)
    .where(and(eq(assessments.training_id, training.id), eq(assessments.type, type)))
    .limit(1);
  if (!a) throw notFound(TAKE_MSG.noTest);
  return { training, assessment: a };
}

async function latestAttempt(db: Db, assessmentId: number, userId: number) {
  const [row] = await db
    .select()
    .from(assessmentAttempts)
    .where(and(eq(assessmentAttempts.assessment_id, assessmentId), eq(assessmentAttempts.user_id, userId)))
    .orderBy(desc(assessmentAttempts.id))
    .limit(1);
  return row;
}

/** Marks the answers and stores the score; a submitted attempt is left as it is. */
export async function finalize(db: Db, attempt: AttemptRow): Promise<AttemptRow> {
  if (attempt.submitted_at) return attempt;
  return db.transaction(async (tx) => {
    await tx
      .update(assessmentAnswers)
      .set({
        is_correct: sql`case when ${assessmentAnswers.answer} = (select q.correct_option from questions q where q.id = ${assessmentAnswers.question_id}) then 1 else 0 end`,
      })
      .where(eq(assessmentAnswers.attempt_id, attempt.id));
    const [r] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(assessmentAnswers)
      .where(and(eq(assessmentAnswers.attempt_id, attempt.id), eq(assessmentAnswers.is_correct, 1)));
    const now = new Date();
    const [updated] = await tx
      .update(assessmentAttempts)
      .set({
        score: Number(r?.n ?? 0),
        submitted_at: now < attempt.deadline_at ? now : attempt.deadline_at,
      })
      .where(and(eq(assessmentAttempts.id, attempt.id), sql`${assessmentAttempts.submitted_at} is null`))
      .returning();
    if (updated) return updated;
    const [again] = await tx.select().from(assessmentAttempts).where(eq(assessmentAttempts.id, attempt.id));
    return again!;
  });
}

/** An attempt whose time ran out is submitted with what was answered. */
export const settle = (db: Db, attempt: AttemptRow) =>
  !attempt.submitted_at && attempt.deadline_at.getTime() <= Date.now()
    ? finalize(db, attempt)
    : Promise.resolve(attempt);

/** Submits every attempt of these tests whose time ran out (before results are read). */
export async function settleExpired(db: Db, assessmentIds: number[]) {
  if (assessmentIds.length === 0) return;
  const open = await db
    .select()
    .from(assessmentAttempts)
    .where(
      and(
        inArray(assessmentAttempts.assessment_id, assessmentIds),
        sql`${assessmentAttempts.submitted_at} is null`,
        sql`${assessmentAttempts.deadline_at} <= now()`,
      ),
    );
  for (const a of open) await finalize(db, a);
}

async function questionIdsFor(db: Db, a: AssessmentRow, userId: number, attemptNo: number): Promise<number[]> {
  if (a.mode === 'random') {
    const rows = await db
      .select({ id: assessmentQuestions.question_id })
      .from(assessmentQuestions)
      .where(eq(assessmentQuestions.assessment_id, a.id))
      .orderBy(asc(assessmentQuestions.position));
    return rows.map((r) => r.id);
  }
  const pool = await poolOf(db, a.bank, a.language_identified ?? '');
  const counts = {
    Beginner: a.beginner_question,
    Intermediate: a.intermediate_question,
    Advanced: a.advanced_question,
  };
  const ids = drawFor(attemptNo === 0 ? a.seed : `${a.seed}:${attemptNo}`, userId, pool, counts);
  if (ids.length < questionCount(a, 0)) throw new AppError(422, TAKE_MSG.cannotDraw, { type: [TAKE_MSG.cannotDraw] });
  return ids;
}

/** The attempt as the learner sees it: the questions and the learner's answers, never the correct options. */
async function attemptView(db: Db, attempt: AttemptRow, a: AssessmentRow, training: { name: string; slug: string }) {
  const rows = attempt.question_ids.length
    ? await db
        .select({
          id: questions.id,
          question: questions.question,
          option1: questions.option1,
          option2: questions.option2,
          option3: questions.option3,
          option4: questions.option4,
        })
        .from(questions)
        .where(inArray(questions.id, attempt.question_ids))
    : [];
  const answers = await db
    .select({ question_id: assessmentAnswers.question_id, answer: assessmentAnswers.answer })
    .from(assessmentAnswers)
    .where(eq(assessmentAnswers.attempt_id, attempt.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const chosen = new Map(answers.map((r) => [r.question_id, r.answer]));
  return {
    attempt_id: attempt.id,
    type: a.type,
    training_name: training.name,
    slug: training.slug,
    remaining_seconds: secondsLeft(attempt),
    deadline: attempt.deadline_at.toISOString(),
    // the test's time with the learner's extension, as fixed when the attempt started
    total_seconds: Math.round((attempt.deadline_at.getTime() - attempt.started_at.getTime()) / 1000),
    questions: attempt.question_ids.flatMap((id) => {
      const q = byId.get(id);
      return q
        ? [
            {
              id: q.id,
              question: q.question,
              option1: q.option1,
              option2: q.option2,
              option3: q.option3,
              option4: q.option4,
              answer: chosen.get(q.id) ?? null,
            },
          ]
        : [];
    }),
  };
}

/** lpu/start-assessment: resumes the attempt in progress, or starts one if the learner may. */
export async function startAttempt(deps: Deps, auth: AuthContext, body: { slug: string; type: number }) {
  const { training, assessment } = await learnerAssessment(deps, auth, body.slug, body.type);
  const attempt = await deps.db.transaction(async (tx) => {
    // One start at a time per learner and test: two tabs starting at once get one attempt. Other
    // learners do not wait: a lock on the test's row made a class of 50 starting together start one
    // by one (p95 1 s, bench/class.ts).
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`assessment-start:${assessment.id}:${auth.user.id}`}))`,
    );
    let last = await latestAttempt(tx, assessment.id, auth.user.id);
    if (last) last = await settle(tx, last);
    if (last && !last.submitted_at) return last;
    if (last && !last.retake_allowed) throw new AppError(422, TAKE_MSG.alreadyTaken, { type: [TAKE_MSG.alreadyTaken] });
    const [n] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(assessmentAttempts)
      .where(and(eq(assessmentAttempts.assessment_id, assessment.id), eq(assessmentAttempts.user_id, auth.user.id)));
    const ids = await questionIdsFor(tx, assessment, auth.user.id, Number(n?.n ?? 0));
    const extra = await extraPercentFor(tx, training.id, auth.user.id);
    const now = new Date();
    const [row] = await tx
      .insert(assessmentAttempts)
      .values({
        assessment_id: assessment.id,
        user_id: auth.user.id,
        question_ids: ids,
        started_at: now,
        deadline_at: new Date(now.getTime() + extendedSeconds(assessment.seconds, extra) * 1000),
        total: ids.length,
      })
      .returning();
    return row!;
  });
  return attemptView(deps.db, attempt, assessment, training);
}

async function ownAttempt(deps: Deps, auth: AuthContext, attemptId: number) {
  const [row] = await deps.db
    .select({ attempt: assessmentAttempts, assessment: assessments })
    .from(assessmentAttempts)
    .innerJoin(assessments, eq(assessments.id, assessmentAttempts.assessment_id))
    .where(and(eq(assessmentAttempts.id, attemptId), eq(assessmentAttempts.user_id, auth.user.id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** lpu/save-assessment-answer: only before the deadline, only a question of this attempt. */
export async function saveAnswer(
  deps: Deps,
  auth: AuthContext,
  body: { attempt_id: number; question_id: number; answer: number },
) {
  const { attempt } = await ownAttempt(deps, auth, body.attempt_id);
  if (attempt.submitted_at) throw invalidField('attempt_id', TAKE_MSG.submitted);
  if (attempt.deadline_at.getTime() <= Date.now()) {
    await finalize(deps.db, attempt);
    throw invalidField('attempt_id', TAKE_MSG.timeOver);
  }
  if (!attempt.question_ids.includes(body.question_id)) throw invalidField('question_id', TAKE_MSG.notInTest);
  await deps.db
    .insert(assessmentAnswers)
    .values({ attempt_id: attempt.id, question_id: body.question_id, answer: body.answer })
    .onConflictDoUpdate({
      target: [assessmentAnswers.attempt_id, assessmentAnswers.question_id],
      set: { answer: body.answer, answered_at: new Date() },
    });
  return { message: TAKE_MSG.answerSaved, remaining_seconds: secondsLeft(attempt) };
}

type Options = { option1: string; option2: string; option3: string; option4: string };
/** The text of option 1–4 of a question. */
const optionText = (q: Options, n: number) => q[`option${n}` as keyof Options] ?? '';

async function resultOf(db: Db, attempt: AttemptRow, a: AssessmentRow) {
  let answers = null;
  if (a.show_answers) {
    const rows = await db
      .select({
        id: questions.id,
        question: questions.question,
        correct: questions.correct_option,
        option1: questions.option1,
        option2: questions.option2,
        option3: questions.option3,
        option4: questions.option4,
      })
      .from(questions)
      .where(inArray(questions.id, attempt.question_ids.length ? attempt.question_ids : [0]));
    const given = await db
      .select({ question_id: assessmentAnswers.question_id, answer: assessmentAnswers.answer })
      .from(assessmentAnswers)
      .where(eq(assessmentAnswers.attempt_id, attempt.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const chosen = new Map(given.map((g) => [g.question_id, g.answer]));
    answers = attempt.question_ids.flatMap((id) => {
      const q = byId.get(id);
      if (!q) return [];
      const answer = chosen.get(id) ?? null;
      return [
        {
          question_id: id,
          question: q.question,
          answer,
          correct_option: q.correct,
          is_correct: answer === q.correct ? 1 : 0,
          answer_text: answer === null ? null : optionText(q, answer),
          correct_text: optionText(q, q.correct),
        },
      ];
    });
  }
  const score = attempt.score ?? 0;
  return {
    attempt_id: attempt.id,
    type: a.type,
    score,
    total: attempt.total,
    percent: percentOf(score, attempt.total),
    submitted_at: (attempt.submitted_at ?? attempt.deadline_at).toISOString(),
    answers,
  };
}

/** lpu/submit-assessment */
export async function submitAttempt(deps: Deps, auth: AuthContext, attemptId: number) {
  const { attempt, assessment } = await ownAttempt(deps, auth, attemptId);
  return resultOf(deps.db, await finalize(deps.db, attempt), assessment);
}

/** lpu/assessment-result: the last submitted attempt (an expired one is submitted first). */
export async function myResult(deps: Deps, auth: AuthContext, body: { slug: string; type: number }) {
  const { assessment } = await learnerAssessment(deps, auth, body.slug, body.type);
  let last = await latestAttempt(deps.db, assessment.id, auth.user.id);
  if (last) last = await settle(deps.db, last);
  if (last && !last.submitted_at) {
    // a retake in progress: answer the attempt before it
    const [prev] = await deps.db
      .select()
      .from(assessmentAttempts)
      .where(
        and(
          eq(assessmentAttempts.assessment_id, assessment.id),
          eq(assessmentAttempts.user_id, auth.user.id),
          sql`${assessmentAttempts.submitted_at} is not null`,
        ),
      )
      .orderBy(desc(assessmentAttempts.id))
      .limit(1);
    last = prev;
  }
  if (!last?.submitted_at) throw notFound(TAKE_MSG.noTest);
  return resultOf(deps.db, last, assessment);
}

/** lpu/get-assessments: the tests of an enrolled training with the learner's status. */
export async function myAssessments(deps: Deps, auth: AuthContext, slug: string) {
  const { training } = await trainingForLearner(deps, auth, slug);
  const rows = await deps.db
    .select()
    .from(assessments)
    .where(eq(assessments.training_id, training.id))
    .orderBy(asc(assessments.type));
  const extra = await extraPercentFor(deps.db, training.id, auth.user.id);
  const list = [];
  for (const a of rows) {
    const picked =
      a.mode === 'random'
        ? Number(
            (
              await deps.db
                .select({ n: sql<number>`count(*)::int` })
                .from(assessmentQuestions)
                .where(eq(assessmentQuestions.assessment_id, a.id))
            )[0]?.n ?? 0,
          )
        : 0;
    let last = await latestAttempt(deps.db, a.id, auth.user.id);
    if (last) last = await settle(deps.db, last);
    const status = !last ? 'not started' : last.submitted_at ? 'submitted' : 'in progress';
    list.push({
      type: a.type,
      minute: Math.round(extendedSeconds(a.seconds, extra) / 60),
      ...(extra ? { extra_percent: extra } : {}),
      total_questions: questionCount(a, picked),
      status,
      can_start: !last || !last.submitted_at || last.retake_allowed ? 1 : 0,
      percent: last?.submitted_at ? percentOf(last.score ?? 0, last.total) : null,
    });
  }
  return { list };
}
