import { CERT_MSG, MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificates, syllabusTopics, trainings } from '../src/db/schema';
import { attend, createTraining, enrol, pdfText } from './certificates-fixtures';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

async function setup(opts: { allowed?: boolean; minPercent?: number } = {}) {
  const provider = await t.loginAs({ role: 'provider', first_name: 'Acme', last_name: 'Academy' });
  if (opts.minPercent !== undefined) {
    const res = await t.post(
      'update-certificate-settings',
      {
        issuer_name: 'Acme Academy Pvt. Ltd.',
        signatory_name: 'Meera Kulkarni',
        signatory_title: 'Head of Training',
        min_attendance_percent: opts.minPercent,
      },
      provider.token,
    );
    expect(res.status).toBe(200);
  }
  const training = await createTraining(t, { owner_user_id: provider.user.id, name: 'Python Basics' });
  const learner = await t.loginAs({
    role: 'provider_user',
    provider_id: provider.user.id,
    first_name: 'Asha',
    last_name: 'Rao',
  });
  const enrolment = await enrol(t, training.id, learner.user.id, {
    is_download_certificate: opts.allowed === false ? 0 : 1,
  });
  return { provider, training, learner, enrolment };
}

async function pdf(slug: string, token?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/certificate-pdf',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: { slug },
  });
}

describe('lpu/download-certificate', () => {
  it('lists the learner’s certificate, issuing its ref_no once', async () => {
    const { training, learner, enrolment } = await setup();
    const res = await t.post('lpu/download-certificate', { slug: training.slug }, learner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      list: [
        {
          user_name: 'Asha Rao',
          training_name: 'Python Basics',
          ref_no: expect.stringMatching(/^TL-\d{4}-[A-Z0-9]{6}$/),
        },
      ],
    });
    const again = await t.post('lpu/download-certificate', { slug: training.slug }, learner.token);
    expect(again.body.list[0].ref_no).toBe(res.body.list[0].ref_no);
    const rows = await t.deps.db.select().from(certificates).where(eq(certificates.training_user_id, enrolment.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.issuer_name).toBe('Acme Academy');
  });

  it('401 without a session, 422 without a slug', async () => {
    expect((await t.post('lpu/download-certificate', { slug: 'x' })).status).toBe(401);
    const { learner } = await setup();
    expect(await t.post('lpu/download-certificate', {}, learner.token)).toEqual({
      status: 422,
      body: { slug: ['The slug field is required.'] },
    });
  });

  it('404 for a training the caller is not enrolled in (another learner, a manager, an unknown slug)', async () => {
    const { training, provider } = await setup();
    const other = await t.loginAs({ role: 'provider_user' });
    expect((await t.post('lpu/download-certificate', { slug: training.slug }, other.token)).status).toBe(404);
    expect((await t.post('lpu/download-certificate', { slug: training.slug }, provider.token)).status).toBe(404);
    expect((await t.post('lpu/download-certificate', { slug: 'nope' }, other.token)).status).toBe(404);
  });

  it('403 when the provider has not allowed the download', async () => {
    const { training, learner } = await setup({ allowed: false });
    expect(await t.post('lpu/download-certificate', { slug: training.slug }, learner.token)).toEqual({
      status: 403,
      body: { message: CERT_MSG.downloadNotAllowed, code: 'forbidden' },
    });
    expect((await pdf(training.slug, learner.token)).statusCode).toBe(403);
  });

  it('403 when attendance is below the tenant’s minimum (no syllabus: total_training_day x 8 h)', async () => {
    const { training, learner, enrolment } = await setup({ minPercent: 50 });
    // 2 days x 480 min = 960 scheduled; 100 attended = 10 %
    await attend(t, enrolment, 100);
    expect(await t.post('lpu/download-certificate', { slug: training.slug }, learner.token)).toEqual({
      status: 403,
      body: { message: CERT_MSG.attendanceTooLow(10, 50), code: 'forbidden' },
    });
    await attend(t, enrolment, 380); // 480 / 960 = 50 %
    expect((await t.post('lpu/download-certificate', { slug: training.slug }, learner.token)).status).toBe(200);
  });

  it('with a syllabus, the topics’ minutes are the schedule', async () => {
    const { training, learner, enrolment } = await setup({ minPercent: 75 });
    await t.deps.db.insert(syllabusTopics).values([
      { training_id: training.id, session_topic: 'Intro', no_of_min: 60 },
      { training_id: training.id, session_topic: 'Loops', no_of_min: 60 },
    ]);
    await attend(t, enrolment, 60); // 50 %
    expect((await t.post('lpu/download-certificate', { slug: training.slug }, learner.token)).body).toEqual({
      message: CERT_MSG.attendanceTooLow(50, 75),
      code: 'forbidden',
    });
    await attend(t, enrolment, 30); // 75 %
    expect((await t.post('lpu/download-certificate', { slug: training.slug }, learner.token)).status).toBe(200);
  });
});

describe('certificate-pdf', () => {
  it('answers the PDF as an attachment with the real names, dates, issuer and ref no', async () => {
    const { training, learner } = await setup({ minPercent: 0 });
    const res = await pdf(training.slug, learner.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="certificate-TL-\d{4}-[A-Z0-9]{6}-Asha-Rao\.pdf"$/,
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    const [c] = await t.deps.db.select().from(certificates).where(eq(certificates.user_name, 'Asha Rao'));
    for (const s of [
      'Certificate of Completion',
      'Asha Rao',
      'Python Basics',
      'held from 18 April 2026 to 6 May 2026',
      'Acme Academy Pvt. Ltd.',
      'Meera Kulkarni',
      'Head of Training',
    ]) {
      expect(text).toContain(s);
    }
    const refs = (await t.deps.db.select().from(certificates)).map((r) => r.ref_no);
    expect(refs.some((r) => text.includes(`Certificate No. ${r}`))).toBe(true);
    expect(c).toBeTruthy();
  });

  it('401 and 404 as the list call', async () => {
    expect((await pdf('x')).statusCode).toBe(401);
    const other = await t.loginAs({ role: 'provider_user' });
    const { training } = await setup();
    expect((await pdf(training.slug, other.token)).statusCode).toBe(404);
  });
});

describe('verify-certificates', () => {
  it('is public: the printed facts, or 404 NO Certificate Found', async () => {
    const { training, learner } = await setup();
    const ref = (await t.post('lpu/download-certificate', { slug: training.slug }, learner.token)).body.list[0].ref_no;
    const res = await t.post('verify-certificates', { ref_no: ref.toLowerCase() });
    expect(res).toEqual({
      status: 200,
      body: {
        success: {
          user_name: 'Asha Rao',
          training_name: 'Python Basics',
          issuer_name: 'Acme Academy',
          start_date: '2026-04-18T09:30:00.000Z',
          end_date: '2026-05-06T17:00:00.000Z',
          issued_at: expect.any(String),
          ref_no: ref,
        },
      },
    });
    // the printed facts stay as issued when the training changes later
    await t.deps.db.update(trainings).set({ name: 'Renamed' }).where(eq(trainings.id, training.id));
    expect((await t.post('verify-certificates', { ref_no: ref })).body.success.training_name).toBe('Python Basics');

    expect(await t.post('verify-certificates', { ref_no: 'TL-2026-NOPE00' })).toEqual({
      status: 404,
      body: { message: MSG.noCertificateFound, code: 'not_found' },
    });
    expect(await t.post('verify-certificates', {})).toEqual({
      status: 422,
      body: { ref_no: ['The ref no field is required.'] },
    });
  });
});
