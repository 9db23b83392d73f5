import {
  ORG_MSG,
  type trainerListRequest,
  type trainerRequest,
  USER_TYPES,
  type updateTrainerRequest,
} from '@trainlab/contract';
import { and, arrayContains, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import { makeSlug } from '../../platform/slug';
import { issuePasswordLink } from '../accounts-mail';
import { updateAccount } from './managed-users';
import { pageOfPeople } from './people-page';
import { emailTaken, isUniqueViolation } from './shared';

type UserRow = typeof users.$inferSelect;
const isTrainer = () => arrayContains(users.roles, ['trainer']);

const toTrainer = (u: UserRow) => ({
  id: u.id,
  slug: u.slug,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  mobile_no: u.mobile_no,
  status: u.status,
});

/** The admin registers a trainer: an approved account without a password, which gets a set-password link. */
export async function registerTrainer(deps: Deps, body: z.output<typeof trainerRequest>) {
  if (await emailTaken(deps.db, body.email)) throw invalidField('email', ORG_MSG.emailTaken);
  let user: UserRow | undefined;
  try {
    [user] = await deps.db
      .insert(users)
      .values({
        slug: makeSlug(body.first_name, body.last_name),
        first_name: body.first_name,
        last_name: body.last_name,
        email: body.email,
        mobile_no: body.mobile_no,
        password_hash: null,
        roles: ['trainer'],
        user_type: USER_TYPES.trainer,
        is_approved: 1,
      })
      .returning();
  } catch (e) {
    if (isUniqueViolation(e)) throw invalidField('email', ORG_MSG.emailTaken);
    throw e;
  }
  await issuePasswordLink(
    deps,
    user!,
    'Your TrainLab trainer account',
    'An administrator has registered you as a trainer on TrainLab.',
  );
  return { message: ORG_MSG.trainerRegistered, id: user!.id, slug: user!.slug };
}

export async function listTrainers(deps: Deps, q: z.output<typeof trainerListRequest>) {
  return pageOfPeople(deps, isTrainer(), q, toTrainer);
}

async function findTrainer(deps: Deps, id: number): Promise<UserRow> {
  const [row] = await deps.db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isTrainer()));
  if (!row) throw notFound();
  return row;
}

export async function getTrainer(deps: Deps, id: number) {
  return { success: toTrainer(await findTrainer(deps, id)) };
}

export async function updateTrainer(deps: Deps, body: z.output<typeof updateTrainerRequest>) {
  const trainer = await findTrainer(deps, body.id);
  await updateAccount(deps, trainer.id, body);
  return { message: ORG_MSG.recordUpdated, slug: trainer.slug };
}
