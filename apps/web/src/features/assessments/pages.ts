import { type LazyPage, lazyPage } from '../../app/lazy-page';

/** Question bank, building tests, taking a test (spec 02 §2 'Question bank and assessments'). */
export const ASSESSMENT_PAGES: Record<string, LazyPage> = {
  '/question-bank/show': lazyPage(() => import('./BankPages'), 'QuestionBankPage'),
  '/question-bank/add': lazyPage(() => import('./BankPages'), 'QuestionBankUploadPage'),
  '/assessment/add/:slug': lazyPage(() => import('./BuildPage'), 'AddAssessmentPage'),
  '/assessment': lazyPage(() => import('./TestPage'), 'AssessmentPage'),
};
