import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessedTraining, BANK_HEADER, bankRow, question, seedBank, uploadBank } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded } from './org-fixtures';
import { makeTraining } from './trainings-fixtures';

let t: TestApp;
let provider: string;
let other: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  provider = (await t.loginAs({ role: 'provider' })).token;
  other = (await t.loginAs({ role: 'provider' })).token;
  admin = (await t.loginAs({ role: 'admin' })).token;
});
afterAll(() => t.close());

describe('access', () => {
  it('401 without a token and 403 for every role that may not call', async () => {
    await expectGuarded(
      t,
      [
        'get-question-bank',
        'upload-question-bank',
        'add-question',
        'update-question',
        'delete-question',
        'get-language-identified',
      ],
      ['provider', 'organization', 'org_subadmin', 'admin'],
      { id: 1 },
    );
    await expectGuarded(
      t,
      [
        'add-random-questions',
        'add-automatic-questions',
        'get-assessment-questions',
        'get-assessment-results',
        'export-assessment-results',
        'allow-assessment-retake',
      ],
      ['provider', 'organization', 'org_subadmin'],
      { slug: 'x' },
    );
    await expectGuarded(
      t,
      [
        'lpu/get-assessments',
        'lpu/start-assessment',
        'lpu/save-assessment-answer',
        'lpu/submit-assessment',
        'lpu/assessment-result',
      ],
      ['provider_user', 'organization_user', 'user'],
      { slug: 'x' },
    );
  });
});

describe('POST /api/add-question, /api/update-question, /api/delete-question', () => {
  it('adds, edits and deletes a question of the caller’s bank', async () => {
    const add = await t.post(
      'add-question',
      question({ question: 'Which object runs containers?', level: 'advance' }),
      provider,
    );
    expect(add.status).toBe(200);
    expect(add.body.message).toBe('Record Added Successfully!');
    expect(add.body.success).toMatchObject({
      question: 'Which object runs containers?',
      level: 'Advanced',
      correct_option: 2,
      shared: 0,
    });
    const id = add.body.success.id;
    const upd = await t.post(
      'update-question',
      { ...question({ question: 'Which object runs a container?' }), id, correct_option: 'option3' },
      provider,
    );
    expect(upd.status).toBe(200);
    expect(upd.body.success).toMatchObject({ id, question: 'Which object runs a container?', correct_option: 3 });
    expect((await t.post('update-question', { ...question(), id }, other)).status).toBe(404);
    expect((await t.post('delete-question', { id }, other)).status).toBe(404);
    const del = await t.post('delete-question', { id }, provider);
    expect(del).toEqual({ status: 200, body: { message: 'Record deleted successfully!' } });
    expect((await t.post('delete-question', { id }, provider)).status).toBe(404);
  });

  it('422 per field, at the limits and one past them', async () => {
    const res = await t.post('add-question', {}, provider);
    expect(res.status).toBe(422);
    for (const f of [
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
    ]) {
      expect(res.body[f], f).toBeDefined();
    }
    expect(res.body.question).toEqual(['The question field is required.']);
    const bad = await t.post('add-question', question({ correct_option: 5, level: 'Expert' }), provider);
    expect(bad.body.correct_option).toEqual(['The correct option must be 1, 2, 3 or 4.']);
    expect(bad.body.level).toEqual(['The selected level is invalid.']);
    expect((await t.post('add-question', question({ correct_option: 0 }), provider)).status).toBe(422);
    expect((await t.post('add-question', question({ question: 'q'.repeat(2000) }), provider)).status).toBe(200);
    const long = await t.post('add-question', question({ question: 'x'.repeat(2001) }), provider);
    expect(long.body.question).toEqual(['The question must not be greater than 2000 characters.']);
    expect((await t.post('add-question', question({ option1: 'o'.repeat(500) }), provider)).status).toBe(200);
    expect((await t.post('add-question', question({ option1: 'o'.repeat(501) }), provider)).status).toBe(422);
  });

  it('refuses a duplicate (same language and text, ignoring case and spaces) in the same bank only', async () => {
    expect((await t.post('add-question', question({ question: 'What is   a Service?' }), provider)).status).toBe(200);
    const dup = await t.post('add-question', question({ question: 'what is a service?' }), provider);
    expect(dup.status).toBe(422);
    expect(dup.body.question).toEqual(['The question is already in the bank.']);
    expect((await t.post('add-question', question({ question: 'What is a Service?' }), other)).status).toBe(200);
    expect(
      (
        await t.post(
          'add-question',
          question({ question: 'What is a Service?', language_identified: 'Hindi' }),
          provider,
        )
      ).status,
    ).toBe(200);
  });

  it('a shared (admin) question is visible to tenants but read-only for them', async () => {
    const shared = await t.post(
      'add-question',
      question({ question: 'Shared: what is etcd?', language_identified: 'SharedLang' }),
      admin,
    );
    expect(shared.body.success.shared).toBe(1);
    const seen = await t.post('get-question-bank', { search: 'what is etcd' }, other);
    expect(seen.body.list.map((q: { id: number }) => q.id)).toContain(shared.body.success.id);
    expect((await t.post('update-question', { ...question(), id: shared.body.success.id }, provider)).status).toBe(404);
    expect((await t.post('delete-question', { id: shared.body.success.id }, provider)).status).toBe(404);
    expect((await t.post('get-language-identified', {}, other)).body.list).toContain('SharedLang');
  });
});

