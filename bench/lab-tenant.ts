import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sessions, users } from '../apps/server/src/db/schema';
import { hashToken, newToken } from '../apps/server/src/platform/auth/tokens';
import type { Deps } from '../apps/server/src/platform/deps';

/**
 * A provider signed in (a session token made directly) with its lab account registered and
 * authorized: what every lab bench needs before its first /gc-create-vm. `post` calls the API as that
 * provider and throws on anything but 200.
 */
export async function benchLabTenant(app: FastifyInstance, deps: Deps) {
  const tag = randomBytes(3).toString('hex');
  const [owner] = await deps.db
    .insert(users)
    .values({
      slug: `bench-labs-${tag}`,
      first_name: 'Bench',
      last_name: 'Labs',
      email: `bench-labs-${tag}@bench.test`,
      password_hash: 'x',
      roles: ['provider'],
      user_type: 3,
    })
    .returning();
  const token = newToken();
  await deps.db
    .insert(sessions)
    .values({ user_id: owner!.id, token_hash: hashToken(token), expires_at: new Date(Date.now() + 3600_000) });
  const post = async (call: string, body: unknown) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/${call}`,
      headers: { authorization: `Bearer ${token}` },
      payload: body as object,
    });
    if (res.statusCode !== 200) throw new Error(`${call}: ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, unknown>;
  };
  const password = `Lab#${randomBytes(6).toString('hex')}`;
  const account = {
    username: `benchlabs${tag}`,
    email: `labs-${tag}@bench.test`,
    first_name: 'Bench',
    last_name: 'Labs',
  };
  await post('register-gc-account', { ...account, password, password2: password });
  await post('authorize-gc-account', { username: account.username, password });
  return { token, post };
}
