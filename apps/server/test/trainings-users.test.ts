import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainingUsers, users } from '../src/db/schema';
import { ENROLMENT_MAIL_JOB } from '../src/domains/trainings/training-users';
import { runDueJobs } from '../src/platform/jobs';
import { createTestApp, type TestApp } from './helpers';
import { postMultipart } from './master-support';
import { expectGuarded, orgWithOwner, setPasswordFromMail } from './org-fixtures';
import { book, makeTraining, person } from './trainings-fixtures';

let t: TestApp;
let provider: string;
let providerId: number;
let otherProvider: string;
let org: string;
let orgId: number;
const MANAGERS = ['provider', 'organization', 'org_subadmin'] as const;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  const p = await t.loginAs({ role: 'provider' });
  provider = p.token;
  providerId = p.user.id;
  otherProvider = (await t.loginAs({ role: 'provider' })).token;
  const o = await orgWithOwner(t);
  org = o.token;
  orgId = o.organization.id;
});
afterAll(() => t.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const importFile = (slug: string | null, rows: (string | number | null)[][], token: string) =>
  postMultipart(
    t,
    'lp/import-training-user',
    [
      ...(slug === null ? [] : [{ name: 'slug', content: slug }]),
      { name: 'file', filename: 'users.xlsx', content: book(rows), contentType: XLSX },
    ],
    token,
  );
const HEADER = ['firstname', 'lastname', 'email', 'mobileno'];

describe('access', () => {
  it('401 and 403 for roles that may not manage training users', async () => {
    await expectGuarded(
      t,
      ['lp/add-training-user', 'lp/get-training-users', 'lpu/download-certificate-access', 'lp/import-training-user'],
      [...MANAGERS],
      { ...person(0), slug: 'x', id: 1 },
    );
  });
});

describe('POST /api/lp/add-training-user', () => {
  it('a new e-mail gets a provider_user account of the provider, a set-password link and the enrolment', async () => {
    const tr = await makeTraining(t, provider);
    const body = { ...person(1), slug: tr.slug };
    const res = await t.post('lp/add-training-user', body, provider);
    expect(res).toEqual({
      status: 200,
      body: { message: MSG.trainingUserAdded, id: expect.any(Number), user_id: expect.any(Number) },
    });
    const [account] = await t.deps.db.select().from(users).where(eq(users.id, res.body.user_id));
    expect(account).toMatchObject({
      roles: ['provider_user'],
      user_type: 4,
      provider_id: providerId,
      password_hash: null,
      status: 1,
      is_approved: 1,
    });
    const password = await setPasswordFromMail(t, body.email);
    const login = await t.post('login', { email: body.email, password });
    expect(login.status).toBe(200);
    const mine = await t.post('lpu/get-trainings', undefined, login.body.success.token);
    expect(mine.body.list.map((r: { slug: string }) => r.slug)).toEqual([tr.slug]);

    expect(await t.post('lp/add-training-user', { ...body, email: body.email.toUpperCase() }, provider)).toEqual({
      status: 422,
      body: { email: [MSG.trainingUserExists] },
    });
  });

  it('an organization’s new learner is an organization_user; an existing learner is enrolled and told by mail', async () => {
    const tr = await makeTraining(t, org);
    const res = await t.post('lp/add-training-user', { ...person(2), slug: tr.slug }, org);
    const [account] = await t.deps.db.select().from(users).where(eq(users.id, res.body.user_id));
    expect(account).toMatchObject({ roles: ['organization_user'], user_type: 5, organization_id: orgId });

    const existing = await t.createUser({ role: 'user' });
    const again = await t.post('lp/add-training-user', { ...person(3), email: existing.email, slug: tr.slug }, org);
    expect(again.status).toBe(200);
    expect(again.body.user_id).toBe(existing.id);
    const mail = (await t.outbox()).filter((m) => m.to === existing.email).at(-1)!;
    expect(mail.text).toContain('You have been enrolled in the training');
    expect(mail.text).not.toContain('/reset-password/');
  });

  it('422 for a non-learner account, for a full training, for each field; 404 for another tenant', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 1 });
    const trainer = await t.createUser({ role: 'trainer' });
    expect(
      await t.post('lp/add-training-user', { ...person(4), email: trainer.email, slug: tr.slug }, provider),
    ).toEqual({
      status: 422,
      body: { email: [MSG.trainingUserNotLearner] },
    });
    expect((await t.post('lp/add-training-user', { ...person(5), slug: tr.slug }, provider)).status).toBe(200);
    const full = await t.post('lp/add-training-user', { ...person(6), slug: tr.slug }, provider);
    expect(full).toEqual({ status: 422, body: { number_of_participants: [`${MSG.trainingFull} (1)`] } });
    expect((await t.post('lp/add-training-user', { ...person(7), slug: tr.slug }, otherProvider)).status).toBe(404);
    expect((await t.post('lp/add-training-user', {}, provider)).body).toEqual({
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      mobile_no: ['The mobile no field is required.'],
      email: ['The email field is required.'],
      slug: ['The slug field is required.'],
    });
    expect(
      (await t.post('lp/add-training-user', { ...person(8), email: 'nope', mobile_no: 'abc', slug: tr.slug }, provider))
        .body,
    ).toEqual({
      email: ['The email must be a valid email address.'],
      mobile_no: ['The mobile no must be a valid phone number.'],
    });
  });
});

