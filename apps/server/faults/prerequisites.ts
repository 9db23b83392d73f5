import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * What the database fault test runs besides the server: PostgreSQL's own binaries (initdb, pg_ctl;
 * Debian's postgresql package puts them in /usr/lib/postgresql/<major>/bin) and redis-server. Both
 * may be named by PG_BIN and REDIS_SERVER.
 */
function newestPostgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => existsSync(path.join(root, d, 'bin', 'initdb')))
        .sort((x, y) => Number(y) - Number(x))
    : [];
  return majors.length ? path.join(root, majors[0]!, 'bin') : '';
}

export const PG_BIN = process.env.PG_BIN || newestPostgresBin();
export const REDIS_SERVER = process.env.REDIS_SERVER || '/usr/bin/redis-server';
