import { randomBytes } from 'node:crypto';
import type { Role } from '@trainlab/contract';
import { USER_TYPES } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app';
import { closeDeps, createDeps } from '../src/bootstrap';
import { organizations, users } from '../src/db/schema';
import { hashPassword } from '../src/platform/auth/passwords';
import { loadConfig } from '../src/platform/config';
import type { Deps } from '../src/platform/deps';
import { makeSlug } from '../src/platform/slug';

export const PASSWORD = 'Secret@123';
let passwordHash: Promise<string> | undefined;

/**
 * A fresh database per test file: in-memory PGlite by default, or a new PostgreSQL database when
 * TEST_DATABASE_URL is set (CI runs the suite both ways).
 */
export async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { url: 'memory://', drop: async () => {} };
  const name = `tl_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are asserted field by field
  post(path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  createUser(opts?: Partial<typeof users.$inferInsert> & { role?: Role }): Promise<typeof users.$inferSelect>;
  loginAs(
    opts?: Partial<typeof users.$inferInsert> & { role?: Role },
  ): Promise<{ token: string; user: typeof users.$inferSelect }>;
  createOrganization(opts?: Partial<typeof organizations.$inferInsert>): Promise<typeof organizations.$inferSelect>;
  outbox(): Promise<{ to: string; subject: string; text: string }[]>;
  close(): Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  /**
   * databaseUrl: another database than the suite's (a PGlite data folder, `memory://`);
   * logStream: the app logs (at LOG_LEVEL) to this stream; prettyLogs: through pino-pretty
   */
  opts: { databaseUrl?: string; logStream?: NodeJS.WritableStream; prettyLogs?: boolean } = {},
): Promise<TestApp> {
  const { url, drop } = opts.databaseUrl ? { url: opts.databaseUrl, drop: async () => {} } : await freshDatabaseUrl();
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://app.test',
    LOG_LEVEL: 'silent',
    FIELD_ENCRYPTION_KEYS: `test:${randomBytes(32).toString('base64')}`,
    ...env,
  });
  const deps = await createDeps(config, url);
  const app = await buildApp(
    deps,
    opts.logStream ? { logger: true, logStream: opts.logStream, prettyLogs: opts.prettyLogs } : {},
  );
  await app.ready();
  passwordHash ??= hashPassword(PASSWORD);

  const post: TestApp['post'] = async (path, body, token) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/${path}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    let parsed: unknown = res.body;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      /* non-JSON bodies stay text */
    }
    return { status: res.statusCode, body: parsed };
  };

  const createUser: TestApp['createUser'] = async (opts = {}) => {
    const role = opts.role ?? 'user';
    const first = opts.first_name ?? 'Test';
    const [row] = await deps.db
      .insert(users)
      .values({
        slug: makeSlug(first),
        first_name: first,
        last_name: opts.last_name ?? role,
        email: opts.email ?? `${role}-${randomBytes(5).toString('hex')}@example.test`,
        mobile_no: '9876543210',
        password_hash: await passwordHash,
        roles: [role],
        user_type: USER_TYPES[role],
        ...opts,
      })
      .returning();
    return row!;
  };

  const loginAs: TestApp['loginAs'] = async (opts = {}) => {
    const user = await createUser(opts);
    const res = await post('login', { email: user.email, password: PASSWORD });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.success.token as string, user };
  };

  const createOrganization: TestApp['createOrganization'] = async (opts = {}) => {
    const [row] = await deps.db
      .insert(organizations)
      .values({
        slug: makeSlug('org'),
        name: `Org ${randomBytes(3).toString('hex')}`,
        email: `org-${randomBytes(4).toString('hex')}@example.test`,
        org_domain: 'example.test',
        ip_link: 'https://idp.example.test',
        is_approved: 1,
        status: 1,
        ...opts,
      })
      .returning();
    return row!;
  };

  const outboxRows: TestApp['outbox'] = async () => {
    const { outbox } = await import('../src/db/schema');
    return deps.db.select({ to: outbox.to, subject: outbox.subject, text: outbox.text }).from(outbox);
  };

  return {
    app,
    deps,
    post,
    createUser,
    loginAs,
    createOrganization,
    outbox: outboxRows,
    close: async () => {
      await app.close();
      await closeDeps(deps);
      await drop();
    },
  };
}

/** Every role except the given ones: the callers that must get 403. */
export const rolesExcept = (...allowed: Role[]): Role[] =>
  (Object.keys(USER_TYPES) as Role[]).filter((r) => !allowed.includes(r));
