import type { Role } from '@trainlab/contract';
import { USER_TYPES } from '@trainlab/contract';
import { count, eq } from 'drizzle-orm';
import { linesOfBusiness, organizations, users } from '../db/schema';
import { hashPassword } from '../platform/auth/passwords';
import type { Db } from '../platform/db/client';
import { makeSlug } from '../platform/slug';

export const DEMO_PASSWORD = 'Demo@12345';

export const DEMO_ACCOUNTS: { email: string; role: Role; first_name: string; last_name: string }[] = [
  { email: 'admin@demo.test', role: 'admin', first_name: 'Asha', last_name: 'Admin' },
  { email: 'provider@demo.test', role: 'provider', first_name: 'Priya', last_name: 'Provider' },
  { email: 'org@demo.test', role: 'organization', first_name: 'Omar', last_name: 'Organization' },
  { email: 'orgadmin@demo.test', role: 'org_subadmin', first_name: 'Sara', last_name: 'Subadmin' },
  { email: 'learner@demo.test', role: 'provider_user', first_name: 'Liam', last_name: 'Learner' },
  { email: 'orguser@demo.test', role: 'organization_user', first_name: 'Uma', last_name: 'Orguser' },
  { email: 'user@demo.test', role: 'user', first_name: 'Ravi', last_name: 'User' },
  { email: 'trainer@demo.test', role: 'trainer', first_name: 'Tara', last_name: 'Trainer' },
];

const LINES_OF_BUSINESS = ['Information Technology', 'Banking & Finance', 'Healthcare', 'Manufacturing', 'Education'];

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return (row?.n ?? 0) === 0;
}

/** One account per role, all with the demo password, around one organization and one provider. */
export async function seedDemo(db: Db): Promise<void> {
  await db
    .insert(linesOfBusiness)
    .values(LINES_OF_BUSINESS.map((name) => ({ name })))
    .onConflictDoNothing();
  const [lob] = await db.select().from(linesOfBusiness).where(eq(linesOfBusiness.name, 'Information Technology'));
  const [org] = await db
    .insert(organizations)
    .values({
      slug: makeSlug('acme learning corp'),
      name: 'Acme Learning Corp',
      email: 'org@demo.test',
      org_domain: 'acme.example',
      ip_link: 'https://idp.acme.example/sso',
      description: 'Demo organization',
      status: 1,
      is_approved: 1,
    })
    .returning();
  const hash = await hashPassword(DEMO_PASSWORD);
  const ids: Partial<Record<Role, number>> = {};
  for (const account of DEMO_ACCOUNTS) {
    const inOrg = ['organization', 'org_subadmin', 'organization_user'].includes(account.role);
    const [row] = await db
      .insert(users)
      .values({
        slug: makeSlug(account.first_name, account.last_name),
        first_name: account.first_name,
        last_name: account.last_name,
        email: account.email,
        mobile_no: '9876543210',
        password_hash: hash,
        roles: [account.role],
        user_type: USER_TYPES[account.role],
        organization_id: inOrg ? org!.id : null,
        lob_id: account.role === 'organization' ? lob!.id : null,
        provider_id: account.role === 'provider_user' ? (ids.provider ?? null) : null,
      })
      .returning({ id: users.id });
    ids[account.role] = row!.id;
  }
}

/** Production start: the first admin comes from ADMIN_EMAIL / ADMIN_PASSWORD (or npm run create-admin). */
export async function ensureAdmin(db: Db, email: string, password: string): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase()));
  if (existing) return false;
  await db.insert(users).values({
    slug: makeSlug('admin'),
    first_name: 'Admin',
    last_name: 'User',
    email: email.toLowerCase(),
    password_hash: await hashPassword(password),
    roles: ['admin'],
    user_type: USER_TYPES.admin,
  });
  return true;
}
