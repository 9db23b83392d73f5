import { CERT_MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, trainingUsers } from '../src/db/schema';
import { EMAIL_JOB } from '../src/domains/certificates/service';
import { runDueJobs } from '../src/platform/jobs';
import { attend, createTraining, enrol, pdfText } from './certificates-fixtures';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

const MANAGERS = ['provider', 'organization', 'org_subadmin'] as const;
const settings = {
  issuer_name: 'Acme Academy Pvt. Ltd.',
  signatory_name: 'Meera Kulkarni',
  signatory_title: 'Head of Training',
  min_attendance_percent: 0,
};

async function orgTeam() {
  const org = await t.createOrganization({ name: 'Globex Corp' });
  const owner = await t.loginAs({ role: 'organization', organization_id: org.id });
  const subadmin = await t.loginAs({ role: 'org_subadmin', organization_id: org.id });
  return { org, owner, subadmin };
}

async function learnerIn(trainingId: number, first: string, allowed = 1) {
  const user = await t.createUser({ role: 'provider_user', first_name: first, last_name: 'Learner' });
  const enrolment = await enrol(t, trainingId, user.id, { is_download_certificate: allowed });
  return { user, enrolment };
}

describe('certificate settings', () => {
  it('401, 403 for other roles, on both calls', async () => {
    expect((await t.post('get-certificate-settings', {})).status).toBe(401);
    expect((await t.post('update-certificate-settings', settings)).status).toBe(401);
    for (const role of rolesExcept(...MANAGERS)) {
      const { token } = await t.loginAs({ role });
      expect((await t.post('get-certificate-settings', {}, token)).status).toBe(403);
      expect((await t.post('update-certificate-settings', settings, token)).status).toBe(403);
    }
  });

  it('defaults to the provider’s name; an update is read back and kept per tenant', async () => {
    const a = await t.loginAs({ role: 'provider', first_name: 'Acme', last_name: 'Academy' });
    const b = await t.loginAs({ role: 'provider', first_name: 'Other', last_name: 'Provider' });
    expect((await t.post('get-certificate-settings', {}, a.token)).body).toEqual({
      success: {
        issuer_name: 'Acme Academy',
        signatory_name: 'Acme Academy',
        signatory_title: 'Authorised Signatory',
        min_attendance_percent: 0,
        min_post_score_percent: 0,
      },
    });
    expect(await t.post('update-certificate-settings', { ...settings, min_attendance_percent: '60' }, a.token)).toEqual(
      {
        status: 200,
        body: { message: CERT_MSG.settingsUpdated },
      },
    );
    expect((await t.post('get-certificate-settings', {}, a.token)).body.success).toEqual({
      ...settings,
      min_attendance_percent: 60,
      min_post_score_percent: 0,
    });
    await t.post('update-certificate-settings', { ...settings, signatory_name: 'Second' }, a.token);
    expect((await t.post('get-certificate-settings', {}, a.token)).body.success.signatory_name).toBe('Second');
    expect((await t.post('get-certificate-settings', {}, b.token)).body.success.issuer_name).toBe('Other Provider');
  });

  it('an organization and its sub-admins share one setting; the default issuer is the organization', async () => {
    const { owner, subadmin } = await orgTeam();
    expect((await t.post('get-certificate-settings', {}, subadmin.token)).body.success.issuer_name).toBe('Globex Corp');
    await t.post('update-certificate-settings', { ...settings, issuer_name: 'Globex Learning' }, subadmin.token);
    expect((await t.post('get-certificate-settings', {}, owner.token)).body.success.issuer_name).toBe(
      'Globex Learning',
    );
  });

  it('422 for each field', async () => {
    const { token } = await t.loginAs({ role: 'provider' });
    expect((await t.post('update-certificate-settings', {}, token)).body).toEqual({
      issuer_name: ['The issuer name field is required.'],
      signatory_name: ['The signatory name field is required.'],
      signatory_title: ['The signatory title field is required.'],
      min_attendance_percent: ['The min attendance percent must be a number.'],
    });
    expect(
      (await t.post('update-certificate-settings', { ...settings, min_attendance_percent: 101 }, token)).body,
    ).toEqual({ min_attendance_percent: ['The min attendance percent must not be greater than 100.'] });
    expect(
      (await t.post('update-certificate-settings', { ...settings, min_attendance_percent: 'abc' }, token)).body,
    ).toEqual({ min_attendance_percent: ['The min attendance percent must be a number.'] });
  });
});

