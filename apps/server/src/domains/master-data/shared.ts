/** A unique index refused the row (PostgreSQL 23505; drizzle wraps driver errors in `cause`). */
export const isUniqueViolation = (e: unknown) => hasPgCode(e, '23505');
/** A foreign key refused the row: what it pointed to was deleted meanwhile (23503). */
export const isForeignKeyViolation = (e: unknown) => hasPgCode(e, '23503');

function hasPgCode(e: unknown, code: string): boolean {
  for (let err = e as { code?: string; cause?: unknown } | undefined, depth = 0; err && depth < 4; depth++) {
    if (err.code === code) return true;
    err = err.cause as typeof err;
  }
  return false;
}

/** A LIKE pattern matching `text` literally anywhere. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
