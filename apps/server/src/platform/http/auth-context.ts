import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { sessions, users } from '../../db/schema';
import { hashToken } from '../auth/tokens';
import type { Db } from '../db/client';
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

/** The live session behind a bearer token: not revoked, not expired, account still allowed in. */
export async function resolveSession(db: Db, token: string): Promise<AuthContext | null> {
  let rows: { user: typeof users.$inferSelect; sessionId: number }[];
  try {
    rows = await db
      .select({ user: users, sessionId: sessions.id })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.user_id))
      .where(
        and(
          eq(sessions.token_hash, hashToken(token)),
          isNull(sessions.revoked_at),
          gt(sessions.expires_at, new Date()),
        ),
      )
      .limit(1);
  } catch {
    // the database did not answer: the session is unknown, not absent
    throw serviceUnavailable();
  }
  const row = rows[0];
  if (!row || row.user.status !== 1 || row.user.is_approved !== 1) return null;
  return { user: row.user, sessionId: row.sessionId, token };
}
