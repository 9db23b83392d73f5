import { z } from 'zod';
import { call, empty } from '../api-base.js';
import type { Role } from '../roles.js';
import * as auth from '../schemas/auth.js';

const ORG_MANAGERS: readonly Role[] = ['admin', 'organization', 'org_subadmin'];

/** Accounts and sign-in (spec 01 §7, spec 02 §7 Password). */
export const AUTH_CALLS = {
  login: call(
    'login',
    'public',
    'Sign in; answers the session and the roles that decide the home.',
    auth.loginRequest,
    auth.loginResponse,
  ),
  logout: call(
    'logout',
    'authenticated',
    'Revoke the current session; after single sign-on, sso_logout is where the browser ends the provider’s session too.',
    auth.logoutRequest,
    auth.logoutResponse,
  ),
  register: call(
    'register',
    'public',
    'Create an account (user_type 2 user, 3 learning provider, 6 organization).',
    auth.registerRequest,
    auth.registerResponse,
  ),
  currentToken: call(
    'current-token',
    'public',
    'The caller’s token when it is still the live session of that e-mail, otherwise an empty string.',
    auth.currentTokenRequest,
    z.string(),
  ),
  forgotPassword: call(
    'forgot-password',
    'public',
    'E-mail a single-use reset link (same answer whether or not the e-mail exists).',
    auth.forgotPasswordRequest,
    auth.messageResponse,
  ),
  resetPassword: call(
    'reset-password',
    'public',
    'Set a new password with a reset link token.',
    auth.resetPasswordRequest,
    auth.messageResponse,
  ),
  changePassword: call(
    'change-password',
    'authenticated',
    'Change the signed-in account’s password.',
    auth.changePasswordRequest,
    auth.messageResponse,
  ),
  getLineOfBusiness: call(
    'get-line-of-business',
    'public',
    'Lines of business for the organization registration.',
    empty,
    auth.listOf(auth.lineOfBusiness),
  ),
  addLineOfBusiness: call(
    'add-line-of-business',
    ORG_MANAGERS,
    'Add a line of business.',
    auth.addLineOfBusinessRequest,
    z.object({ message: z.string(), id: z.number() }),
  ),
  getOrgRegister: call(
    'get-org-register',
    'public',
    'Approved, active organizations an account can register under.',
    empty,
    auth.listOf(auth.orgOption),
  ),
  devMailbox: call(
    'dev/mailbox',
    'public',
    'Development mailbox: the outbox messages (not available in production).',
    empty,
    z.object({
      list: z.array(
        z.object({
          id: z.number(),
          channel: z.string(),
          to: z.string(),
          subject: z.string(),
          text: z.string(),
          created_at: z.string(),
        }),
      ),
    }),
  ),
};
