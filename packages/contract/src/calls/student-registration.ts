import type { ApiCall } from '../api-base.js';
import { call } from '../api-base.js';
import * as s from '../schemas/student-registration.js';

/** Public student registration with mobile and e-mail one-time codes (spec 02 §2, §4, §7 'Trainee'). */
export const STUDENT_REGISTRATION_CALLS = {
  mobileOtpRegister: call(
    'mobile-otp-register',
    'public',
    'Send a one-time code to a mobile number by SMS (rate-limited; the code is never in the answer).',
    s.mobileOtpRegisterRequest,
    s.otpSentResponse,
  ),
  emailOtpRegister: call(
    'email-otp-register',
    'public',
    'Send a one-time code to an e-mail address (rate-limited; the code is never in the answer).',
    s.emailOtpRegisterRequest,
    s.otpSentResponse,
  ),
  verifyMobileOtp: call(
    'verify-mobile-otp',
    'public',
    "Check the mobile code: 'Mobile no is verified', or 422 'Incorrect OTP try again' (5 tries, 10 minutes).",
    s.verifyMobileOtpRequest,
    s.otpVerifiedResponse,
  ),
  verifyEmailOtp: call(
    'verify-email-otp',
    'public',
    "Check the e-mail code: 'Email is verified', or 422 'Incorrect OTP try again' (5 tries, 10 minutes).",
    s.verifyEmailOtpRequest,
    s.otpVerifiedResponse,
  ),
  registerTrainingStudent: call(
    'register-training-student',
    'public',
    'Register for a public training once both codes were verified (last 30 minutes); e-mails a set-password link.',
    s.registerTrainingStudentRequest,
    s.registerTrainingStudentResponse,
  ),
} satisfies Record<string, ApiCall>;