describe('lpu/send-certificate-email', () => {
  it('queues the e-mail, sets send_email_certificate = 1, and the job mails the PDF as an attachment', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    await t.post('update-certificate-settings', settings, provider.token);
    const training = await createTraining(t, { owner_user_id: provider.user.id, name: 'Data Science 101' });
    const { user, enrolment } = await learnerIn(training.id, 'Ravi', 0);
    const res = await t.post('lpu/send-certificate-email', { t_id: training.id, u_id: user.id }, provider.token);
    expect(res).toEqual({ status: 200, body: { message: CERT_MSG.emailQueued } });
    const [e] = await t.deps.db.select().from(trainingUsers).where(eq(trainingUsers.id, enrolment.id));
    expect(e!.send_email_certificate).toBe(1);
    expect((await t.outbox()).filter((m) => m.to === user.email)).toHaveLength(0);

    expect(await runDueJobs(t.deps, { kinds: [EMAIL_JOB] })).toMatchObject({ done: 1 });
    const [mail] = (await t.outbox()).filter((m) => m.to === user.email);
    expect(mail!.subject).toBe('Your certificate: Data Science 101');
    expect(mail!.text).toMatch(/Attachments: certificate-TL-\d{4}-[A-Z0-9]{6}-Ravi-Learner\.pdf \(\d+ bytes\)/);
    expect(mail!.text).toContain('http://app.test/certificate/verify/TL-');
  });

  it('a failing mailer never fails the request; the job is retried until it goes through', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    const training = await createTraining(t, { owner_user_id: provider.user.id });
    const { user } = await learnerIn(training.id, 'Kiran');
    const realMail = t.deps.mail;
    const sent: { attachments?: { filename: string; content: Uint8Array }[] }[] = [];
    let fail = true;
    t.deps.mail = {
      kind: 'smtp',
      send: async (m) => {
        if (fail) throw new Error('SMTP down');
        sent.push(m);
      },
    };
    try {
      const res = await t.post('lpu/send-certificate-email', { t_id: training.id, u_id: user.id }, provider.token);
      expect(res.status).toBe(200);
      expect(await runDueJobs(t.deps, { kinds: [EMAIL_JOB] })).toMatchObject({ retried: 1 });
      const [job] = await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'certificates.email')).orderBy(jobs.id);
      const last = (await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'certificates.email'))).at(-1)!;
      expect(last).toMatchObject({ status: 'queued', attempts: 1, last_error: 'SMTP down' });
      expect(job).toBeTruthy();
      fail = false;
      await t.deps.db
        .update(jobs)
        .set({ run_at: new Date(Date.now() - 1000) })
        .where(eq(jobs.id, last.id));
      expect(await runDueJobs(t.deps, { kinds: [EMAIL_JOB] })).toMatchObject({ done: 1 });
      expect(sent).toHaveLength(1);
      const attachment = sent[0]?.attachments?.[0];
      if (!attachment) throw new Error('no attachment');
      expect(attachment.filename).toMatch(/\.pdf$/);
      expect(pdfText(attachment.content)).toContain('Kiran Learner');
    } finally {
      t.deps.mail = realMail;
    }
  });

  it('401, 403 for other roles, 422 per field', async () => {
    expect((await t.post('lpu/send-certificate-email', { t_id: 1, u_id: 1 })).status).toBe(401);
    for (const role of rolesExcept(...MANAGERS)) {
      const { token } = await t.loginAs({ role });
      expect((await t.post('lpu/send-certificate-email', { t_id: 1, u_id: 1 }, token)).status).toBe(403);
    }
    const { token } = await t.loginAs({ role: 'provider' });
    expect((await t.post('lpu/send-certificate-email', {}, token)).body).toEqual({
      t_id: ['The t id field is required.'],
      u_id: ['The u id field is required.'],
    });
  });

  it('404 for another tenant’s training or a user not enrolled; org sub-admins act for their organization', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    const stranger = await t.loginAs({ role: 'provider' });
    const { org, subadmin } = await orgTeam();
    const other = await orgTeam();
    const own = await createTraining(t, { owner_user_id: provider.user.id });
    const orgTraining = await createTraining(t, { organization_id: org.id });
    const a = await learnerIn(own.id, 'A');
    const b = await learnerIn(orgTraining.id, 'B');
    expect((await t.post('lpu/send-certificate-email', { t_id: own.id, u_id: a.user.id }, stranger.token)).status).toBe(
      404,
    );
    expect((await t.post('lpu/send-certificate-email', { t_id: own.id, u_id: a.user.id }, subadmin.token)).status).toBe(
      404,
    );
    expect((await t.post('lpu/send-certificate-email', { t_id: own.id, u_id: b.user.id }, provider.token)).status).toBe(
      404,
    );
    expect(
      (await t.post('lpu/send-certificate-email', { t_id: orgTraining.id, u_id: b.user.id }, other.subadmin.token))
        .status,
    ).toBe(404);
    expect(
      (await t.post('lpu/send-certificate-email', { t_id: orgTraining.id, u_id: b.user.id }, subadmin.token)).status,
    ).toBe(200);
  });
});

