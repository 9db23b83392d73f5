import { z } from 'zod';
import { flag, idField, requiredText } from '../validation.js';
import { listFields, pagedList } from './paging.js';

/**
 * Question bank and assessments (spec 02 §2, §3 Question, §4 'Assessment test', §7). A tenant's
 * bank holds its questions; the admin's bank is the shared one, visible to every tenant.
 * Assessment type 1 is the pre-test, 2 the post-test.
 */

export const QUESTION_LEVELS = ['Beginner', 'Intermediate', 'Advanced'] as const;
export type QuestionLevel = (typeof QUESTION_LEVELS)[number];
export const ASSESSMENT_TYPES = { pre: 1, post: 2 } as const;
export const ASSESSMENT_TYPE_LABELS: Record<number, string> = { 1: 'Pre-assessment', 2: 'Post-assessment' };
/** Default time of a test (spec 02 §9: the countdown starts at 1800 seconds). */
export const ASSESSMENT_DEFAULT_SECONDS = 1800;
export const ASSESSMENT_LIMITS = { maxMinutes: 300, maxQuestions: 200, maxText: 2000, maxOption: 500 } as const;

export const QUESTION_IMPORT_COLUMNS = [
  'language_identified',
  'question_category',
  'question_type',
  'question',
  'option1',
  'option2',
  'option3',
  'option4',
  'correct_option',
  'level',
] as const;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const whole = (min: number, max: number) => z.preprocess(blank, z.coerce.number().int().min(min).max(max));
/** Levels are matched without regard to case ('beginner', 'ADVANCED'); 'Advance' reads as Advanced. */
const levelField = () =>
  z.preprocess(
    (v) => {
      if (typeof v !== 'string') return blank(v);
      const t = v.trim().toLowerCase();
      if (t === '') return undefined;
      if (t === 'advance') return 'Advanced';
      return QUESTION_LEVELS.find((l) => l.toLowerCase() === t) ?? v;
    },
    z.enum(QUESTION_LEVELS, { error: (i) => (i.input === undefined ? undefined : 'The selected level is invalid.') }),
  );
/** The correct option is 1 to 4; 'option2' and 'Option 2' read as 2. */
const correctOptionField = () =>
  z.preprocess(
    (v) => {
      if (typeof v === 'string') {
        const m = /^\s*(?:option\s*)?([0-9]+)\s*$/i.exec(v);
        return m ? Number(m[1]) : blank(v);
      }
      return v;
    },
    z.coerce
      .number({ error: (i) => (i.input === undefined ? undefined : 'The correct option must be 1, 2, 3 or 4.') })
      .int({ message: 'The correct option must be 1, 2, 3 or 4.' })
      .min(1, { message: 'The correct option must be 1, 2, 3 or 4.' })
      .max(4, { message: 'The correct option must be 1, 2, 3 or 4.' }),
  );

/** The fields of one question (an upload row or the add/edit form). */
export const questionFields = {
  language_identified: requiredText(100),
  question_category: requiredText(100),
  question_type: requiredText(100),
  question: requiredText(ASSESSMENT_LIMITS.maxText),
  option1: requiredText(ASSESSMENT_LIMITS.maxOption),
  option2: requiredText(ASSESSMENT_LIMITS.maxOption),
  option3: requiredText(ASSESSMENT_LIMITS.maxOption),
  option4: requiredText(ASSESSMENT_LIMITS.maxOption),
  correct_option: correctOptionField(),
  level: levelField(),
};
export const questionImportRow = z.object(questionFields);
export const addQuestionRequest = z.object(questionFields);
export const updateQuestionRequest = z.object({ id: idField(), ...questionFields });
export const questionIdRequest = z.object({ id: idField() });

export const QUESTION_SORT_KEYS = ['question', 'language_identified', 'level', 'question_category'] as const;
export const questionBankRequest = z.object({
  ...listFields(QUESTION_SORT_KEYS),
  language_identified: z.preprocess(blank, z.string().trim().max(100).optional()),
  level: z.preprocess(blank, z.enum(QUESTION_LEVELS).optional()),
});
export const questionItem = z.object({
  id: z.number(),
  language_identified: z.string(),
  question_category: z.string(),
  question_type: z.string(),
  question: z.string(),
  option1: z.string(),
  option2: z.string(),
  option3: z.string(),
  option4: z.string(),
  correct_option: z.number(),
  level: z.string(),
  /** 1 when the question is in the shared (admin) bank: read-only for tenants */
  shared: z.number(),
});
export type QuestionItem = z.infer<typeof questionItem>;
export const questionBankPage = pagedList(questionItem);
export const questionSaved = z.object({ message: z.string(), success: questionItem });
export const bankMessage = z.object({ message: z.string() });
export const languagesResponse = z.object({ list: z.array(z.string()) });

