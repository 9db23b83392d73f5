import { randomInt, timingSafeEqual } from 'node:crypto';
import { MSG, OTP_RULES, REG_MSG } from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import { otpCodes } from '../../db/schema';
import { hashToken } from '../../platform/auth/tokens';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import { AttemptLimiter } from '../../platform/rate-limit';

export type OtpChannel = 'mobile' | 'email';
/** The 422 field that carries a code's error, per channel. */
export const OTP_FIELD: Record<OtpChannel, 'mobile_otp' | 'email_otp'> = { mobile: 'mobile_otp', email: 'email_otp' };

/** '+91 98765-43210' and '+919876543210' are the same destination. */
export const normaliseMobile = (mobile: string): string => mobile.replace(/[^0-9+]/g, '');

/** The hash binds the code to its destination, so equal codes of two people never share a hash. */
const hashCode = (channel: OtpChannel, destination: string, code: string) =>
  hashToken(`otp:${channel}:${destination}:${code}`);

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const limiters = new WeakMap<object, AttemptLimiter>();
/** Code sending is limited per destination and per client IP (three times as many), one limiter per app. */
function sendLimiter(deps: Deps): AttemptLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new AttemptLimiter(OTP_RULES.sendsPerWindow, OTP_RULES.sendWindowMinutes * 60, 'otp-send');
    limiters.set(deps, limiter);
  }
  return limiter;
}

/**
 * Creates a fresh code for the destination (replacing any earlier one: attempts and verification
 * start over) and returns it to the caller, which sends it. The code is never answered to the browser.
 */
export async function issueCode(deps: Deps, ip: string, channel: OtpChannel, destination: string): Promise<string> {
  await sendLimiter(deps).hit(ip, `${channel}:${destination}`);
  const code = String(randomInt(0, 10 ** OTP_RULES.length)).padStart(OTP_RULES.length, '0');
  const values = {
    code_hash: hashCode(channel, destination, code),
    expires_at: new Date(Date.now() + OTP_RULES.ttlMinutes * 60_000),
    attempts: 0,
    verified_at: null,
    created_at: new Date(),
  };
  await deps.db
    .insert(otpCodes)
    .values({ channel, destination, ...values })
    .onConflictDoUpdate({ target: [otpCodes.channel, otpCodes.destination], set: values });
  return code;
}

/**
 * Checks a code: a wrong one counts an attempt; after OTP_RULES.maxAttempts the code is dead even
 * when right. A right code marks the destination verified (the first verification time is kept).
 */
export async function verifyCode(deps: Deps, channel: OtpChannel, destination: string, code: string): Promise<void> {
  const field = OTP_FIELD[channel];
  const [row] = await deps.db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.channel, channel), eq(otpCodes.destination, destination)));
  if (!row) throw invalidField(field, MSG.incorrectOtp);
  if (row.attempts >= OTP_RULES.maxAttempts) throw invalidField(field, REG_MSG.otpAttemptsExhausted);
  if (row.expires_at.getTime() <= Date.now()) throw invalidField(field, REG_MSG.otpExpired);

  const live = and(eq(otpCodes.id, row.id), sql`${otpCodes.attempts} < ${OTP_RULES.maxAttempts}`);
  if (sameHash(row.code_hash, hashCode(channel, destination, code))) {
    const [ok] = await deps.db
      .update(otpCodes)
      .set({ verified_at: sql`coalesce(${otpCodes.verified_at}, now())` })
      .where(live)
      .returning({ id: otpCodes.id });
    if (!ok) throw invalidField(field, REG_MSG.otpAttemptsExhausted);
    return;
  }
  // Counted atomically: parallel guesses cannot exceed the limit.
  await deps.db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(live);
  throw invalidField(field, MSG.incorrectOtp);
}

/** True when this destination was verified with exactly this code within the last 30 minutes. */
export async function isFreshlyVerified(
  deps: Deps,
  channel: OtpChannel,
  destination: string,
  code: string,
): Promise<boolean> {
  const [row] = await deps.db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.channel, channel), eq(otpCodes.destination, destination)));
  if (!row?.verified_at) return false;
  if (row.verified_at.getTime() < Date.now() - OTP_RULES.verifiedForMinutes * 60_000) return false;
  return sameHash(row.code_hash, hashCode(channel, destination, code));
}

/** A registration uses its verifications up. */
export async function consumeCodes(deps: Deps, codes: { channel: OtpChannel; destination: string }[]): Promise<void> {
  for (const c of codes) {
    await deps.db.delete(otpCodes).where(and(eq(otpCodes.channel, c.channel), eq(otpCodes.destination, c.destination)));
  }
}
