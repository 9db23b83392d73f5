import {
  type changePasswordRequest,
  type loginRequest,
  MSG,
  RESET_LINK_MINUTES,
  type registerRequest,
  type resetPasswordRequest,
  roleForUserType,
  SSO_MSG,
} from '@trainlab/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { linesOfBusiness, organizations, passwordResets, users } from '../../db/schema';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../platform/auth/passwords';
import { hashToken, newToken } from '../../platform/auth/tokens';
import type { Deps } from '../../platform/deps';
import { forbidden, invalidField } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { makeSlug } from '../../platform/slug';
import { ssoLogoutUrl } from '../sso/logout';
import { passwordLoginForbidden } from '../sso/sign-in';
import { startSso } from '../sso/start';
import { toSessionUser } from './session-user';
import { hasLiveSession, openSession, revokeSession, revokeSessions } from './sessions';
import { findUserByEmail, organizationIsActive } from './users-repo';

export async function login(
  deps: Deps,
  body: z.output<typeof loginRequest>,
  ip: string,
  log: (msg: string) => void = () => {},
) {
  await deps.limits.login.hit(ip, body.email);
  // single sign-on: the answer is where the browser goes next (the organization's identity provider)
  if (body.is_sso) return startSso(deps, body.email, body.is_previous, log);
  const user = await findUserByEmail(deps.db, body.email);
  if (!user) {
    await burnPasswordCheck(body.password);
    throw invalidField('email', MSG.invalidCredentials);
  }
  if (!(await verifyPassword(user.password_hash, body.password))) throw invalidField('email', MSG.invalidCredentials);
  // Approval and activation are told only to someone who knows the password.
  if (user.is_approved !== 1) throw forbidden(MSG.awaitingApproval, 'awaiting_approval');
  if (user.status !== 1 || !(await organizationIsActive(deps.db, user.organization_id))) {
    throw forbidden(MSG.accountInactive, 'account_inactive');
  }
  if (await passwordLoginForbidden(deps, user)) throw forbidden(SSO_MSG.passwordLoginDisabled);
  if (await hasLiveSession(deps.db, user.id)) {
    if (!body.is_previous) throw forbidden(MSG.loggedInElsewhere, 'logged_in_elsewhere');
    await revokeSessions(deps.db, user.id);
  }
  const token = await openSession(deps.db, user.id, deps.config.SESSION_TTL_HOURS);
  await deps.limits.login.reset(body.email);
  return { success: toSessionUser(user, token) };
}

export async function register(deps: Deps, body: z.output<typeof registerRequest>) {
  const role = roleForUserType(body.user_type);
  if (!role) throw invalidField('user_type', 'The selected user type is invalid.');
  if (await findUserByEmail(deps.db, body.email)) throw invalidField('email', 'The email has already been taken.');
  let organizationId: number | null = null;
  let lobId: number | null = null;
  if (body.user_type === 6) {
    const [org] = await deps.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.id, body.org_id!), eq(organizations.is_approved, 1), eq(organizations.status, 1)));
    if (!org) throw invalidField('org_id', 'The selected org id is invalid.');
    const [lob] = await deps.db
      .select({ id: linesOfBusiness.id })
      .from(linesOfBusiness)
      .where(eq(linesOfBusiness.id, body.lob_id!));
    if (!lob) throw invalidField('lob_id', 'The selected lob id is invalid.');
    organizationId = org.id;
    lobId = lob.id;
  }
  const needsApproval = body.user_type !== 2;
  const [user] = await deps.db
    .insert(users)
    .values({
      slug: makeSlug(body.first_name, body.last_name),
      first_name: body.first_name,
      last_name: body.last_name,
      email: body.email,
      mobile_no: body.mobile_no,
      password_hash: await hashPassword(body.password),
      roles: [role],
      user_type: body.user_type,
      is_approved: needsApproval ? 0 : 1,
      organization_id: organizationId,
      lob_id: lobId,
    })
    .returning();
  if (!user) throw new Error('insert returned no row');
  const message = needsApproval ? MSG.registeredAwaitingApproval : MSG.registeredUser;
  await deps.mail.send({
    to: user.email,
    subject: needsApproval ? 'Your registration is waiting for approval' : 'Welcome to TrainLab',
    text: needsApproval
      ? `Hello ${user.first_name},\n\nWe received your registration. An administrator will review it and you will get a mail once it is approved.\n`
      : `Hello ${user.first_name},\n\nYour account is ready. Sign in at ${deps.config.PUBLIC_URL}/login\n`,
  });
  // No session is opened here: the client sends the new account to /login.
  return { success: toSessionUser(user, ''), message };
}

