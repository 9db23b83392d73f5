import { API } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps';
import { defineCall } from '../../platform/http/define-call';
import { registerStudent, sendEmailCode, sendMobileCode, verifyEmail, verifyMobile } from './service';

/** Public student registration on /training-register/{slug}. */
export function studentRegistrationRoutes(app: FastifyInstance, deps: Deps): void {
  defineCall(app, deps, API.mobileOtpRegister, ({ body, request }) => sendMobileCode(deps, request.ip, body.mobile_no));
  defineCall(app, deps, API.emailOtpRegister, ({ body, request }) =>
    sendEmailCode(deps, request.ip, body.email, body.first_name),
  );
  defineCall(app, deps, API.verifyMobileOtp, ({ body }) => verifyMobile(deps, body.mobile_no, body.mobile_otp));
  defineCall(app, deps, API.verifyEmailOtp, ({ body }) => verifyEmail(deps, body.email, body.email_otp));
  defineCall(app, deps, API.registerTrainingStudent, ({ body }) => registerStudent(deps, body));
}
