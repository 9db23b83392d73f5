import { and, eq, type SQL } from 'drizzle-orm';
import { syllabusTopics, trainings, trainingTrainers, trainingUsers } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { isManager, managedBy, managerTenant, tenantWhere } from '../../platform/tenancy';

/**
 * The one place that decides who sees which training:
 * - managers (provider, organization, org_subadmin) see the trainings of their tenant: a provider's
 *   own (owner_user_id), an organization's shared by the organization account and its sub-admins;
 * - trainers see the trainings assigned to them;
 * - learners see the trainings they are enrolled in.
 * A training outside what the caller may see answers 404, as if it did not exist. Which tenant a
 * manager acts for, and whether a row is its, is platform/tenancy.ts's rule.
 */

export type TrainingRow = typeof trainings.$inferSelect;
export type TopicRow = typeof syllabusTopics.$inferSelect;
export type EnrolmentRow = typeof trainingUsers.$inferSelect;

async function managed(deps: Deps, auth: AuthContext, where: SQL): Promise<TrainingRow> {
  const [row] = await deps.db
    .select()
    .from(trainings)
    .where(and(where, tenantWhere(trainings, managerTenant(auth))))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** A training of the caller's tenant, by slug; 404 otherwise. */
export const trainingForManager = (deps: Deps, auth: AuthContext, slug: string) =>
  managed(deps, auth, eq(trainings.slug, slug));
export const trainingByIdForManager = (deps: Deps, auth: AuthContext, id: number) =>
  managed(deps, auth, eq(trainings.id, id));

async function isAssignedTrainer(deps: Deps, auth: AuthContext, trainingId: number): Promise<boolean> {
  if (!auth.user.roles.includes('trainer')) return false;
  const rows = await deps.db
    .select({ id: trainingTrainers.id })
    .from(trainingTrainers)
    .where(and(eq(trainingTrainers.training_id, trainingId), eq(trainingTrainers.trainer_id, auth.user.id)))
    .limit(1);
  return rows.length > 0;
}

/** Whether the caller manages this training (its tenant) or is one of its trainers. */
export async function staffCanSee(deps: Deps, auth: AuthContext, training: TrainingRow): Promise<boolean> {
  if (isManager(auth) && managedBy(auth, training)) return true;
  return isAssignedTrainer(deps, auth, training.id);
}

/** A training of the caller's tenant or assigned to the calling trainer; 404 otherwise. */
export async function trainingForStaff(deps: Deps, auth: AuthContext, by: { slug: string } | { id: number }) {
  const [row] = await deps.db
    .select()
    .from(trainings)
    .where('slug' in by ? eq(trainings.slug, by.slug) : eq(trainings.id, by.id))
    .limit(1);
  if (!row || !(await staffCanSee(deps, auth, row))) throw notFound();
  return row;
}

/** A syllabus topic of a training the caller manages (or, with `trainers`, is assigned to). */
export async function topicForStaff(deps: Deps, auth: AuthContext, topicId: number, opts: { trainers: boolean }) {
  const [row] = await deps.db
    .select({ topic: syllabusTopics, training: trainings })
    .from(syllabusTopics)
    .innerJoin(trainings, eq(trainings.id, syllabusTopics.training_id))
    .where(eq(syllabusTopics.id, topicId))
    .limit(1);
  if (!row) throw notFound();
  const visible = opts.trainers
    ? await staffCanSee(deps, auth, row.training)
    : isManager(auth) && managedBy(auth, row.training);
  if (!visible) throw notFound();
  return row;
}

/** A training the caller is enrolled in, with the enrolment; 404 otherwise. */
export async function trainingForLearner(deps: Deps, auth: AuthContext, slug: string) {
  const [row] = await deps.db
    .select({ training: trainings, enrolment: trainingUsers })
    .from(trainings)
    .innerJoin(trainingUsers, and(eq(trainingUsers.training_id, trainings.id), eq(trainingUsers.user_id, auth.user.id)))
    .where(eq(trainings.slug, slug))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** A topic of a training the caller is enrolled in, with the training and enrolment; 404 otherwise. */
export async function topicForLearner(deps: Deps, auth: AuthContext, topicId: number) {
  const [row] = await deps.db
    .select({ topic: syllabusTopics, training: trainings, enrolment: trainingUsers })
    .from(syllabusTopics)
    .innerJoin(trainings, eq(trainings.id, syllabusTopics.training_id))
    .innerJoin(trainingUsers, and(eq(trainingUsers.training_id, trainings.id), eq(trainingUsers.user_id, auth.user.id)))
    .where(eq(syllabusTopics.id, topicId))
    .limit(1);
  if (!row) throw notFound();
  return row;
}