describe('POST /api/lp/import-training-user', () => {
  it('imports every row (new and existing accounts) in one go, served by the training-user template', async () => {
    const tr = await makeTraining(t, provider);
    const existing = await t.createUser({ role: 'provider_user' });
    const a = person(10);
    const res = await importFile(
      tr.slug,
      [HEADER, [a.first_name, a.last_name, a.email, 9876543210], ['Old', 'Account', existing.email, '9876500000']],
      provider,
    );
    expect(res).toEqual({ status: 200, body: { message: MSG.recordAdded, count: 2 } });
    const list = await t.post('lp/get-training-users', { slug: tr.slug }, provider);
    expect(list.body.list.map((r: { email: string }) => r.email).sort()).toEqual([a.email, existing.email].sort());
    // the e-mails go out from a background job, not inside the request
    expect((await t.outbox()).some((m) => m.to === a.email)).toBe(false);
    expect(await runDueJobs(t.deps, { kinds: [ENROLMENT_MAIL_JOB] })).toMatchObject({ done: 1 });
    expect((await t.outbox()).some((m) => m.to === a.email && m.text.includes('/reset-password/'))).toBe(true);
    expect((await t.outbox()).some((m) => m.to === existing.email && m.subject.includes('You are enrolled'))).toBe(
      true,
    );

    const template = await t.app.inject({
      method: 'POST',
      url: '/api/download-template',
      headers: { authorization: `Bearer ${provider}` },
      payload: { type: 'training-user' },
    });
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toContain('spreadsheetml');
  });

  it('row errors (invalid, twice in the file, already enrolled) import nothing', async () => {
    const tr = await makeTraining(t, provider);
    const enrolled = person(11);
    await t.post('lp/add-training-user', { ...enrolled, slug: tr.slug }, provider);
    const dup = person(12);
    const res = await importFile(
      tr.slug,
      [
        HEADER,
        [dup.first_name, dup.last_name, dup.email, '9876543210'],
        [dup.first_name, dup.last_name, dup.email, '9876543210'],
        ['X', 'Y', enrolled.email, '9876543210'],
      ],
      provider,
    );
    expect(res).toEqual({
      status: 422,
      body: {
        errors: [
          { row: 3, attribute: 'email', errors: ['The email appears more than once in the file.'] },
          { row: 4, attribute: 'email', errors: [MSG.trainingUserExists] },
        ],
      },
    });
    const invalid = await importFile(tr.slug, [HEADER, ['', 'Y', 'bad', '9876543210']], provider);
    expect(invalid.body).toEqual({
      errors: [
        { row: 2, attribute: 'firstname', errors: ['The firstname field is required.'] },
        { row: 2, attribute: 'email', errors: ['The email must be a valid email address.'] },
      ],
    });
    const rows = await t.deps.db.select().from(trainingUsers).where(eq(trainingUsers.training_id, tr.id));
    expect(rows).toHaveLength(1);
  });

  it('422 over the participant limit, without slug or file; 404 for another tenant', async () => {
    const tr = await makeTraining(t, provider, { number_of_participants: 1 });
    const [a, b] = [person(13), person(14)];
    const over = await importFile(
      tr.slug,
      [HEADER, [a.first_name, a.last_name, a.email, '9876543210'], [b.first_name, b.last_name, b.email, '9876543210']],
      provider,
    );
    expect(over.status).toBe(422);
    expect(over.body.file[0]).toContain(MSG.trainingFull);
    expect((await importFile(null, [HEADER], provider)).body).toEqual({ slug: ['The slug field is required.'] });
    expect(
      (await postMultipart(t, 'lp/import-training-user', [{ name: 'slug', content: tr.slug }], provider)).body,
    ).toEqual({
      file: ['The file field is required.'],
    });
    expect((await importFile(tr.slug, [HEADER, ['A', 'B', 'a@b.test', '9876543210']], otherProvider)).status).toBe(404);
  });
});

describe('training user list and certificate access', () => {
  it('lists enrolments with the spec’s columns; toggles download access YES/NO; 404 across tenants', async () => {
    const tr = await makeTraining(t, org);
    const p = person(20);
    const added = await t.post('lp/add-training-user', { ...p, slug: tr.slug }, org);
    const list = await t.post('lp/get-training-users', { slug: tr.slug }, org);
    expect(list).toEqual({
      status: 200,
      body: {
        list: [
          {
            id: added.body.id,
            training_id: tr.id,
            user_id: added.body.user_id,
            user_name: p.email,
            name: `${p.first_name} ${p.last_name}`,
            first_name: p.first_name,
            last_name: p.last_name,
            email: p.email,
            mobile_no: p.mobile_no,
            start_date: expect.any(String),
            end_date: expect.any(String),
            join: 0,
            min: 0,
            send_email_certificate: 0,
            is_download_certificate: 0,
          },
        ],
        total: 1,
        page: 1,
        per_page: 20,
      },
    });
    expect((await t.post('lp/get-training-users', { slug: tr.slug }, provider)).status).toBe(404);
    expect((await t.post('lp/get-training-users', {}, org)).body).toEqual({ slug: ['The slug field is required.'] });

    expect(await t.post('lpu/download-certificate-access', { id: added.body.id }, org)).toEqual({
      status: 200,
      body: { message: MSG.certificateAccessYes, is_download_certificate: 1 },
    });
    expect(await t.post('lpu/download-certificate-access', { id: added.body.id }, org)).toEqual({
      status: 200,
      body: { message: MSG.certificateAccessNo, is_download_certificate: 0 },
    });
    expect((await t.post('lpu/download-certificate-access', { id: added.body.id }, provider)).status).toBe(404);
    expect((await t.post('lpu/download-certificate-access', {}, org)).body).toEqual({
      id: ['The id field is required.'],
    });
  });
});
