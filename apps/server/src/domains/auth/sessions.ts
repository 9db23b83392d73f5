import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { sessions } from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';
import type { Db } from '../../platform/db/client';

export async function hasLiveSession(db: Db, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at), gt(sessions.expires_at, new Date())))
    .limit(1);
  return rows.length > 0;
}

/** Revokes every live session of the account, except `keepSessionId` when given. */
export async function revokeSessions(db: Db, userId: number, keepSessionId?: number): Promise<void> {
  const conditions = [eq(sessions.user_id, userId), isNull(sessions.revoked_at)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await db
    .update(sessions)
    .set({ revoked_at: new Date() })
    .where(and(...conditions));
}

export async function openSession(db: Db, userId: number, ttlHours: number): Promise<string> {
  const token = newToken(32);
  await db.insert(sessions).values({
    user_id: userId,
    token_hash: hashToken(token),
    expires_at: new Date(Date.now() + ttlHours * 3600_000),
  });
  return token;
}

export async function revokeSession(db: Db, sessionId: number): Promise<void> {
  await db.update(sessions).set({ revoked_at: new Date() }).where(eq(sessions.id, sessionId));
}
