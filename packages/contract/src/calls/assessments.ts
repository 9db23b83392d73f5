import { call, empty } from '../api-base.js';
import { LEARNER_ROLES, type Role } from '../roles.js';
import * as a from '../schemas/assessments.js';
import { importResponse, uploadRequest } from '../schemas/imports.js';

/** Providers, organizations and org sub-admins keep a bank and build tests for their trainings. */
const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];
/** The admin keeps the shared bank, visible to every tenant. */
const BANK_KEEPERS: readonly Role[] = [...MANAGERS, 'admin'];
const LEARNERS: readonly Role[] = LEARNER_ROLES;

/** Question bank, pre/post tests, taking a test and the results (spec 02 §7 'Question bank and assessments'). */
export const ASSESSMENT_CALLS = {
  getQuestionBank: call(
    'get-question-bank',
    BANK_KEEPERS,
    'The caller’s bank plus the shared (admin) bank; paged, searchable by question, category or language, filterable by language and level.',
    a.questionBankRequest,
    a.questionBankPage,
  ),
  uploadQuestionBank: call(
    'upload-question-bank',
    BANK_KEEPERS,
    'Add questions from an .xls/.xlsx file (/download-template {type: question-bank}); all rows or none; a question already in the bank (same language and text) or repeated in the file is refused.',
    uploadRequest,
    importResponse,
    { multipart: true },
  ),
  addQuestion: call(
    'add-question',
    BANK_KEEPERS,
    'Add one question to the caller’s bank.',
    a.addQuestionRequest,
    a.questionSaved,
  ),
  updateQuestion: call(
    'update-question',
    BANK_KEEPERS,
    'Edit one question of the caller’s bank (shared questions are read-only for tenants).',
    a.updateQuestionRequest,
    a.questionSaved,
  ),
  deleteQuestion: call(
    'delete-question',
    BANK_KEEPERS,
    'Delete one question of the caller’s bank; refused while a test uses it.',
    a.questionIdRequest,
    a.bankMessage,
  ),
  getLanguageIdentified: call(
    'get-language-identified',
    BANK_KEEPERS,
    'The languages present in the caller’s bank and the shared bank.',
    empty,
    a.languagesResponse,
  ),
  addRandomQuestions: call(
    'add-random-questions',
    MANAGERS,
    'Build (or rebuild, while no learner has started it) the pre (type 1) or post (type 2) test of a training from questions picked by hand.',
    a.addRandomQuestionsRequest,
    a.assessmentSaved,
  ),
  addAutomaticQuestions: call(
    'add-automatic-questions',
    MANAGERS,
    'Build a test drawn by the server per learner (own questions and order, reproducible from a stored seed) from counts per level in one language; refused when the bank cannot fill a count.',
    a.addAutomaticQuestionsRequest,
    a.assessmentSaved,
  ),
  getAssessmentQuestions: call(
    'get-assessment-questions',
    MANAGERS,
    'The pre or post test of a training of the caller’s tenant (null when none was built).',
    a.assessmentQuestionsRequest,
    a.assessmentQuestionsResponse,
  ),

  lpuGetAssessments: call(
    'lpu/get-assessments',
    LEARNERS,
    'The tests of a training the learner is enrolled in, with the learner’s status and score.',
    a.resultsRequest,
    a.myAssessmentsResponse,
  ),
  lpuStartAssessment: call(
    'lpu/start-assessment',
    LEARNERS,
    'Start the pre or post test, or resume the attempt in progress with the time really left; never sends the correct options.',
    a.takeAssessmentRequest,
    a.attemptView,
  ),
  lpuSaveAssessmentAnswer: call(
    'lpu/save-assessment-answer',
    LEARNERS,
    'Save one answer of the attempt in progress; refused after the deadline.',
    a.answerRequest,
    a.answerResponse,
  ),
  lpuSubmitAssessment: call(
    'lpu/submit-assessment',
    LEARNERS,
    'Submit the attempt with what was answered; answers the score.',
    a.attemptIdRequest,
    a.attemptResult,
  ),
  lpuAssessmentResult: call(
    'lpu/assessment-result',
    LEARNERS,
    'The learner’s last submitted attempt of the pre or post test: the score, and which answers were right when the manager allows it.',
    a.assessmentResultRequest,
    a.attemptResult,
  ),

  getAssessmentResults: call(
    'get-assessment-results',
    MANAGERS,
    'Per learner the pre and post score and the gain, the class averages and per question how many got it right.',
    a.resultsRequest,
    a.resultsResponse,
  ),
  getSessionBundle: call(
    'get-session-bundle',
    MANAGERS,
    'A training’s outcome in one place: per learner the attended minutes, pre and post percent and the gain (paged), and the training’s recordings.',
    a.sessionBundleRequest,
    a.sessionBundlePage,
  ),
  exportAssessmentResults: call(
    'export-assessment-results',
    MANAGERS,
    'The results of a training as an .xlsx attachment (sheets Learners and Questions).',
    a.resultsRequest,
    a.fileResponse,
  ),
  allowAssessmentRetake: call(
    'allow-assessment-retake',
    MANAGERS,
    'Allow a learner one more attempt at the pre or post test.',
    a.allowRetakeRequest,
    a.bankMessage,
  ),
  setAssessmentTimeExtension: call(
    'set-assessment-time-extension',
    MANAGERS,
    'Give an enrolled learner extra time on the training’s pre and post tests, in percent of each test’s time (0–200; 0 removes it). Applies to attempts started afterwards.',
    a.setTimeExtensionRequest,
    a.bankMessage,
  ),
  getAssessmentTimeExtensions: call(
    'get-assessment-time-extensions',
    MANAGERS,
    'The learners of a training who have extra time on its tests; paged, searchable by name or email.',
    a.timeExtensionsRequest,
    a.timeExtensionsPage,
  ),
};
