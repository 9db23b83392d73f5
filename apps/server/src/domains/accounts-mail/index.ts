import { SET_PASSWORD_LINK_DAYS } from '@trainlab/contract';
import { passwordResets } from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';
import type { Deps } from '../../platform/deps';

interface Recipient {
  id: number;
  email: string;
  first_name: string;
}

/**
 * Accounts created by someone else (org sub-admins and users, trainers) have no password: they get
 * a single-use link to /reset-password/{token}, valid SET_PASSWORD_LINK_DAYS days. Only the token's
 * hash is stored, in the same table as forgotten-password links.
 */
export async function issuePasswordLink(deps: Deps, user: Recipient, subject: string, intro: string): Promise<string> {
  const token = newToken(32);
  await deps.db.insert(passwordResets).values({
    user_id: user.id,
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + SET_PASSWORD_LINK_DAYS * 24 * 3600_000),
  });
  const link = `${deps.config.PUBLIC_URL}/reset-password/${token}`;
  await deps.mail.send({
    to: user.email,
    subject,
    text:
      `Hello ${user.first_name},\n\n${intro}\n\n` +
      `Choose your password with this link. It works once and expires in ${SET_PASSWORD_LINK_DAYS} days:\n\n${link}\n\n` +
      `Then sign in at ${deps.config.PUBLIC_URL}/login\n`,
  });
  return link;
}

/** A decision on an account or organization waiting for approval, told to the applicant. */
export async function sendDecisionMail(
  deps: Deps,
  to: string,
  name: string,
  decision: 'approved' | 'rejected',
  what: string,
): Promise<void> {
  const approved = decision === 'approved';
  await deps.mail.send({
    to,
    subject: approved ? `Your ${what} has been approved` : `Your ${what} was not approved`,
    text: approved
      ? `Hello ${name},\n\nYour ${what} has been approved, you can log in now: ${deps.config.PUBLIC_URL}/login\n`
      : `Hello ${name},\n\nWe are sorry: your ${what} was not approved. Please contact the administrator if you think this is a mistake.\n`,
  });
}
