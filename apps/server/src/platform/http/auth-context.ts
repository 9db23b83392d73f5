import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { sessions, users } from '../../db/schema';
import { hashToken } from '../auth/tokens';
import type { Deps } from '../deps';
import { serviceUnavailable } from '../errors';

export type UserRow = typeof users.$inferSelect;
export interface AuthContext {
  user: UserRow;
  sessionId: number;
  token: string;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * The live session behind a bearer token: not revoked, not expired, account still allowed in. Served
 * from the session cache (decision 0024) while it is fresh; any change of accounts or sessions empties it.
 */
export async function resolveSession(deps: Pick<Deps, 'db' | 'sessions'>, token: string): Promise<AuthContext | null> {
  const tokenHash = hashToken(token);
  const found = await deps.sessions.resolve(tokenHash, async () => {
    const row = await loadSession(deps, tokenHash);
    return row ? { user: row.user, sessionId: row.sessionId, expiresAt: row.expiresAt } : null;
  });
  return found ? { user: found.user, sessionId: found.sessionId, token } : null;
}

async function loadSession(deps: Pick<Deps, 'db'>, tokenHash: string) {
  let rows: { user: typeof users.$inferSelect; sessionId: number; expiresAt: Date }[];
  try {
    rows = await deps.db
      .select({ user: users, sessionId: sessions.id, expiresAt: sessions.expires_at })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.user_id))
      .where(and(eq(sessions.token_hash, tokenHash), isNull(sessions.revoked_at), gt(sessions.expires_at, new Date())))
      .limit(1);
  } catch {
    // the database did not answer: the session is unknown, not absent
    throw serviceUnavailable();
  }
  const row = rows[0];
  if (!row || row.user.status !== 1 || row.user.is_approved !== 1) return null;
  return row;
}
