import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived playback tokens for GET /api/recording-file/{id}?t=…, because a <video> element
 * cannot send an Authorization header. Token = base64url("{recordingId}.{userId}.{expiresAtSeconds}")
 * + "." + base64url(HMAC-SHA256).
 */
export const PLAYBACK_TOKEN_TTL_SECONDS = 4 * 3600;

export class PlaybackTokens {
  /** the key, or how to get it when signing (a key stored in the database is read once it answers) */
  constructor(private readonly secret: string | (() => string)) {}

  private mac(payload: string): Buffer {
    const key = typeof this.secret === 'string' ? this.secret : this.secret();
    return createHmac('sha256', Buffer.from(key, 'utf8')).update(payload).digest();
  }

  sign(recordingId: number, userId: number, now = Date.now()): string {
    const exp = Math.floor(now / 1000) + PLAYBACK_TOKEN_TTL_SECONDS;
    const payload = `${recordingId}.${userId}.${exp}`;
    return `${Buffer.from(payload).toString('base64url')}.${this.mac(payload).toString('base64url')}`;
  }

  /** The user the token was issued to, when it is genuine, unexpired and for this recording. */
  verify(token: string, recordingId: number, now = Date.now()): { userId: number } | null {
    const [p, m, ...rest] = token.split('.');
    if (!p || !m || rest.length) return null;
    const payload = Buffer.from(p, 'base64url').toString('utf8');
    const expected = this.mac(payload);
    const given = Buffer.from(m, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(payload);
    if (!match) return null;
    const [, rid, uid, exp] = match;
    if (Number(rid) !== recordingId || Number(exp) * 1000 <= now) return null;
    return { userId: Number(uid) };
  }
}