const assessmentType = () =>
  z.preprocess(
    blank,
    z.coerce
      .number({ error: (i) => (i.input === undefined ? undefined : 'The selected type is invalid.') })
      .pipe(z.union([z.literal(1), z.literal(2)], { error: () => 'The selected type is invalid.' })),
  );

export const addRandomQuestionsRequest = z.object({
  minute: whole(1, ASSESSMENT_LIMITS.maxMinutes),
  type: assessmentType(),
  slug: requiredText(200),
  question_ids: z
    .array(idField(), { error: (i) => (i.input === undefined ? 'The question ids field is required.' : undefined) })
    .min(1, { message: 'The question ids field is required.' })
    .max(ASSESSMENT_LIMITS.maxQuestions)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'The question ids must not repeat.' }),
  /** after submitting, the learner may see which answers were right */
  show_answers: flag().optional().default(false),
});
const countField = () =>
  z.preprocess((v) => blank(v) ?? 0, z.coerce.number().int().min(0).max(ASSESSMENT_LIMITS.maxQuestions));
export const addAutomaticQuestionsRequest = z
  .object({
    type: assessmentType(),
    /** spelt so (spec 02 §7) */
    languge_identified: requiredText(100),
    beginner_question: countField(),
    intermediate_question: countField(),
    advanced_question: countField(),
    slug: requiredText(200),
    minute: z.preprocess((v) => blank(v) ?? ASSESSMENT_DEFAULT_SECONDS / 60, whole(1, ASSESSMENT_LIMITS.maxMinutes)),
    show_answers: flag().optional().default(false),
  })
  .superRefine((v, ctx) => {
    const n = (x: unknown) => (typeof x === 'number' ? x : 0);
    const total = n(v.beginner_question) + n(v.intermediate_question) + n(v.advanced_question);
    if (total === 0)
      ctx.addIssue({ code: 'custom', path: ['beginner_question'], message: 'Ask for at least one question.' });
    if (total > ASSESSMENT_LIMITS.maxQuestions) {
      ctx.addIssue({
        code: 'custom',
        path: ['beginner_question'],
        message: `A test may have at most ${ASSESSMENT_LIMITS.maxQuestions} questions.`,
      });
    }
  });
export const assessmentSaved = z.object({ message: z.string(), id: z.number(), total_questions: z.number() });

export const assessmentQuestionsRequest = z.object({ type: assessmentType(), training_id: idField() });
export const assessmentDefinition = z.object({
  id: z.number(),
  type: z.number(),
  /** 'random' (picked by hand) or 'automatic' (drawn per learner) */
  mode: z.string(),
  minute: z.number(),
  languge_identified: z.string().nullable(),
  beginner_question: z.number(),
  intermediate_question: z.number(),
  advanced_question: z.number(),
  total_questions: z.number(),
  show_answers: z.number(),
  attempts: z.number(),
  /** the questions picked by hand (random mode); empty for automatic tests, drawn per learner */
  questions: z.array(questionItem),
});
export const assessmentQuestionsResponse = z.object({ success: assessmentDefinition.nullable() });

// ---- taking a test (learners) ----

