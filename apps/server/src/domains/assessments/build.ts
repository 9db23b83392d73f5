import { randomBytes } from 'node:crypto';
import {
  type addAutomaticQuestionsRequest,
  type addRandomQuestionsRequest,
  MSG,
  QUESTION_LEVELS,
} from '@trainlab/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { assessmentAttempts, assessmentQuestions, assessments, questions } from '../../db/schema';
import type { Db } from '../../platform/db/client';
import type { Deps } from '../../platform/deps';
import { AppError, invalidField } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { type TrainingRow, trainingByIdForManager, trainingForManager } from '../trainings/access';
import { callerBank, SHARED_BANK, toQuestionItem } from './bank';
import type { DrawCounts } from './draw';

export const BUILD_MSG = {
  notIncluded: (type: number) => {
    const kind = type === 1 ? 'pre' : 'post';
    return `The training does not include a ${kind}-assessment. Switch it on first: 'Switch on ${kind}-assessment' on this page, or Edit in the training's menu on All Trainings.`;
  },
  started: 'Learners have already started this test; it can no longer be changed.',
  cannotFill: (level: string, have: number) =>
    `The bank has only ${have} ${level} question${have === 1 ? '' : 's'} in this language.`,
  unknownQuestions: 'The selected question ids is invalid.',
} as const;

export type AssessmentRow = typeof assessments.$inferSelect;

const banksOf = (key: string) => [...new Set([key, SHARED_BANK])];

function assertIncluded(training: TrainingRow, type: number) {
  const included = type === 1 ? training.pre_assessment : training.post_assessment;
  if (!included) throw invalidField('type', BUILD_MSG.notIncluded(type));
}

/** Replaces the training's test of this type, unless a learner has already started it. */
async function replaceAssessment(
  db: Db,
  training: TrainingRow,
  values: Omit<typeof assessments.$inferInsert, 'training_id'>,
  questionIds: number[],
) {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: assessments.id })
      .from(assessments)
      .where(and(eq(assessments.training_id, training.id), eq(assessments.type, values.type)))
      .for('update')
      .limit(1);
    if (existing) {
      const [attempt] = await tx
        .select({ id: assessmentAttempts.id })
        .from(assessmentAttempts)
        .where(eq(assessmentAttempts.assessment_id, existing.id))
        .limit(1);
      if (attempt) throw new AppError(422, BUILD_MSG.started, { type: [BUILD_MSG.started] });
      await tx.delete(assessments).where(eq(assessments.id, existing.id));
    }
    const [row] = await tx
      .insert(assessments)
      .values({ ...values, training_id: training.id })
      .returning();
    if (questionIds.length > 0) {
      await tx
        .insert(assessmentQuestions)
        .values(questionIds.map((question_id, position) => ({ assessment_id: row!.id, question_id, position })));
    }
    return row!;
  });
}

/** /add-random-questions: the manager picks the questions (from the caller's bank and the shared bank). */
export async function addRandom(deps: Deps, auth: AuthContext, body: z.output<typeof addRandomQuestionsRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  assertIncluded(training, body.type);
  const bank = callerBank(auth);
  const found = await deps.db
    .select({ id: questions.id })
    .from(questions)
    .where(and(inArray(questions.id, body.question_ids), inArray(questions.bank, banksOf(bank.key))));
  if (found.length !== body.question_ids.length) throw invalidField('question_ids', BUILD_MSG.unknownQuestions);
  const row = await replaceAssessment(
    deps.db,
    training,
    {
      type: body.type,
      mode: 'random',
      seconds: body.minute * 60,
      bank: bank.key,
      seed: randomBytes(16).toString('hex'),
      show_answers: body.show_answers ? 1 : 0,
      created_by: auth.user.id,
    },
    body.question_ids,
  );
  return { message: MSG.recordAdded, id: row.id, total_questions: body.question_ids.length };
}

/** Question ids per level in one language, of the given bank and the shared bank, in id order. */
export async function poolOf(db: Db, bankKey: string, language: string) {
  const rows = await db
    .select({ id: questions.id, level: questions.level })
    .from(questions)
    .where(
      and(inArray(questions.bank, banksOf(bankKey)), sql`lower(${questions.language_identified}) = lower(${language})`),
    )
    .orderBy(asc(questions.id));
  const pool: Record<keyof DrawCounts, number[]> = { Beginner: [], Intermediate: [], Advanced: [] };
  for (const r of rows) pool[r.level as keyof DrawCounts]?.push(r.id);
  return pool;
}

/** /add-automatic-questions: counts per level; each learner's draw is made when the learner starts. */
export async function addAutomatic(deps: Deps, auth: AuthContext, body: z.output<typeof addAutomaticQuestionsRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  assertIncluded(training, body.type);
  const bank = callerBank(auth);
  const pool = await poolOf(deps.db, bank.key, body.languge_identified);
  const fields = {
    Beginner: 'beginner_question',
    Intermediate: 'intermediate_question',
    Advanced: 'advanced_question',
  } as const;
  const errors: Record<string, string[]> = {};
  for (const level of QUESTION_LEVELS) {
    const want = body[fields[level]];
    if (want > pool[level].length) errors[fields[level]] = [BUILD_MSG.cannotFill(level, pool[level].length)];
  }
  if (Object.keys(errors).length > 0) throw new AppError(422, MSG.givenDataInvalid, errors);
  const row = await replaceAssessment(
    deps.db,
    training,
    {
      type: body.type,
      mode: 'automatic',
      seconds: body.minute * 60,
      language_identified: body.languge_identified,
      beginner_question: body.beginner_question,
      intermediate_question: body.intermediate_question,
      advanced_question: body.advanced_question,
      bank: bank.key,
      seed: randomBytes(16).toString('hex'),
      show_answers: body.show_answers ? 1 : 0,
      created_by: auth.user.id,
    },
    [],
  );
  const total = body.beginner_question + body.intermediate_question + body.advanced_question;
  return { message: MSG.recordAdded, id: row.id, total_questions: total };
}

export const questionCount = (a: AssessmentRow, picked: number) =>
  a.mode === 'automatic' ? a.beginner_question + a.intermediate_question + a.advanced_question : picked;

/** /get-assessment-questions: the test as the manager built it. */
export async function assessmentQuestionsFor(
  deps: Deps,
  auth: AuthContext,
  body: { type: number; training_id: number },
) {
  const training = await trainingByIdForManager(deps, auth, body.training_id);
  const [a] = await deps.db
    .select()
    .from(assessments)
    .where(and(eq(assessments.training_id, training.id), eq(assessments.type, body.type)))
    .limit(1);
  if (!a) return { success: null };
  const picked = await deps.db
    .select({ q: questions })
    .from(assessmentQuestions)
    .innerJoin(questions, eq(questions.id, assessmentQuestions.question_id))
    .where(eq(assessmentQuestions.assessment_id, a.id))
    .orderBy(asc(assessmentQuestions.position));
  const [attempts] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(assessmentAttempts)
    .where(eq(assessmentAttempts.assessment_id, a.id));
  return {
    success: {
      id: a.id,
      type: a.type,
      mode: a.mode,
      minute: Math.round(a.seconds / 60),
      languge_identified: a.language_identified,
      beginner_question: a.beginner_question,
      intermediate_question: a.intermediate_question,
      advanced_question: a.advanced_question,
      total_questions: questionCount(a, picked.length),
      show_answers: a.show_answers,
      attempts: Number(attempts?.n ?? 0),
      questions: picked.map((p) => toQuestionItem(p.q)),
    },
  };
}
