import { createHash, randomBytes } from 'node:crypto';

/** Long random opaque tokens; the database only ever sees their SHA-256. */
export const newToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
