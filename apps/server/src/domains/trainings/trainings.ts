import { randomBytes } from 'node:crypto';
import {
  type createTrainingRequest,
  MSG,
  TRAINING_DETAIL_FIELDS,
  TRAINING_STATUS,
  type trainingListRequest,
  type updateTrainingRequest,
} from '@trainlab/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { assessments, services, trainings, trainingUsers } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { AppError, ValidationError } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { makeSlug } from '../../platform/slug';
import { managerTenant, tenantColumns, tenantWhere } from '../../platform/tenancy';
import { trainingByIdForManager, trainingForManager, trainingForStaff } from './access';
import { completed, toTrainingRow, trainingCounts, trainingPage, upcoming } from './rows';

const SERVICE = {
  trainingPerDay: 'TRAINING (Per Day)',
  preAssessment: 'PRE-ASSESSMENT (Per Test)',
  postAssessment: 'POST-ASSESSMENT (Per Test)',
} as const;

/** The Cost tab: training per-day price × days + (pre + post assessment per-test prices) × participants. */
export async function trainingCost(
  deps: Deps,
  b: { total_training_day: number; number_of_participants: number; pre_assessment: boolean; post_assessment: boolean },
): Promise<number> {
  const rows = await deps.db.select({ service: services.service, price: services.price }).from(services);
  const price = (service: string) => Number(rows.find((r) => r.service === service)?.price ?? 0);
  const perTest =
    (b.pre_assessment ? price(SERVICE.preAssessment) : 0) + (b.post_assessment ? price(SERVICE.postAssessment) : 0);
  const cost = price(SERVICE.trainingPerDay) * b.total_training_day + perTest * b.number_of_participants;
  return Math.round(cost * 100) / 100;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A date-only start ('2026-11-21') is that day at 00:00 UTC; a date-only end the last instant of that day. */
const toDate = (v: string, end = false) =>
  DATE_ONLY.test(v) && end ? new Date(Date.parse(v) + 24 * 3600_000 - 1) : new Date(v);

export async function createTraining(deps: Deps, auth: AuthContext, body: z.output<typeof createTrainingRequest>) {
  const tenant = managerTenant(auth);
  const cost = await trainingCost(deps, body);
  const [row] = await deps.db
    .insert(trainings)
    .values({
      slug: makeSlug(body.name),
      link: randomBytes(12).toString('base64url'),
      name: body.name,
      start_date: toDate(body.start_date),
      end_date: toDate(body.end_date, true),
      total_training_day: body.total_training_day,
      number_of_participants: body.number_of_participants,
      description: body.description,
      requirements: body.requirements,
      pre_assessment: body.pre_assessment ? 1 : 0,
      post_assessment: body.post_assessment ? 1 : 0,
      cost,
      created_by: auth.user.id,
      ...tenantColumns(tenant),
    })
    .returning({ id: trainings.id, slug: trainings.slug, link: trainings.link });
  return { message: MSG.trainingCreated, id: row!.id, slug: row!.slug, link: row!.link, cost };
}

/** Texts of /update-training (not in the spec; issue 32). */
export const TRAINING_EDIT_MSG = {
  updated: 'Training updated successfully!',
  nothingToChange: 'Send at least one field to change.',
  started: 'The training has already started: only its pre- and post-assessment can be switched on now.',
  testBuilt: (type: 1 | 2) =>
    `A ${type === 1 ? 'pre' : 'post'}-assessment is already built for this training, so it cannot be switched off.`,
  belowEnrolled: (n: number) =>
    `The training already has ${n} learner${n === 1 ? '' : 's'} enrolled; the number of participants cannot be lower.`,
  endBeforeStart: 'The end date must be a date after or equal to start date.',
} as const;

/**
 * /update-training: only the fields sent change. Details only while the training has not started
 * (the status check is in the UPDATE itself, so a concurrent start wins); the assessments may be
 * switched on at any time and off while no test of that type is built. The cost is computed again.
 */
export async function updateTraining(deps: Deps, auth: AuthContext, body: z.output<typeof updateTrainingRequest>) {
  const training = await trainingForManager(deps, auth, body.slug);
  const details = TRAINING_DETAIL_FIELDS.filter((f) => body[f] !== undefined);
  const switches = (['pre_assessment', 'post_assessment'] as const).filter((f) => body[f] !== undefined);
  if (details.length === 0 && switches.length === 0)
    throw new ValidationError({ slug: [TRAINING_EDIT_MSG.nothingToChange] });
  if (details.length > 0 && training.status !== TRAINING_STATUS.notStarted) {
    throw new AppError(422, TRAINING_EDIT_MSG.started, { slug: [TRAINING_EDIT_MSG.started] });
  }

  const errors: Record<string, string[]> = {};
  const start = body.start_date !== undefined ? toDate(body.start_date) : training.start_date;
  const end = body.end_date !== undefined ? toDate(body.end_date, true) : training.end_date;
  if ((body.start_date !== undefined || body.end_date !== undefined) && end.getTime() < start.getTime()) {
    errors.end_date = [TRAINING_EDIT_MSG.endBeforeStart];
  }
  if (body.number_of_participants !== undefined) {
    const [enrolled] = await deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(trainingUsers)
      .where(eq(trainingUsers.training_id, training.id));
    const n = Number(enrolled?.n ?? 0);
    if (body.number_of_participants < n) errors.number_of_participants = [TRAINING_EDIT_MSG.belowEnrolled(n)];
  }
  for (const [field, type] of [
    ['pre_assessment', 1],
    ['post_assessment', 2],
  ] as const) {
    if (body[field] !== false || !training[field]) continue;
    const [built] = await deps.db
      .select({ id: assessments.id })
      .from(assessments)
      .where(and(eq(assessments.training_id, training.id), eq(assessments.type, type)))
      .limit(1);
    if (built) errors[field] = [TRAINING_EDIT_MSG.testBuilt(type)];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const flag = (v: boolean | undefined, was: number) => (v === undefined ? was : v ? 1 : 0);
  const pre = flag(body.pre_assessment, training.pre_assessment);
  const post = flag(body.post_assessment, training.post_assessment);
  const days = body.total_training_day ?? training.total_training_day;
  const participants = body.number_of_participants ?? training.number_of_participants;
  const cost = await trainingCost(deps, {
    total_training_day: days,
    number_of_participants: participants,
    pre_assessment: pre === 1,
    post_assessment: post === 1,
  });
  const updated = await deps.db
    .update(trainings)
    .set({
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.start_date !== undefined ? { start_date: start } : {}),
      ...(body.end_date !== undefined ? { end_date: end } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.requirements !== undefined ? { requirements: body.requirements } : {}),
      total_training_day: days,
      number_of_participants: participants,
      pre_assessment: pre,
      post_assessment: post,
      cost,
      updated_at: new Date(),
    })
    .where(
      details.length > 0
        ? and(eq(trainings.id, training.id), eq(trainings.status, TRAINING_STATUS.notStarted))
        : eq(trainings.id, training.id),
    )
    .returning({ id: trainings.id });
  if (updated.length === 0) throw new AppError(422, TRAINING_EDIT_MSG.started, { slug: [TRAINING_EDIT_MSG.started] });
  return {
    message: TRAINING_EDIT_MSG.updated,
    id: training.id,
    slug: training.slug,
    cost,
    pre_assessment: pre,
    post_assessment: post,
  };
}

export const upcomingTrainings = (deps: Deps, auth: AuthContext, q: z.output<typeof trainingListRequest>) =>
  trainingPage(deps.db, and(tenantWhere(trainings, managerTenant(auth)), upcoming())!, q, 'start');

export const completedTrainings = (deps: Deps, auth: AuthContext, q: z.output<typeof trainingListRequest>) =>
  trainingPage(deps.db, and(tenantWhere(trainings, managerTenant(auth)), completed())!, q, 'end-desc');

export async function trainingDetails(deps: Deps, auth: AuthContext, slug: string) {
  const training = await trainingForStaff(deps, auth, { slug });
  const [row] = await deps.db
    .select({ ...trainingCounts })
    .from(trainings)
    .where(eq(trainings.id, training.id));
  return { success: toTrainingRow({ ...training, ...row! }) };
}

export async function togglePublic(deps: Deps, auth: AuthContext, id: number) {
  const training = await trainingByIdForManager(deps, auth, id);
  const [row] = await deps.db
    .update(trainings)
    .set({ is_public: sql`1 - ${trainings.is_public}`, updated_at: new Date() })
    .where(eq(trainings.id, training.id))
    .returning({ is_public: trainings.is_public });
  const isPublic = row!.is_public;
  return { message: isPublic === 1 ? MSG.trainingPublic : MSG.trainingPrivate, is_public: isPublic };
}

export async function deleteTraining(deps: Deps, auth: AuthContext, slug: string) {
  const training = await trainingForManager(deps, auth, slug);
  // Only a not-yet-started training; the status check is in the DELETE itself so a concurrent start wins.
  const deleted = await deps.db
    .delete(trainings)
    .where(and(eq(trainings.id, training.id), eq(trainings.status, TRAINING_STATUS.notStarted)))
    .returning({ id: trainings.id });
  if (deleted.length === 0) throw new AppError(422, MSG.trainingAlreadyStarted, { slug: [MSG.trainingAlreadyStarted] });
  return { message: MSG.trainingDeleted };
}

/** How many upcoming trainings the dashboard lists (the next ones; the full list is /all-trainings). */
const DASHBOARD_UPCOMING = 10;

export async function managerDashboard(deps: Deps, auth: AuthContext) {
  const tenant = tenantWhere(trainings, managerTenant(auth));
  const list = await deps.db
    .select({
      id: trainings.id,
      name: trainings.name,
      slug: trainings.slug,
      start_date: trainings.start_date,
      end_date: trainings.end_date,
    })
    .from(trainings)
    .where(and(tenant, upcoming()))
    .orderBy(trainings.start_date, trainings.id)
    .limit(DASHBOARD_UPCOMING);
  // one grouped pass over the tenant's trainings for every count
  const [counts] = await deps.db
    .select({
      total: sql<number>`count(*)::int`,
      done: sql<number>`count(*) filter (where ${completed()})::int`,
      upcoming: sql<number>`count(*) filter (where ${upcoming()})::int`,
    })
    .from(trainings)
    .where(tenant);
  const [enrolled] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(trainingUsers)
    .innerJoin(trainings, eq(trainings.id, trainingUsers.training_id))
    .where(tenant);
  return {
    list: list.map((r) => ({ ...r, start_date: r.start_date.toISOString(), end_date: r.end_date.toISOString() })),
    total_trainings: Number(counts!.total),
    upcoming_trainings: Number(counts!.upcoming),
    completed_trainings: Number(counts!.done),
    total_participants: Number(enrolled!.n),
  };
}
