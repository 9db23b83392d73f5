import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessedTraining, BANK_HEADER, bankRow, question, uploadBank } from './assessments-fixtures';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let admin: string;
let provider: string;
let organization: string;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  admin = (await t.loginAs({ role: 'admin' })).token;
  provider = (await t.loginAs({ role: 'provider' })).token;
  organization = (await t.loginAs({ role: 'organization', organization_id: (await t.createOrganization()).id })).token;
});
afterAll(() => t.close());

const ids = (res: { body: { list: { id: number }[] } }) => res.body.list.map((q) => q.id);

describe('the shared question bank', () => {
  it('the admin publishes by upload and by single question, and edits and deletes its own', async () => {
    const up = await uploadBank(
      t,
      [BANK_HEADER, bankRow('Shared upload one', 1), bankRow('Shared upload two', 2)],
      admin,
    );
    expect(up).toEqual({ status: 200, body: { message: 'Record Added Successfully!', count: 2 } });
    const one = await t.post('add-question', question({ question: 'Shared single' }), admin);
    expect(one.status).toBe(200);
    expect(one.body.success.shared).toBe(1);
    const edited = await t.post(
      'update-question',
      { ...question({ question: 'Shared single, edited' }), id: one.body.success.id },
      admin,
    );
    expect(edited.status).toBe(200);
    const list = await t.post('get-question-bank', { search: 'Shared', sort: 'question' }, admin);
    expect(list.body.list.map((q: { question: string; shared: number }) => [q.question, q.shared])).toEqual([
      ['Shared single, edited', 1],
      ['Shared upload one', 1],
      ['Shared upload two', 1],
    ]);
    const scratch = await t.post('add-question', question({ question: 'Shared scratch' }), admin);
    expect((await t.post('delete-question', { id: scratch.body.success.id }, admin)).status).toBe(200);
  });

  it("every tenant reads the shared bank and builds a test from it; the admin never sees a tenant's questions", async () => {
    const shared = (await t.post('add-question', question({ question: 'Published for all' }), admin)).body.success.id;
    const own = (await t.post('add-question', question({ question: 'Provider private' }), provider)).body.success.id;
    for (const token of [provider, organization])
      expect(ids(await t.post('get-question-bank', { search: 'Published for all' }, token))).toEqual([shared]);
    expect(ids(await t.post('get-question-bank', { search: 'Provider private' }, admin))).toEqual([]);
    expect(ids(await t.post('get-question-bank', { search: 'Provider private' }, organization))).toEqual([]);

    const tr = await assessedTraining(t, provider);
    const built = await t.post(
      'add-random-questions',
      { minute: 10, type: 1, slug: tr.slug, question_ids: [shared, own] },
      provider,
    );
    expect(built.status).toBe(200);
    const test = await t.post('get-assessment-questions', { training_id: tr.id, type: 1 }, provider);
    expect(JSON.stringify(test.body)).toContain('Published for all');
  });

  it('only the admin publishes: a tenant may not change or delete a shared question (404)', async () => {
    const shared = (await t.post('add-question', question({ question: 'Admin only edits' }), admin)).body.success.id;
    for (const token of [provider, organization]) {
      expect((await t.post('update-question', { ...question(), id: shared }, token)).status).toBe(404);
      expect((await t.post('delete-question', { id: shared }, token)).status).toBe(404);
    }
    // what a tenant adds goes to its own bank, never to the shared one
    const mine = await t.post('add-question', question({ question: 'Tenant added' }), provider);
    expect(mine.body.success.shared).toBe(0);
    const other = (await t.loginAs({ role: 'provider' })).token;
    expect(ids(await t.post('get-question-bank', { search: 'Tenant added' }, other))).toEqual([]);
  });

  it('learners and trainers may not reach the bank (403)', async () => {
    for (const role of ['user', 'trainer'] as const) {
      const who = await t.loginAs({ role });
      expect((await t.post('get-question-bank', {}, who.token)).status).toBe(403);
      expect((await t.post('add-question', question(), who.token)).status).toBe(403);
    }
  });
});

describe('the default order over the two banks', () => {
  it('pages newest first across the tenant’s bank and the shared one, interleaved, with no row repeated or lost', async () => {
    const own = (await t.loginAs({ role: 'provider' })).token;
    const other = (await t.loginAs({ role: 'provider' })).token;
    const before = ids(await t.post('get-question-bank', { per_page: 100 }, own));
    // 23 of the tenant's, 12 shared and 10 of another tenant's (never shown), added in turn
    const added: number[] = [];
    for (let i = 0; i < 23; i++) {
      added.push((await t.post('add-question', question({ question: `Own newest ${i}` }), own)).body.success.id);
      if (i % 2 === 0) {
        added.push((await t.post('add-question', question({ question: `Shared newest ${i}` }), admin)).body.success.id);
      }
      if (i < 10) await t.post('add-question', question({ question: `Other tenant ${i}` }), other);
    }
    const expected = [...before, ...added].sort((a, b) => b - a);
    const first = await t.post('get-question-bank', {}, own);
    const second = await t.post('get-question-bank', { page: 2 }, own);
    expect(first.body.total).toBe(expected.length);
    expect(ids(first)).toEqual(expected.slice(0, 20));
    expect(ids(second)).toEqual(expected.slice(20, 40));
  });
});
