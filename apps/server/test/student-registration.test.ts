import { randomBytes } from 'node:crypto';
import { MSG, OTP_RULES, REG_MSG } from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgMemberships, otpCodes, trainingUsers, users } from '../src/db/schema';
import { runDueJobs } from '../src/platform/jobs';
import { createTraining, enrol } from './certificates-fixtures';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  // the requests come from loopback (inject) with X-Forwarded-For set, as through a proxy on this machine
  t = await createTestApp({ TRUST_PROXY: 'loopback' });
});
afterAll(() => t.close());

/** Every response of this file is checked for codes: none may ever carry one. */
const issuedCodes = new Set<string>();
// biome-ignore lint/suspicious/noExplicitAny: responses are asserted field by field
type Reply = { status: number; body: any };
async function call(
  path: string,
  body: unknown,
  ip = `10.0.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
): Promise<Reply> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    headers: { 'x-forwarded-for': ip },
    payload: body as object,
  });
  for (const code of issuedCodes) expect(res.body).not.toContain(code);
  return { status: res.statusCode, body: res.json() };
}

let seq = 0;
const newMobile = () => `98${String(10_000_000 + ++seq * 7919).slice(-8)}`;
const newEmail = () => `learner-${randomBytes(4).toString('hex')}@example.test`;

async function lastCode(to: string): Promise<string> {
  const rows = (await t.outbox()).filter((m) => m.to === to);
  const match = /\b(\d{6})\b/.exec(rows.at(-1)?.text ?? '');
  if (!match) throw new Error(`no code sent to ${to}`);
  issuedCodes.add(match[1]!);
  return match[1]!;
}
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function verifiedPair(mobile = newMobile(), email = newEmail()) {
  expect((await call('mobile-otp-register', { mobile_no: mobile })).status).toBe(200);
  expect((await call('email-otp-register', { email, first_name: 'Asha' })).status).toBe(200);
  const mobile_otp = await lastCode(mobile);
  const email_otp = await lastCode(email.toLowerCase());
  expect((await call('verify-mobile-otp', { mobile_no: mobile, mobile_otp })).status).toBe(200);
  expect((await call('verify-email-otp', { email, email_otp })).status).toBe(200);
  return { mobile_no: mobile, email, mobile_otp, email_otp };
}

describe('sending codes', () => {
  it('mobile-otp-register texts a 6-digit code through the SMS outbox and answers only a message', async () => {
    const mobile = newMobile();
    const res = await call('mobile-otp-register', { mobile_no: mobile });
    expect(res).toEqual({ status: 200, body: { message: REG_MSG.mobileOtpSent } });
    const sms = (await t.deps.db.execute(sql`select channel, text from outbox where "to" = ${mobile}`)) as unknown as {
      rows: { channel: string; text: string }[];
    };
    expect(sms.rows[0]!.channel).toBe('sms');
    const code = await lastCode(mobile);
    // only a hash is stored
    const [row] = await t.deps.db.select().from(otpCodes).where(eq(otpCodes.destination, mobile));
    expect(row!.code_hash).not.toContain(code);
    expect(row!.expires_at.getTime()).toBeGreaterThan(Date.now() + (OTP_RULES.ttlMinutes - 1) * 60_000);
  });

  it('email-otp-register e-mails the code and answers only a message', async () => {
    const email = newEmail();
    const res = await call('email-otp-register', { email, first_name: 'Asha' });
    expect(res).toEqual({ status: 200, body: { message: REG_MSG.emailOtpSent } });
    const mail = (await t.outbox()).filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('Hello Asha');
    await lastCode(email);
  });

  it('422 for each field', async () => {
    expect(await call('mobile-otp-register', {})).toEqual({
      status: 422,
      body: { mobile_no: ['The mobile no field is required.'] },
    });
    expect((await call('mobile-otp-register', { mobile_no: 'abc' })).body).toEqual({
      mobile_no: ['The mobile no must be a valid phone number.'],
    });
    expect(await call('email-otp-register', {})).toEqual({
      status: 422,
      body: { email: ['The email field is required.'], first_name: ['The first name field is required.'] },
    });
    expect((await call('email-otp-register', { email: 'nope', first_name: 'A' })).body).toEqual({
      email: ['The email must be a valid email address.'],
    });
  });

  it('sending is rate-limited per destination and per IP (429)', async () => {
    const mobile = newMobile();
    for (let i = 0; i < OTP_RULES.sendsPerWindow; i++) {
      expect((await call('mobile-otp-register', { mobile_no: mobile })).status).toBe(200);
    }
    expect(await call('mobile-otp-register', { mobile_no: mobile })).toEqual({
      status: 429,
      body: { message: MSG.tooManyAttempts, code: 'too_many_attempts' },
    });
    const ip = '203.0.113.9';
    for (let i = 0; i < OTP_RULES.sendsPerWindow * 3; i++) {
      expect((await call('email-otp-register', { email: newEmail(), first_name: 'A' }, ip)).status).toBe(200);
    }
    expect((await call('email-otp-register', { email: newEmail(), first_name: 'A' }, ip)).status).toBe(429);
  });

  it('a client that is not a trusted proxy cannot dodge the per-IP limit with X-Forwarded-For', async () => {
    const direct = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/email-otp-register',
        remoteAddress: '198.51.100.7',
        headers: { 'x-forwarded-for': `10.9.${n}.1` },
        payload: { email: newEmail(), first_name: 'A' },
      });
    for (let i = 0; i < OTP_RULES.sendsPerWindow * 3; i++) expect((await direct(i)).statusCode).toBe(200);
    expect((await direct(99)).statusCode).toBe(429);
  });
});

describe('verifying codes', () => {
  it('a right code: Mobile no is verified / Email is verified', async () => {
    const mobile = newMobile();
    const email = newEmail();
    await call('mobile-otp-register', { mobile_no: mobile });
    await call('email-otp-register', { email, first_name: 'A' });
    expect(await call('verify-mobile-otp', { mobile_no: mobile, mobile_otp: await lastCode(mobile) })).toEqual({
      status: 200,
      body: { message: MSG.mobileVerified, success: MSG.otpVerified },
    });
    expect(await call('verify-email-otp', { email: email.toUpperCase(), email_otp: await lastCode(email) })).toEqual({
      status: 200,
      body: { message: MSG.emailVerified, success: MSG.otpVerified },
    });
  });

  it('a mobile number matches however it is spaced', async () => {
    await call('mobile-otp-register', { mobile_no: '+91 99887 76655' });
    const code = await lastCode('+919988776655');
    expect((await call('verify-mobile-otp', { mobile_no: '+91-9988776655', mobile_otp: code })).status).toBe(200);
  });

  it('a wrong code is 422 Incorrect OTP try again; after 5 wrong tries even the right code is refused', async () => {
    const mobile = newMobile();
    await call('mobile-otp-register', { mobile_no: mobile });
    const code = await lastCode(mobile);
    for (let i = 0; i < OTP_RULES.maxAttempts; i++) {
      expect(await call('verify-mobile-otp', { mobile_no: mobile, mobile_otp: wrong(code) })).toEqual({
        status: 422,
        body: { mobile_otp: [MSG.incorrectOtp] },
      });
    }
    expect(await call('verify-mobile-otp', { mobile_no: mobile, mobile_otp: code })).toEqual({
      status: 422,
      body: { mobile_otp: [REG_MSG.otpAttemptsExhausted] },
    });
    // a new code starts over
    await call('mobile-otp-register', { mobile_no: mobile });
    expect((await call('verify-mobile-otp', { mobile_no: mobile, mobile_otp: await lastCode(mobile) })).status).toBe(
      200,
    );
  });

  it('an expired code is refused', async () => {
    const email = newEmail();
    await call('email-otp-register', { email, first_name: 'A' });
    const code = await lastCode(email);
    await t.deps.db
      .update(otpCodes)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(otpCodes.destination, email));
    expect(await call('verify-email-otp', { email, email_otp: code })).toEqual({
      status: 422,
      body: { email_otp: [REG_MSG.otpExpired] },
    });
  });

  it('a destination that never got a code is 422; field validation is 422', async () => {
    expect(await call('verify-email-otp', { email: newEmail(), email_otp: '123456' })).toEqual({
      status: 422,
      body: { email_otp: [MSG.incorrectOtp] },
    });
    expect((await call('verify-mobile-otp', {})).body).toEqual({
      mobile_no: ['The mobile no field is required.'],
      mobile_otp: ['The mobile otp field is required.'],
    });
    expect((await call('verify-email-otp', { email: 'x', email_otp: 'abc' })).body).toEqual({
      email: ['The email must be a valid email address.'],
      email_otp: ['The OTP must be a number.'],
    });
  });
});

describe('register-training-student', () => {
  it('creates a provider_user of the owning provider, enrols them and e-mails a set-password link', async () => {
    const provider = await t.createUser({ role: 'provider', first_name: 'Acme' });
    const training = await createTraining(t, { owner_user_id: provider.id });
    const pair = await verifiedPair();
    const res = await call('register-training-student', {
      ...pair,
      first_name: 'Asha',
      last_name: 'Rao',
      slug: training.slug,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: training.slug, existing_account: false });
    expect(res.body.message).toContain('Welcome Asha');
    expect(res.body.message).toContain(`sent an email to ${pair.email}`);
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, pair.email));
    expect(user).toMatchObject({
      roles: ['provider_user'],
      user_type: 4,
      provider_id: provider.id,
      organization_id: null,
      password_hash: null,
      is_approved: 1,
    });
    const enrolments = await t.deps.db.select().from(trainingUsers).where(eq(trainingUsers.user_id, user!.id));
    expect(enrolments.map((e) => e.training_id)).toEqual([training.id]);

    await runDueJobs(t.deps);
    const mail = (await t.outbox()).filter((m) => m.to === pair.email).at(-1)!;
    expect(mail.subject).toBe(`Welcome to ${training.name}`);
    expect(mail.text).toMatch(/http:\/\/app\.test\/reset-password\/\S+/);
    expect(mail.text).toContain(`${training.name} (2026-04-18 to 2026-05-06)`);

    // the codes are used up
    const again = await call('register-training-student', {
      ...pair,
      first_name: 'A',
      last_name: 'R',
      slug: training.slug,
    });
    expect(again.status).toBe(422);
  });

  it('a training of an organization makes an organization_user of that organization', async () => {
    const org = await t.createOrganization();
    const training = await createTraining(t, { organization_id: org.id });
    const pair = await verifiedPair();
    const res = await call('register-training-student', {
      ...pair,
      first_name: 'O',
      last_name: 'U',
      slug: training.slug,
    });
    expect(res.status).toBe(200);
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, pair.email));
    expect(user).toMatchObject({
      roles: ['organization_user'],
      user_type: 5,
      organization_id: org.id,
      provider_id: null,
    });
    const [membership] = await t.deps.db.select().from(orgMemberships).where(eq(orgMemberships.user_id, user!.id));
    expect(membership!.organization_id).toBe(org.id);
  });

  it('an e-mail that already has an account is enrolled, not duplicated; enrolled twice is 422', async () => {
    const provider = await t.createUser({ role: 'provider' });
    const training = await createTraining(t, { owner_user_id: provider.id });
    const existing = await t.createUser({ role: 'user', first_name: 'Existing' });
    const pair = await verifiedPair(newMobile(), existing.email.toUpperCase());
    const res = await call('register-training-student', {
      ...pair,
      first_name: 'New',
      last_name: 'Name',
      slug: training.slug,
    });
    expect(res.status).toBe(200);
    expect(res.body.existing_account).toBe(true);
    expect(res.body.message).toContain('Welcome Existing');
    const same = await t.deps.db.select().from(users).where(sql`lower(${users.email}) = ${existing.email}`);
    expect(same).toHaveLength(1);
    expect(same[0]!.roles).toEqual(['user']);
    const [e] = await t.deps.db
      .select()
      .from(trainingUsers)
      .where(and(eq(trainingUsers.training_id, training.id), eq(trainingUsers.user_id, existing.id)));
    expect(e).toBeTruthy();
    await runDueJobs(t.deps);
    const mail = (await t.outbox()).filter((m) => m.to === existing.email).at(-1)!;
    expect(mail.subject).toBe(`You are registered for ${training.name}`);

    const pair2 = await verifiedPair(newMobile(), existing.email);
    expect(
      await call('register-training-student', { ...pair2, first_name: 'N', last_name: 'N', slug: training.slug }),
    ).toEqual({ status: 422, body: { email: [REG_MSG.alreadyEnrolled] } });
  });

  it('both codes must be verified: otherwise 422 Verify Email Or Mobile No.', async () => {
    const provider = await t.createUser({ role: 'provider' });
    const training = await createTraining(t, { owner_user_id: provider.id });
    const mobile = newMobile();
    const email = newEmail();
    await call('mobile-otp-register', { mobile_no: mobile });
    await call('email-otp-register', { email, first_name: 'A' });
    const mobile_otp = await lastCode(mobile);
    const email_otp = await lastCode(email);
    const body = {
      first_name: 'A',
      last_name: 'B',
      email,
      mobile_no: mobile,
      slug: training.slug,
      mobile_otp,
      email_otp,
    };
    // sent but not verified
    expect(await call('register-training-student', body)).toEqual({
      status: 422,
      body: { mobile_otp: [MSG.verifyEmailOrMobile], email_otp: [MSG.verifyEmailOrMobile] },
    });
    await call('verify-mobile-otp', { mobile_no: mobile, mobile_otp });
    expect(await call('register-training-student', body)).toEqual({
      status: 422,
      body: { email_otp: [MSG.verifyEmailOrMobile] },
    });
    await call('verify-email-otp', { email, email_otp });
    // a different code than the verified one
    expect((await call('register-training-student', { ...body, email_otp: wrong(email_otp) })).body).toEqual({
      email_otp: [MSG.verifyEmailOrMobile],
    });
    // verified more than 30 minutes ago
    await t.deps.db
      .update(otpCodes)
      .set({ verified_at: new Date(Date.now() - (OTP_RULES.verifiedForMinutes + 1) * 60_000) })
      .where(eq(otpCodes.destination, mobile));
    expect((await call('register-training-student', body)).body).toEqual({ mobile_otp: [MSG.verifyEmailOrMobile] });
    expect((await t.deps.db.select().from(users).where(eq(users.email, email))).length).toBe(0);
  });

  it('404 for an unknown or non-public training', async () => {
    const provider = await t.createUser({ role: 'provider' });
    const hidden = await createTraining(t, { owner_user_id: provider.id, is_public: 0 });
    const pair = await verifiedPair();
    const base = { ...pair, first_name: 'A', last_name: 'B' };
    expect((await call('register-training-student', { ...base, slug: hidden.slug })).status).toBe(404);
    expect((await call('register-training-student', { ...base, slug: 'no-such-training' })).status).toBe(404);
  });

  it('respects number_of_participants', async () => {
    const provider = await t.createUser({ role: 'provider' });
    const training = await createTraining(t, { owner_user_id: provider.id, number_of_participants: 1 });
    const first = await t.createUser({ role: 'provider_user', provider_id: provider.id });
    await enrol(t, training.id, first.id);
    const pair = await verifiedPair();
    expect(
      await call('register-training-student', { ...pair, first_name: 'A', last_name: 'B', slug: training.slug }),
    ).toEqual({ status: 422, body: { other_error: [REG_MSG.trainingFull] } });
    expect((await t.deps.db.select().from(users).where(eq(users.email, pair.email))).length).toBe(0);
  });

  it('422 for each field', async () => {
    const res = await call('register-training-student', {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      email: ['The email field is required.'],
      mobile_no: ['The mobile no field is required.'],
      slug: ['The slug field is required.'],
      mobile_otp: ['The mobile otp field is required.'],
      email_otp: ['The email otp field is required.'],
    });
  });
});