export const takeAssessmentRequest = z.object({ type: assessmentType(), slug: requiredText(200) });
/** A question as the learner sees it: never the correct option. */
export const learnerQuestion = z.object({
  id: z.number(),
  question: z.string(),
  option1: z.string(),
  option2: z.string(),
  option3: z.string(),
  option4: z.string(),
  /** the option the learner chose (1–4) or null */
  answer: z.number().nullable(),
});
export const attemptView = z.object({
  attempt_id: z.number(),
  type: z.number(),
  training_name: z.string(),
  slug: z.string(),
  /** whole seconds left on the server's clock */
  remaining_seconds: z.number(),
  deadline: z.string(),
  total_seconds: z.number(),
  questions: z.array(learnerQuestion),
});
export const answerRequest = z.object({
  attempt_id: idField(),
  question_id: idField(),
  answer: z.preprocess(blank, z.coerce.number().int().min(1).max(4)),
});
export const answerResponse = z.object({ message: z.string(), remaining_seconds: z.number() });
export const attemptIdRequest = z.object({ attempt_id: idField() });
export const resultAnswer = z.object({
  question_id: z.number(),
  question: z.string(),
  answer: z.number().nullable(),
  correct_option: z.number(),
  is_correct: z.number(),
  /** the text of the learner's answer (null when not answered); added by issue 32 */
  answer_text: z.string().nullable(),
  /** the text of the correct option; added by issue 32 */
  correct_text: z.string(),
});
export const attemptResult = z.object({
  attempt_id: z.number(),
  type: z.number(),
  score: z.number(),
  total: z.number(),
  percent: z.number(),
  submitted_at: z.string(),
  /** present only when the manager allows learners to see which answers were right */
  answers: z.array(resultAnswer).nullable(),
});
export const myAssessment = z.object({
  type: z.number(),
  minute: z.number(),
  total_questions: z.number(),
  /** 'not started' | 'in progress' | 'submitted' */
  status: z.string(),
  can_start: z.number(),
  percent: z.number().nullable(),
  /** the learner's extra time in percent (0 without); `minute` already includes it */
  extra_percent: z.number().optional(),
});
export const myAssessmentsResponse = z.object({ list: z.array(myAssessment) });
export const assessmentResultRequest = takeAssessmentRequest;

// ---- results for managers ----

export const resultsRequest = z.object({ slug: requiredText(200) });
export const learnerResult = z.object({
  user_id: z.number(),
  name: z.string(),
  email: z.string(),
  pre_score: z.number().nullable(),
  pre_total: z.number().nullable(),
  pre_percent: z.number().nullable(),
  post_score: z.number().nullable(),
  post_total: z.number().nullable(),
  post_percent: z.number().nullable(),
  /** post percent minus pre percent, when both were taken */
  gain: z.number().nullable(),
});
export const questionResult = z.object({
  type: z.number(),
  question_id: z.number(),
  question: z.string(),
  answered: z.number(),
  right: z.number(),
});
export const resultsResponse = z.object({
  training_name: z.string(),
  learners: z.array(learnerResult),
  averages: z.object({ pre: z.number().nullable(), post: z.number().nullable(), gain: z.number().nullable() }),
  questions: z.array(questionResult),
});
// ---- the session bundle: a completed training's outcome in one place (issue 14) ----

export const SESSION_BUNDLE_SORT_KEYS = ['first_name', 'email', 'minutes'] as const;
export const sessionBundleRequest = z.object({ slug: requiredText(200), ...listFields(SESSION_BUNDLE_SORT_KEYS) });
export const sessionBundleRow = z.object({
  user_id: z.number(),
  name: z.string(),
  email: z.string(),
  /** attended minutes, measured by the server from the conference connection */
  minutes: z.number(),
  /** last submitted attempt's percent; null when not taken */
  pre_percent: z.number().nullable(),
  post_percent: z.number().nullable(),
  /** post percent minus pre percent, when both were taken */
  gain: z.number().nullable(),
});
export const sessionBundleRecording = z.object({
  topic_id: z.number(),
  topic: z.string(),
  /** the recording page of the web app (/recording/{base64 topic id}); it asks for a signed file link */
  page: z.string(),
});
export const sessionBundlePage = pagedList(sessionBundleRow).extend({
  training_name: z.string(),
  /** the training's recordings, in topic order */
  recordings: z.array(sessionBundleRecording),
});

export const allowRetakeRequest = z.object({ slug: requiredText(200), type: assessmentType(), user_id: idField() });
export const fileResponse = z.any().meta({ description: 'file bytes (see content-type)' });

// ---- time extensions (an accommodation per learner, issue 21) ----

/**
 * Extra time on a training's tests for one learner, as a percentage of each test's time (50 gives
 * time and a half, 100 double time). 0 removes it. A test's 'Time' is the same for everyone; this is
 * what lets a provider give the learners who need it more.
 */
export const TIME_EXTENSION_LIMITS = { maxPercent: 200 } as const;
export const setTimeExtensionRequest = z.object({
  slug: requiredText(200),
  user_id: idField(),
  extra_percent: whole(0, TIME_EXTENSION_LIMITS.maxPercent),
});
export const timeExtensionsRequest = z.object({ slug: requiredText(200), ...listFields(['name', 'extra_percent']) });
export const timeExtensionRow = z.object({
  user_id: z.number(),
  name: z.string(),
  email: z.string(),
  extra_percent: z.number(),
});
export const timeExtensionsPage = pagedList(timeExtensionRow);
