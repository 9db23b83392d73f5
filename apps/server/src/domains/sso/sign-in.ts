import { MSG, type Role, SSO_MSG, type SsoErrorReason, USER_TYPES } from '@trainlab/contract';
import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import {
  organizations,
  sessions,
  ssoDomains,
  ssoLoginCodes,
  ssoSeenAssertions,
  ssoSessions,
  ssoSettings,
  users,
} from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';
import type { Deps } from '../../platform/deps';
import { forbidden, invalidField } from '../../platform/errors';
import type { UserRow } from '../../platform/http/auth-context';
import { makeSlug } from '../../platform/slug';
import { toSessionUser } from '../auth/session-user';
import { hasLiveSession, openSession, revokeSessions } from '../auth/sessions';
import { findUserByEmail, organizationIsActive } from '../auth/users-repo';
import type { SsoRow } from './settings';

export const CODE_TTL_MS = 2 * 60_000;
export const REQUEST_TTL_MS = 10 * 60_000;
export const CLOCK_SKEW_MS = 60_000;

/** A sign-in that cannot go on: the person sees the reason's page, the log gets the detail. */
export class SsoError extends Error {
  constructor(
    readonly reason: SsoErrorReason,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

export interface SsoIdentity {
  email: string;
  firstName: string;
  lastName: string;
  groups: string[];
  /** what single logout will need later */
  logout?: { nameId?: string | null; nameIdFormat?: string | null; sessionIndex?: string | null; idToken?: string };
}

type OrgRow = typeof organizations.$inferSelect;
export interface SsoTarget {
  org: OrgRow;
  row: SsoRow;
}

export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** The organization whose provider signs in this e-mail, when its SSO is on. */
export async function targetForEmail(deps: Deps, email: string): Promise<SsoTarget | null> {
  const rows = await deps.db
    .select({ org: organizations, row: ssoSettings })
    .from(ssoDomains)
    .innerJoin(ssoSettings, eq(ssoSettings.organization_id, ssoDomains.organization_id))
    .innerJoin(organizations, eq(organizations.id, ssoDomains.organization_id))
    // only a proved domain routes anyone (at most one organization holds a domain proved)
    .where(
      and(eq(ssoDomains.domain, emailDomain(email)), isNotNull(ssoDomains.verified_at), eq(ssoSettings.enabled, 1)),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function targetForSlug(deps: Deps, slug: string): Promise<SsoTarget | null> {
  const rows = await deps.db
    .select({ org: organizations, row: ssoSettings })
    .from(organizations)
    .innerJoin(ssoSettings, eq(ssoSettings.organization_id, organizations.id))
    .where(eq(organizations.slug, slug))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * An organization may keep its people from signing in with a password: then only the organization
 * account itself (which repairs the settings) still may.
 */
export async function passwordLoginForbidden(deps: Deps, user: UserRow): Promise<boolean> {
  if (!user.organization_id || user.roles.includes('organization')) return false;
  const target = await targetForEmail(deps, user.email);
  return Boolean(target && target.org.id === user.organization_id && target.row.password_login_disabled === 1);
}

/** Each assertion / ID token is accepted once. */
export async function claimAssertion(deps: Deps, key: string, expiresAt: Date): Promise<void> {
  const inserted = await deps.db
    .insert(ssoSeenAssertions)
    .values({ assertion_key: key, expires_at: expiresAt })
    .onConflictDoNothing()
    .returning({ k: ssoSeenAssertions.assertion_key });
  if (inserted.length === 0) throw new SsoError('expired', `replayed assertion ${key}`);
}

const SSO_ROLES: readonly Role[] = ['organization_user', 'org_subadmin'];

/**
 * Finds or creates (just in time) the account a verified identity signs in, and answers a one-time
 * code the web app trades for the session through /sso-exchange.
 */
export async function completeSignIn(
  deps: Deps,
  target: SsoTarget,
  identity: SsoIdentity,
  isPrevious: boolean,
): Promise<string> {
  const { org, row } = target;
  const email = identity.email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new SsoError('misconfigured', 'the answer carries no e-mail address');
  const domains = await deps.db
    .select({ d: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.organization_id, org.id), isNotNull(ssoDomains.verified_at)));
  // a provider speaks only for its own organization's proved domains
  if (!domains.some((d) => d.d === emailDomain(email))) {
    throw new SsoError('refused', `${email} is not of a domain of organization ${org.id}`);
  }
  if (org.status !== 1) throw new SsoError('inactive', `organization ${org.id} is deactivated`);
  if (org.is_approved !== 1) throw new SsoError('inactive', `organization ${org.id} is not approved`);
  const subadmin = Boolean(row.subadmin_group && identity.groups.includes(row.subadmin_group));
  const role: Role = subadmin ? 'org_subadmin' : 'organization_user';

  let user = await findUserByEmail(deps.db, email);
  if (user) {
    if (user.organization_id !== org.id || !user.roles.some((r) => (SSO_ROLES as readonly string[]).includes(r))) {
      throw new SsoError('refused', `account ${user.id} is not a person of organization ${org.id}`);
    }
    if (row.subadmin_group && user.roles[0] !== role) {
      [user] = await deps.db
        .update(users)
        .set({ roles: [role], user_type: USER_TYPES[role], updated_at: new Date() })
        .where(eq(users.id, user.id))
        .returning();
    }
  } else {
    const first = identity.firstName.trim() || email.split('@')[0]!;
    [user] = await deps.db
      .insert(users)
      .values({
        slug: makeSlug(first, identity.lastName),
        first_name: first.slice(0, 100),
        last_name: identity.lastName.trim().slice(0, 100),
        email,
        password_hash: null,
        roles: [role],
        user_type: USER_TYPES[role],
        is_approved: 1,
        organization_id: org.id,
      })
      .onConflictDoNothing()
      .returning();
    // two first sign-ins at once: the other one created it
    user ??= await findUserByEmail(deps.db, email);
  }
  if (!user) throw new SsoError('invalid_answer', `account of ${email} could not be created`);
  if (user.is_approved !== 1) throw new SsoError('awaiting_approval', `account ${user.id} is not approved`);
  if (user.status !== 1) throw new SsoError('inactive', `account ${user.id} is deactivated`);

  const code = newToken(32);
  await deps.db.insert(ssoLoginCodes).values({
    code_hash: hashToken(code),
    user_id: user.id,
    is_previous: isPrevious ? 1 : 0,
    expires_at: new Date(Date.now() + CODE_TTL_MS),
    organization_id: org.id,
    protocol: row.protocol,
    name_id: identity.logout?.nameId ?? null,
    name_id_format: identity.logout?.nameIdFormat ?? null,
    session_index: identity.logout?.sessionIndex ?? null,
    id_token_enc: identity.logout?.idToken ? deps.cipher.encrypt(identity.logout.idToken) : null,
  });
  return code;
}

/** /sso-exchange: the one-time code becomes a session under the same rules as a password login. */
export async function exchangeCode(deps: Deps, code: string) {
  const [claimed] = await deps.db
    .update(ssoLoginCodes)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(ssoLoginCodes.code_hash, hashToken(code)),
        isNull(ssoLoginCodes.used_at),
        gt(ssoLoginCodes.expires_at, new Date()),
      ),
    )
    .returning();
  if (!claimed) throw invalidField('code', SSO_MSG.codeInvalid);
  const [user] = await deps.db.select().from(users).where(eq(users.id, claimed.user_id));
  if (!user) throw invalidField('code', SSO_MSG.codeInvalid);
  if (user.is_approved !== 1) throw forbidden(MSG.awaitingApproval, 'awaiting_approval');
  if (user.status !== 1 || !(await organizationIsActive(deps.db, user.organization_id))) {
    throw forbidden(MSG.accountInactive, 'account_inactive');
  }
  if (await hasLiveSession(deps.db, user.id)) {
    if (claimed.is_previous !== 1) throw forbidden(MSG.loggedInElsewhere, 'logged_in_elsewhere');
    await revokeSessions(deps.db, user.id);
  }
  const token = await openSession(deps.db, user.id, deps.config.SESSION_TTL_HOURS);
  const [session] = await deps.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.token_hash, hashToken(token)));
  if (session) {
    await deps.db.insert(ssoSessions).values({
      session_id: session.id,
      organization_id: claimed.organization_id,
      protocol: claimed.protocol,
      name_id: claimed.name_id,
      name_id_format: claimed.name_id_format,
      session_index: claimed.session_index,
      id_token_enc: claimed.id_token_enc,
    });
  }
  return { success: toSessionUser(user, token) };
}
