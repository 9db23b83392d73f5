import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../lookups.js';
import { REGISTRABLE_USER_TYPES, ROLES } from '../roles.js';
import { ALWAYS, emailField, flag, idField, mobileField, optionalText, requiredText } from '../validation.js';

const password = () => z.string().min(1).min(PASSWORD_MIN_LENGTH).max(200);
const confirmed = { message: 'The password confirmation does not match.', path: ['password'], ...ALWAYS };
const matches = (b: { password?: unknown; password_confirmation?: unknown }) =>
  !b.password_confirmation || b.password === b.password_confirmation;

export const loginRequest = z
  .object({
    email: emailField(),
    password: z.string().max(200).optional().default(''),
    is_previous: flag().optional().default(true),
    is_sso: flag().optional().default(false),
  })
  .refine((b) => b.is_sso || (typeof b.password === 'string' && b.password.length > 0), {
    message: 'The password field is required.',
    path: ['password'],
    ...ALWAYS,
  });

export const sessionUser = z.object({
  token: z.string(),
  roles: z.array(z.enum(ROLES)),
  role: z.enum(ROLES),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile_no: z.string().nullable(),
  slug: z.string(),
  _id: z.number(),
});
export type SessionUser = z.infer<typeof sessionUser>;
/** A password login answers the session; a login with is_sso answers where the browser goes next. */
export const loginResponse = z.union([
  z.object({ success: sessionUser }),
  z.object({ sso_redirect: z.string().describe('the identity provider URL to send the browser to') }),
]);

export const registerRequest = z
  .object({
    first_name: requiredText(100),
    last_name: requiredText(100),
    password: password(),
    mobile_no: mobileField(),
    email: emailField(),
    user_type: z.coerce
      .number({ message: 'The user type field is required.' })
      .int()
      .refine((t) => (REGISTRABLE_USER_TYPES as readonly number[]).includes(t), {
        message: 'The selected user type is invalid.',
      }),
    org_id: idField().nullish(),
    lob_id: idField().nullish(),
  })
  .refine((b) => Number(b.user_type) !== 6 || Boolean(b.org_id), {
    message: 'The org id field is required.',
    path: ['org_id'],
    ...ALWAYS,
  })
  .refine((b) => Number(b.user_type) !== 6 || Boolean(b.lob_id), {
    message: 'The lob id field is required.',
    path: ['lob_id'],
    ...ALWAYS,
  });
export const registerResponse = z.object({ success: sessionUser, message: z.string() });

/**
 * Logout always ends the bearer's own session; existing clients send `{"token": null}` or the token
 * they hold. A token in the body is never used to end any other session.
 */
export const logoutRequest = z.object({ token: z.unknown().optional() });
export const currentTokenRequest = z.object({ email: z.string().optional() });

export const forgotPasswordRequest = z.object({ email: emailField() });
export const resetPasswordRequest = z
  .object({ password: password(), password_confirmation: z.string().min(1), i_t: requiredText(200) })
  .refine(matches, confirmed);
export const changePasswordRequest = z
  .object({ current_password: z.string().min(1), password: password(), password_confirmation: z.string().min(1) })
  .refine(matches, confirmed);

export const messageResponse = z.object({ message: z.string() });
export const logoutResponse = messageResponse.extend({ sso_logout: z.string().optional() });

export const lineOfBusiness = z.object({ id: z.number(), name: z.string() });
export const addLineOfBusinessRequest = z.object({ name: requiredText(150) });
export const orgOption = z.object({ id: z.number(), name: z.string() });

export const createOrganizationRequest = z.object({
  name: requiredText(150),
  email: emailField(),
  org_id: idField().nullish(),
  org_domain: requiredText(150),
  sp_link: optionalText(500),
  ip_link: requiredText(500),
  description: optionalText(2000),
});

export const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item) });
