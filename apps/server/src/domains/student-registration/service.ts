import {
  MSG,
  OTP_RULES,
  REG_MSG,
  type Role,
  type registerTrainingStudentRequest,
  USER_TYPES,
} from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { orgMemberships, trainings, trainingUsers, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { AppError, invalidField, notFound, ValidationError } from '../../platform/errors';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import { makeSlug } from '../../platform/slug';
import { issuePasswordLink } from '../accounts-mail';
import { consumeCodes, isFreshlyVerified, issueCode, normaliseMobile, OTP_FIELD, verifyCode } from './otp';

const sendFailed = () => new AppError(503, 'The code could not be sent right now, please try again.');

export async function sendMobileCode(deps: Deps, ip: string, mobileNo: string) {
  const mobile = normaliseMobile(mobileNo);
  const code = await issueCode(deps, ip, 'mobile', mobile);
  try {
    await deps.sms.send({
      to: mobile,
      text: `${code} is your TrainLab verification code. It expires in ${OTP_RULES.ttlMinutes} minutes.`,
    });
  } catch {
    throw sendFailed();
  }
  return { message: REG_MSG.mobileOtpSent };
}

export async function sendEmailCode(deps: Deps, ip: string, email: string, firstName: string) {
  const code = await issueCode(deps, ip, 'email', email);
  try {
    await deps.mail.send({
      to: email,
      subject: 'Your TrainLab verification code',
      text:
        `Hello ${firstName},\n\nYour verification code is ${code}. It expires in ${OTP_RULES.ttlMinutes} minutes.\n\n` +
        'If you did not ask for it, you can ignore this e-mail.\n',
    });
  } catch {
    throw sendFailed();
  }
  return { message: REG_MSG.emailOtpSent };
}

export async function verifyMobile(deps: Deps, mobileNo: string, code: string) {
  await verifyCode(deps, 'mobile', normaliseMobile(mobileNo), code);
  return { message: MSG.mobileVerified, success: MSG.otpVerified };
}

export async function verifyEmail(deps: Deps, email: string, code: string) {
  await verifyCode(deps, 'email', email, code);
  return { message: MSG.emailVerified, success: MSG.otpVerified };
}

type RegisterInput = z.output<typeof registerTrainingStudentRequest>;
const WELCOME_JOB = 'student-registration.welcome';

/**
 * /register-training-student: both codes must have been verified (with these very codes) in the
 * last 30 minutes. The learner gets an account of the training's tenant (provider_user of the
 * owning provider, or organization_user of the organization) unless the e-mail already has one,
 * and is enrolled within number_of_participants. The welcome e-mail goes through the job table so
 * a mail outage neither fails the request nor loses the set-password link.
 */
export async function registerStudent(deps: Deps, body: RegisterInput) {
  const [training] = await deps.db.select().from(trainings).where(eq(trainings.slug, body.slug));
  if (!training || training.is_public !== 1) throw notFound();

  const mobile = normaliseMobile(body.mobile_no);
  const unverified: Record<string, string[]> = {};
  if (!(await isFreshlyVerified(deps, 'mobile', mobile, body.mobile_otp))) {
    unverified[OTP_FIELD.mobile] = [MSG.verifyEmailOrMobile];
  }
  if (!(await isFreshlyVerified(deps, 'email', body.email, body.email_otp))) {
    unverified[OTP_FIELD.email] = [MSG.verifyEmailOrMobile];
  }
  if (Object.keys(unverified).length) throw new ValidationError(unverified);

  const role: Role = training.owner_user_id ? 'provider_user' : 'organization_user';
  const result = await deps.db.transaction(async (tx) => {
    // One registration at a time per training, so the seat count cannot be overrun.
    await tx.execute(sql`select id from ${trainings} where id = ${training.id} for update`);
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${body.email}`);
    if (existing) {
      const [enrolled] = await tx
        .select({ id: trainingUsers.id })
        .from(trainingUsers)
        .where(and(eq(trainingUsers.training_id, training.id), eq(trainingUsers.user_id, existing.id)));
      if (enrolled) throw invalidField('email', REG_MSG.alreadyEnrolled);
    }
    const [seats] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(trainingUsers)
      .where(eq(trainingUsers.training_id, training.id));
    if ((seats?.n ?? 0) >= training.number_of_participants) throw invalidField('other_error', REG_MSG.trainingFull);

    let user = existing;
    if (!user) {
      const [row] = await tx
        .insert(users)
        .values({
          slug: makeSlug(body.first_name, body.last_name),
          first_name: body.first_name,
          last_name: body.last_name,
          email: body.email,
          mobile_no: body.mobile_no,
          password_hash: null,
          roles: [role],
          user_type: USER_TYPES[role],
          is_approved: 1,
          status: 1,
          provider_id: training.owner_user_id ?? null,
          organization_id: training.organization_id ?? null,
        })
        .returning();
      user = row!;
      if (training.organization_id) {
        await tx.insert(orgMemberships).values({ user_id: user.id, organization_id: training.organization_id });
      }
    }
    await tx.insert(trainingUsers).values({ training_id: training.id, user_id: user.id });
    await enqueue({ db: tx as unknown as Deps['db'] }, WELCOME_JOB, {
      user_id: user.id,
      training_id: training.id,
      new_account: !existing,
    });
    return { user, existing: Boolean(existing) };
  });
  await consumeCodes(deps, [
    { channel: 'mobile', destination: mobile },
    { channel: 'email', destination: body.email },
  ]);

  const first = result.user.first_name;
  const message = result.existing
    ? `Welcome ${first}! You are registered for ${training.name}. We have sent an email to ${result.user.email}; login with your existing password.`
    : `Welcome ${first}! You are registered for ${training.name}. We have sent an email to ${result.user.email} with a link to set your password, then login.`;
  return { message, slug: training.slug, existing_account: result.existing };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

registerJobHandler(WELCOME_JOB, async (deps, payload) => {
  const userId = Number(payload.user_id);
  const trainingId = Number(payload.training_id);
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  const [training] = await deps.db.select().from(trainings).where(eq(trainings.id, trainingId));
  if (!user || !training) return; // deleted meanwhile: nothing to tell
  const what = `${training.name} (${day(training.start_date)} to ${day(training.end_date)})`;
  if (payload.new_account) {
    await issuePasswordLink(
      deps,
      user,
      `Welcome to ${training.name}`,
      `You are registered for the training ${what}. Your TrainLab account has been created.`,
    );
    return;
  }
  await deps.mail.send({
    to: user.email,
    subject: `You are registered for ${training.name}`,
    text:
      `Hello ${user.first_name},\n\nYou are registered for the training ${what}.\n\n` +
      `Sign in with your existing password at ${deps.config.PUBLIC_URL}/login (forgot it? ${deps.config.PUBLIC_URL}/forgot-password)\n`,
  });
});