describe('download-training-certificates', () => {
  async function zipOf(slug: string, token?: string) {
    return t.app.inject({
      method: 'POST',
      url: '/api/download-training-certificates',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload: { slug },
    });
  }

  it('a ZIP with one PDF per learner allowed to download (right given and attendance enough)', async () => {
    const { org, owner } = await orgTeam();
    await t.post('update-certificate-settings', { ...settings, min_attendance_percent: 50 }, owner.token);
    const training = await createTraining(t, { organization_id: org.id, total_training_day: 1 });
    const ok1 = await learnerIn(training.id, 'Anita');
    const ok2 = await learnerIn(training.id, 'Bharat');
    const noRight = await learnerIn(training.id, 'Chitra', 0);
    const lowAttendance = await learnerIn(training.id, 'Dev');
    await attend(t, ok1.enrolment, 480);
    await attend(t, ok2.enrolment, 240);
    await attend(t, noRight.enrolment, 480);
    await attend(t, lowAttendance.enrolment, 100);

    const res = await zipOf(training.slug, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="certificates-${training.slug}.zip"`);
    const zip = await JSZip.loadAsync(res.rawPayload);
    const names = Object.keys(zip.files);
    expect(names).toHaveLength(2);
    const anita = names.find((n) => n.endsWith('-Anita-Learner.pdf'));
    expect(anita).toMatch(/^certificate-TL-\d{4}-[A-Z0-9]{6}-Anita-Learner\.pdf$/);
    expect(names.some((n) => n.endsWith('-Bharat-Learner.pdf'))).toBe(true);
    const file = zip.file(anita ?? '');
    if (!file) throw new Error('no PDF for Anita');
    const text = pdfText(await file.async('uint8array'));
    expect(text).toContain('Anita Learner');
    expect(text).toContain('Acme Academy Pvt. Ltd.');
  });

  it('404 when nobody may download yet, for another tenant’s training and an unknown slug', async () => {
    const provider = await t.loginAs({ role: 'provider' });
    const stranger = await t.loginAs({ role: 'provider' });
    const training = await createTraining(t, { owner_user_id: provider.user.id });
    await learnerIn(training.id, 'Nobody', 0);
    const none = await zipOf(training.slug, provider.token);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: CERT_MSG.noCertificates, code: 'not_found' });
    await learnerIn(training.id, 'Someone');
    expect((await zipOf(training.slug, provider.token)).statusCode).toBe(200);
    expect((await zipOf(training.slug, stranger.token)).statusCode).toBe(404);
    expect((await zipOf('no-such-slug', provider.token)).statusCode).toBe(404);
  });

  it('401, 403 for other roles, 422', async () => {
    expect((await zipOf('x')).statusCode).toBe(401);
    for (const role of rolesExcept(...MANAGERS)) {
      const { token } = await t.loginAs({ role });
      expect((await zipOf('x', token)).statusCode).toBe(403);
    }
    const { token } = await t.loginAs({ role: 'provider' });
    expect((await t.post('download-training-certificates', {}, token)).body).toEqual({
      slug: ['The slug field is required.'],
    });
  });
});
