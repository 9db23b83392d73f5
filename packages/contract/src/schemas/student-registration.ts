import { z } from 'zod';
import { emailField, mobileField, requiredText } from '../validation.js';

/**
 * Public student registration on /training-register/{slug} (spec 02 §2, §3, §4, §7). The server
 * sends, stores (hashed) and checks the one-time codes; a code never travels back to the browser.
 */
export const OTP_RULES = {
  /** digits in a code */
  length: 6,
  /** a code lives this long */
  ttlMinutes: 10,
  /** wrong guesses before the code is dead */
  maxAttempts: 5,
  /** a verification is good for registering this long */
  verifiedForMinutes: 30,
  /** codes sent per destination per window (per IP: three times as many) */
  sendsPerWindow: 5,
  sendWindowMinutes: 15,
} as const;

/** Texts of these calls that the spec does not name (the spec's own texts are in MSG). */
export const REG_MSG = {
  mobileOtpSent: 'OTP sent to your mobile no.',
  emailOtpSent: 'OTP sent to your email.',
  otpExpired: 'The OTP has expired, please request a new one.',
  otpAttemptsExhausted: 'Too many incorrect attempts, please request a new OTP.',
  trainingFull: 'This training has no seats left.',
  alreadyEnrolled: 'You are already registered for this training, please login.',
} as const;

const otpCode = () =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .regex(/^[0-9]{4,8}$/, { message: 'The OTP must be a number.' });

export const mobileOtpRegisterRequest = z.object({ mobile_no: mobileField() });
export const emailOtpRegisterRequest = z.object({ email: emailField(), first_name: requiredText(100) });
export const verifyMobileOtpRequest = z.object({ mobile_no: mobileField(), mobile_otp: otpCode() });
export const verifyEmailOtpRequest = z.object({ email: emailField(), email_otp: otpCode() });

export const registerTrainingStudentRequest = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: emailField(),
  mobile_no: mobileField(),
  slug: requiredText(200),
  mobile_otp: otpCode(),
  email_otp: otpCode(),
});

/** Send: `{message}` only, never the code. */
export const otpSentResponse = z.object({ message: z.string() });
/** Verify: `message` is the per-field text ('Mobile no is verified'), `success` the banner ('opt Verify successfully!'). */
export const otpVerifiedResponse = z.object({ message: z.string(), success: z.string() });
export const registerTrainingStudentResponse = z.object({
  message: z.string(),
  slug: z.string(),
  /** true when the e-mail already had an account (it was enrolled, not duplicated) */
  existing_account: z.boolean(),
});
