import argon2 from 'argon2';

/** argon2id with the library's defaults (OWASP-level memory cost). */
export const hashPassword = (plain: string): Promise<string> => argon2.hash(plain, { type: argon2.argon2id });

export async function verifyPassword(hash: string | null, plain: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/** Verifying against a fixed hash keeps the timing of unknown e-mails like that of known ones. */
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(plain: string): Promise<void> {
  dummy ??= hashPassword('timing-equaliser-password');
  await verifyPassword(await dummy, plain);
}
