import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema';

const require = createRequire(import.meta.url);
const { generateDrizzleJson, generateMigration } = require('drizzle-kit/api') as typeof import('drizzle-kit/api');

describe('committed migrations', () => {
  it('match the schema (run npm run db:generate after changing a table)', async () => {
    const meta = path.resolve(import.meta.dirname, '../drizzle/meta');
    const snapshots = readdirSync(meta)
      .filter((f) => f.endsWith('_snapshot.json'))
      .sort();
    const latest = JSON.parse(readFileSync(path.join(meta, snapshots.at(-1)!), 'utf8'));
    const current = generateDrizzleJson(schema as Record<string, unknown>, latest.id);
    const statements = await generateMigration(latest, current);
    expect(statements).toEqual([]);
  });
});
