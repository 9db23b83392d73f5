import { trainingUsers } from '../src/db/schema';
import type { TestApp } from './helpers';
import { postMultipart } from './master-support';
import { book, makeTraining } from './trainings-fixtures';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const BANK_HEADER = [
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
];

/** One bank row: question text `q`, correct option `correct`, level. */
export const bankRow = (q: string, correct = 2, level = 'Beginner', language = 'English') => [
  language,
  'Kubernetes',
  'Multiple choice',
  q,
  'A',
  'B',
  'C',
  'D',
  correct,
  level,
];

export const question = (over: Record<string, unknown> = {}) => ({
  language_identified: 'English',
  question_category: 'Kubernetes',
  question_type: 'Multiple choice',
  question: `What is a pod? ${Math.random().toString(36).slice(2, 8)}`,
  option1: 'A VM',
  option2: 'A group of containers',
  option3: 'A network',
  option4: 'A disk',
  correct_option: 2,
  level: 'Beginner',
  ...over,
});

export const uploadBank = (t: TestApp, rows: (string | number | null)[][], token?: string, filename = 'bank.xlsx') =>
  postMultipart(
    t,
    'upload-question-bank',
    [{ name: 'file', filename, content: book(rows), contentType: XLSX_TYPE }],
    token,
  );

export type Bank = Record<'Beginner' | 'Intermediate' | 'Advanced', number[]>;

/** Adds `n` questions per level (in English unless told) to the caller's bank; returns their ids by level. */
export async function seedBank(t: TestApp, token: string, n: number, tag: string, language = 'English') {
  const ids: Bank = { Beginner: [], Intermediate: [], Advanced: [] };
  for (const level of ['Beginner', 'Intermediate', 'Advanced'] as const) {
    for (let i = 0; i < n; i++) {
      const res = await t.post(
        'add-question',
        question({
          question: `${tag} ${level} ${i}`,
          level,
          language_identified: language,
          correct_option: (i % 4) + 1,
        }),
        token,
      );
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      ids[level].push(res.body.success.id);
    }
  }
  return ids;
}

/** A training with both tests included on its Cost tab. */
export const assessedTraining = (t: TestApp, token: string, over: Record<string, unknown> = {}) =>
  makeTraining(t, token, { pre_assessment: 1, post_assessment: 1, ...over });

/** A signed-in learner enrolled in the training. */
export async function enrolledLearner(t: TestApp, trainingId: number) {
  const learner = await t.loginAs({ role: 'user' });
  await t.deps.db.insert(trainingUsers).values({ training_id: trainingId, user_id: learner.user.id });
  return learner;
}