export async function logout(deps: Deps, auth: AuthContext, log: (msg: string) => void = () => {}) {
  // a session opened by single sign-on also ends the identity provider's session, where it can
  const ssoLogout = await ssoLogoutUrl(deps, auth.sessionId, log);
  await revokeSession(deps.db, auth.sessionId);
  return ssoLogout ? { message: MSG.loggedOut, sso_logout: ssoLogout } : { message: MSG.loggedOut };
}

/**
 * Old clients compare this answer with the token they hold and log out when it differs. Only the
 * token's hash is stored, so the caller's own token is echoed back while it is the live session of
 * that e-mail; anything else answers an empty string.
 */
export function currentToken(auth: AuthContext | null, email: string | undefined): string {
  if (!auth) return '';
  if (email && email.toLowerCase() !== auth.user.email.toLowerCase()) return '';
  return auth.token;
}

export async function forgotPassword(deps: Deps, email: string, ip: string) {
  await deps.limits.forgot.hit(ip, email);
  const user = await findUserByEmail(deps.db, email);
  if (user && user.is_approved === 1 && user.status === 1) {
    const token = newToken(32);
    await deps.db.insert(passwordResets).values({
      user_id: user.id,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + RESET_LINK_MINUTES * 60_000),
    });
    const link = `${deps.config.PUBLIC_URL}/reset-password/${token}`;
    await deps.mail.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Hello ${user.first_name},\n\nUse this link to choose a new password. It works once and expires in ${RESET_LINK_MINUTES} minutes:\n\n${link}\n\nIf you did not ask for it, ignore this mail.\n`,
    });
  }
  return { message: MSG.resetLinkSent };
}

export async function resetPassword(deps: Deps, body: z.output<typeof resetPasswordRequest>) {
  const [reset] = await deps.db
    .select()
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.token_hash, hashToken(body.i_t)),
        isNull(passwordResets.used_at),
        gt(passwordResets.expires_at, new Date()),
      ),
    );
  if (!reset) throw invalidField('i_t', MSG.resetTokenInvalid);
  // Claim the link first so two concurrent uses cannot both succeed.
  const claimed = await deps.db
    .update(passwordResets)
    .set({ used_at: new Date() })
    .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.used_at)))
    .returning({ id: passwordResets.id });
  if (claimed.length === 0) throw invalidField('i_t', MSG.resetTokenInvalid);
  await deps.db
    .update(users)
    .set({ password_hash: await hashPassword(body.password), updated_at: new Date() })
    .where(eq(users.id, reset.user_id));
  await deps.db
    .update(passwordResets)
    .set({ used_at: new Date() })
    .where(and(eq(passwordResets.user_id, reset.user_id), isNull(passwordResets.used_at)));
  await revokeSessions(deps.db, reset.user_id);
  return { message: MSG.passwordReset };
}

export async function changePassword(deps: Deps, auth: AuthContext, body: z.output<typeof changePasswordRequest>) {
  if (!(await verifyPassword(auth.user.password_hash, body.current_password))) {
    throw invalidField('current_password', MSG.currentPasswordWrong);
  }
  await deps.db
    .update(users)
    .set({ password_hash: await hashPassword(body.password), updated_at: new Date() })
    .where(eq(users.id, auth.user.id));
  await revokeSessions(deps.db, auth.user.id, auth.sessionId);
  return { message: MSG.passwordChanged };
}
