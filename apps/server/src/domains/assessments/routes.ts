import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { questions } from '../../db/schema';
import { audited, importTarget } from '../../platform/audit';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { myAssessments, myResult, saveAnswer, startAttempt, submitAttempt } from './attempt';
import { addQuestion, deleteQuestion, languages, questionBank, updateQuestion, uploadBank } from './bank';
import { addAutomatic, addRandom, assessmentQuestionsFor } from './build';
import { allowRetake, exportResults, trainingResults } from './results';
import { sessionBundle } from './session-bundle';
import { setTimeExtension, timeExtensions } from './time-extensions';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Question bank and assessments (spec 02 §7 'Question bank and assessments'). */
export function assessmentRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.getQuestionBank, ({ body, auth }) => questionBank(deps, auth, body), {
    cache: { tables: ['questions'] },
  });
  defineCall(
    app,
    deps,
    API.uploadQuestionBank,
    audited(API.uploadQuestionBank, importTarget('question-import'), ({ auth, request }) =>
      uploadBank(deps, auth, request),
    ),
  );
  defineCall(
    app,
    deps,
    API.addQuestion,
    audited(API.addQuestion, { type: 'question' }, ({ body, auth }) => addQuestion(deps, auth, body)),
  );
  defineCall(
    app,
    deps,
    API.updateQuestion,
    audited(API.updateQuestion, { type: 'question', table: questions, key: 'id' }, ({ body, auth }) =>
      updateQuestion(deps, auth, body),
    ),
  );
  defineCall(
    app,
    deps,
    API.deleteQuestion,
    audited(API.deleteQuestion, { type: 'question', table: questions, key: 'id' }, ({ body, auth }) =>
      deleteQuestion(deps, auth, body.id),
    ),
  );
  defineCall(app, deps, API.getLanguageIdentified, ({ auth }) => languages(deps, auth));

  defineCall(
    app,
    deps,
    API.addRandomQuestions,
    audited(API.addRandomQuestions, { type: 'assessment', key: 'slug' }, ({ body, auth }) =>
      addRandom(deps, auth, body),
    ),
  );
  defineCall(
    app,
    deps,
    API.addAutomaticQuestions,
    audited(API.addAutomaticQuestions, { type: 'assessment', key: 'slug' }, ({ body, auth }) =>
      addAutomatic(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.getAssessmentQuestions, ({ body, auth }) => assessmentQuestionsFor(deps, auth, body));

  defineCall(app, deps, API.lpuGetAssessments, ({ body, auth }) => myAssessments(deps, auth, body.slug));
  defineCall(app, deps, API.lpuStartAssessment, ({ body, auth }) => startAttempt(deps, auth, body));
  defineCall(app, deps, API.lpuSaveAssessmentAnswer, ({ body, auth }) => saveAnswer(deps, auth, body));
  defineCall(app, deps, API.lpuSubmitAssessment, ({ body, auth }) => submitAttempt(deps, auth, body.attempt_id));
  defineCall(app, deps, API.lpuAssessmentResult, ({ body, auth }) => myResult(deps, auth, body));

  defineCall(app, deps, API.getSessionBundle, ({ auth, body }) => sessionBundle(deps, auth, body));
  defineCall(app, deps, API.getAssessmentResults, ({ body, auth }) => trainingResults(deps, auth, body.slug));
  defineCall(app, deps, API.exportAssessmentResults, async ({ body, auth, reply }) => {
    const file = await exportResults(deps, auth, body.slug);
    reply.type(XLSX_TYPE).header('content-disposition', `attachment; filename="${file.fileName}"`);
    return Buffer.from(file.bytes);
  });
  defineCall(
    app,
    deps,
    API.allowAssessmentRetake,
    audited(API.allowAssessmentRetake, { type: 'assessment', key: 'slug' }, ({ body, auth }) =>
      allowRetake(deps, auth, body),
    ),
  );
  defineCall(
    app,
    deps,
    API.setAssessmentTimeExtension,
    audited(API.setAssessmentTimeExtension, { type: 'assessment', key: 'slug' }, ({ body, auth }) =>
      setTimeExtension(deps, auth, body),
    ),
  );
  defineCall(app, deps, API.getAssessmentTimeExtensions, ({ body, auth }) => timeExtensions(deps, auth, body));
}