describe('POST /api/get-question-bank', () => {
  it('pages, searches and filters the caller’s bank; another tenant’s questions never show', async () => {
    const p = (await t.loginAs({ role: 'provider' })).token;
    await seedBank(t, p, 9, 'Paging');
    const first = await t.post('get-question-bank', { per_page: 10, level: 'Beginner' }, p);
    expect(first.status).toBe(200);
    expect(first.body.list.every((q: { level: string }) => q.level === 'Beginner')).toBe(true);
    const all = await t.post('get-question-bank', { per_page: 25, page: 1, search: 'Paging' }, p);
    expect(all.body).toMatchObject({ total: 27, page: 1, per_page: 25 });
    expect(all.body.list).toHaveLength(25);
    const second = await t.post('get-question-bank', { per_page: 25, page: 2, search: 'Paging' }, p);
    expect(second.body.list).toHaveLength(2);
    expect((await t.post('get-question-bank', { search: 'Paging' }, provider)).body.total).toBe(0);
    const sorted = await t.post('get-question-bank', { search: 'Paging Advanced', sort: '-question', per_page: 3 }, p);
    expect(sorted.body.list.map((q: { question: string }) => q.question)).toEqual([
      'Paging Advanced 8',
      'Paging Advanced 7',
      'Paging Advanced 6',
    ]);
    expect((await t.post('get-question-bank', { per_page: 101 }, p)).status).toBe(422);
    expect((await t.post('get-question-bank', { per_page: 100 }, p)).status).toBe(200);
    expect((await t.post('get-question-bank', { sort: 'correct_option' }, p)).status).toBe(422);
    expect((await t.post('get-question-bank', { level: 'Expert' }, p)).status).toBe(422);
  });
});

