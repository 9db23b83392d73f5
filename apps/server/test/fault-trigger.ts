import { sql } from 'drizzle-orm';
import type { Deps } from '../src/platform/deps';

/**
 * Makes the row writes on `table` that meet `condition` (a PL/pgSQL expression over tg_op, old and
 * new) fail as a terminated connection does (SQLSTATE 57P01), on PGlite and PostgreSQL alike, until
 * the answered function is called: a database fault injected at one step of a multi-step write.
 */
export async function failWrites(deps: Deps, table: string, condition: string): Promise<() => Promise<void>> {
  const name = `tl_fault_${table}`;
  await deps.db.execute(
    sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $$
      begin
        if ${condition} then
          raise exception 'terminating connection due to administrator command' using errcode = '57P01';
        end if;
        return new;
      end $$`),
  );
  await deps.db.execute(
    sql.raw(`create trigger ${name} before insert or update on ${table} for each row execute function ${name}()`),
  );
  return async () => {
    await deps.db.execute(sql.raw(`drop trigger ${name} on ${table}`));
    await deps.db.execute(sql.raw(`drop function ${name}()`));
  };
}