describe('POST /api/upload-question-bank', () => {
  it('imports every row of the template', async () => {
    const p = (await t.loginAs({ role: 'provider' })).token;
    const res = await uploadBank(
      t,
      [
        BANK_HEADER,
        bankRow('Upload one', 1),
        bankRow('Upload two', 'option4' as never, 'Intermediate'),
        bankRow('Upload three', 3, 'advanced', 'Hindi'),
      ],
      p,
    );
    expect(res).toEqual({ status: 200, body: { message: 'Record Added Successfully!', count: 3 } });
    const list = await t.post('get-question-bank', { search: 'Upload', sort: 'question' }, p);
    expect(
      list.body.list.map((q: { question: string; correct_option: number; level: string }) => [
        q.question,
        q.correct_option,
        q.level,
      ]),
    ).toEqual([
      ['Upload one', 1, 'Beginner'],
      ['Upload three', 3, 'Advanced'],
      ['Upload two', 4, 'Intermediate'],
    ]);
    expect((await t.post('get-language-identified', {}, p)).body.list).toEqual(
      expect.arrayContaining(['English', 'Hindi']),
    );
  });

  it('imports nothing when any row is invalid and reports each as row, attribute, errors; duplicates too', async () => {
    const p = (await t.loginAs({ role: 'provider' })).token;
    await t.post('add-question', question({ question: 'Already there' }), p);
    const res = await uploadBank(
      t,
      [
        BANK_HEADER,
        bankRow('Fine'),
        bankRow('Bad option', 7),
        bankRow('Already there'),
        bankRow('fine'),
        bankRow('', 1, 'Expert'),
      ],
      p,
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { row: 3, attribute: 'correct_option', errors: ['The correct option must be 1, 2, 3 or 4.'] },
      { row: 6, attribute: 'question', errors: ['The question field is required.'] },
      { row: 6, attribute: 'level', errors: ['The selected level is invalid.'] },
    ]);
    const dups = await uploadBank(t, [BANK_HEADER, bankRow('Fine'), bankRow('Already there'), bankRow('fine')], p);
    expect(dups.status).toBe(422);
    expect(dups.body.errors).toEqual([
      { row: 3, attribute: 'question', errors: ['The question is already in the bank.'] },
      { row: 4, attribute: 'question', errors: ['The question is repeated in the file (row 2).'] },
    ]);
    expect((await t.post('get-question-bank', { search: 'fine' }, p)).body.total).toBe(0);
  });

  it('422 for a missing file, a wrong type and missing columns; 401 without a token', async () => {
    const missing = await t.post('upload-question-bank', {}, provider);
    expect(missing.body.file).toEqual(['The file field is required.']);
    const wrong = await uploadBank(t, [BANK_HEADER, bankRow('x')], provider, 'bank.csv');
    expect(wrong.status).toBe(422);
    expect(wrong.body.file).toBeDefined();
    const cols = await uploadBank(t, [['question'], ['x']], provider);
    expect(cols.body.file[0]).toMatch(/missing the columns: language_identified/);
    expect((await uploadBank(t, [BANK_HEADER, bankRow('x')])).status).toBe(401);
  });

  it('the template is downloadable with the documented columns', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/download-template',
      headers: { authorization: `Bearer ${provider}` },
      payload: { type: 'question-bank' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('building tests', () => {
  it('/add-random-questions builds a pre-test from picked questions; /get-assessment-questions shows it', async () => {
    const ids = await seedBank(t, provider, 3, 'Random');
    const tr = await assessedTraining(t, provider);
    const picked = [ids.Advanced[0]!, ids.Beginner[1]!, ids.Intermediate[2]!];
    const res = await t.post(
      'add-random-questions',
      { minute: 20, type: 1, slug: tr.slug, question_ids: picked },
      provider,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Record Added Successfully!', total_questions: 3 });
    const got = await t.post('get-assessment-questions', { type: 1, training_id: tr.id }, provider);
    expect(got.body.success).toMatchObject({ type: 1, mode: 'random', minute: 20, total_questions: 3, attempts: 0 });
    expect(got.body.success.questions.map((q: { id: number }) => q.id)).toEqual(picked);
    expect((await t.post('get-assessment-questions', { type: 2, training_id: tr.id }, provider)).body).toEqual({
      success: null,
    });
    expect((await t.post('get-assessment-questions', { type: 1, training_id: tr.id }, other)).status).toBe(404);
    expect(
      (await t.post('add-random-questions', { minute: 20, type: 1, slug: tr.slug, question_ids: picked }, other))
        .status,
    ).toBe(404);
    // rebuilding before anyone started replaces it
    const again = await t.post(
      'add-random-questions',
      { minute: 300, type: 1, slug: tr.slug, question_ids: [picked[0]] },
      provider,
    );
    expect(again.status).toBe(200);
    expect(
      (await t.post('get-assessment-questions', { type: 1, training_id: tr.id }, provider)).body.success
        .total_questions,
    ).toBe(1);
  });

  it('/add-random-questions 422 per field and at the limits', async () => {
    const ids = await seedBank(t, provider, 1, 'RandomLimits');
    const tr = await assessedTraining(t, provider);
    const body = { minute: 30, type: 2, slug: tr.slug, question_ids: [ids.Beginner![0]] };
    const empty = await t.post('add-random-questions', {}, provider);
    expect(Object.keys(empty.body).sort()).toEqual(['minute', 'question_ids', 'slug', 'type']);
    expect((await t.post('add-random-questions', { ...body, minute: 0 }, provider)).body.minute).toBeDefined();
    expect((await t.post('add-random-questions', { ...body, minute: 301 }, provider)).body.minute).toEqual([
      'The minute must not be greater than 300.',
    ]);
    expect((await t.post('add-random-questions', { ...body, type: 3 }, provider)).body.type).toEqual([
      'The selected type is invalid.',
    ]);
    expect((await t.post('add-random-questions', { ...body, question_ids: [] }, provider)).body.question_ids).toEqual([
      'The question ids field is required.',
    ]);
    expect(
      (await t.post('add-random-questions', { ...body, question_ids: [ids.Beginner![0], ids.Beginner![0]] }, provider))
        .status,
    ).toBe(422);
    const foreign = (await t.post('add-question', question(), other)).body.success.id;
    expect(
      (await t.post('add-random-questions', { ...body, question_ids: [foreign] }, provider)).body.question_ids,
    ).toEqual(['The selected question ids is invalid.']);
    const plain = await makeTraining(t, provider);
    const notIncluded = await t.post('add-random-questions', { ...body, slug: plain.slug }, provider);
    expect(notIncluded.body.type).toEqual([
      "The training does not include a post-assessment. Switch it on first: 'Switch on post-assessment' on this page, or Edit in the training's menu on All Trainings.",
    ]);
    const tooMany = Array.from({ length: 201 }, (_, i) => i + 1);
    expect(
      (await t.post('add-random-questions', { ...body, question_ids: tooMany }, provider)).body.question_ids,
    ).toEqual(['The question ids must not have more than 200 items.']);
  });

  it('/add-automatic-questions accepts counts the bank can fill exactly and refuses one more', async () => {
    const p = (await t.loginAs({ role: 'provider' })).token;
    await seedBank(t, p, 4, 'Auto', 'Tamil');
    const tr = await assessedTraining(t, p);
    const body = {
      type: 2,
      languge_identified: 'tamil',
      beginner_question: 4,
      intermediate_question: 4,
      advanced_question: 4,
      slug: tr.slug,
    };
    const ok = await t.post('add-automatic-questions', body, p);
    expect(ok.status).toBe(200);
    expect(ok.body.total_questions).toBe(12);
    const def = await t.post('get-assessment-questions', { type: 2, training_id: tr.id }, p);
    expect(def.body.success).toMatchObject({
      mode: 'automatic',
      minute: 30,
      languge_identified: 'tamil',
      beginner_question: 4,
      questions: [],
    });
    const past = await t.post('add-automatic-questions', { ...body, intermediate_question: 5 }, p);
    expect(past.status).toBe(422);
    expect(past.body).toEqual({
      intermediate_question: ['The bank has only 4 Intermediate questions in this language.'],
    });
    const none = await t.post(
      'add-automatic-questions',
      { ...body, beginner_question: 0, intermediate_question: 0, advanced_question: 0 },
      p,
    );
    expect(none.body.beginner_question).toEqual(['Ask for at least one question.']);
    const req = await t.post('add-automatic-questions', {}, p);
    expect(Object.keys(req.body)).toEqual(expect.arrayContaining(['type', 'languge_identified', 'slug']));
    expect((await t.post('add-automatic-questions', body, other)).status).toBe(404);
  });
});
