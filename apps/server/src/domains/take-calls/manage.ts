import {
  type assignFromTakeCallRequest,
  type createTakeCallRequest,
  MSG,
  type rescheduleTakeCallRequest,
  TAKE_CALL_MSG,
  type takeCallDetailsRequest,
  type takeCallListRequest,
} from '@trainlab/contract';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { takeCallRequirements, takeCalls, takeCallTrainers, trainings, trainingTrainers, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField, notFound } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import {
  countUpTo,
  orderFor,
  pageWindow,
  searchWhere,
  toCountedPage,
  toPage,
  totalAtFirstRow,
  totalOver,
} from '../../platform/http/paging';
import { makeSlug } from '../../platform/slug';
import { managerTenant, tenantWhere } from '../../platform/tenancy';
import { trainingForManager } from '../trainings/access';
import { type TakeCallRow, type TrainingRow, takeCallForManager } from './access';
import { type Person, queueInvitations } from './invitation';

const activeTrainer = () =>
  and(sql`${users.roles} @> array['trainer']::text[]`, eq(users.status, 1), eq(users.is_approved, 1));
const person = (u: { first_name: string; last_name: string; email: string }): Person => ({
  name: `${u.first_name} ${u.last_name}`.trim(),
  email: u.email,
});

/** The counts and dates of one take call as the manager's list shows them. */
/** What the take-call list reads (a removed account or training cascades into its rows). */
export const TAKE_CALL_LIST_TABLES = ['take_calls', 'take_call_trainers', 'trainings', 'users'] as const;

/** When the next of these take calls ends (ms epoch): its status is wrong from then. */
export function nextEnd(list: readonly { end: string }[]): number | undefined {
  const now = Date.now();
  const ends = list.map((r) => Date.parse(r.end)).filter((t) => t >= now);
  return ends.length ? Math.min(...ends) : undefined;
}

const rowColumns = {
  id: takeCalls.id,
  slug: takeCalls.slug,
  name: trainings.name,
  training_slug: trainings.slug,
  title: takeCalls.title,
  start: takeCalls.start,
  end: takeCalls.end,
  trainers: sql<number>`(select count(*)::int from take_call_trainers d where d.take_call_id = ${takeCalls.id})`,
  answered: sql<number>`(select count(*)::int from take_call_trainers d where d.take_call_id = ${takeCalls.id} and d.status <> 0)`,
};
type RowOut = { start: Date; end: Date; trainers: number; answered: number } & Record<string, unknown>;
const toRow = <R extends RowOut>(r: R) => ({
  ...r,
  start: r.start.toISOString(),
  end: r.end.toISOString(),
  status: r.end.getTime() < Date.now() ? 1 : 0,
  trainers: Number(r.trainers),
  answered: Number(r.answered),
});

async function invite(
  deps: Deps,
  tc: TakeCallRow,
  training: TrainingRow,
  manager: Person,
  trainers: Person[],
  subject: string,
  text: string,
) {
  await queueInvitations(deps, [...trainers, manager], subject, text, {
    uid: `take-call-${tc.slug}@trainlab`,
    sequence: tc.sequence,
    title: `${tc.title} (${training.name})`,
    description: text,
    start: tc.start,
    end: tc.end,
    url: `${deps.config.PUBLIC_URL}/trainer-take-calls`,
    organizer: manager,
    attendees: trainers,
    method: 'REQUEST',
  });
}

/** /create-take-call: a take call for a training of the caller's tenant, one detail per trainer. */
export async function createTakeCall(deps: Deps, auth: AuthContext, b: z.output<typeof createTakeCallRequest>) {
  const training = await trainingForManager(deps, auth, b.slug);
  const ids = [...new Set(b.trainer_ids)];
  const found = await deps.db
    .select({ id: users.id, first_name: users.first_name, last_name: users.last_name, email: users.email })
    .from(users)
    .where(and(inArray(users.id, ids), activeTrainer()));
  if (found.length !== ids.length) throw invalidField('trainer_ids', MSG.trainerNotFound);
  const tc = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(takeCalls)
      .values({
        slug: makeSlug(b.title),
        training_id: training.id,
        title: b.title,
        start: new Date(b.start),
        end: new Date(b.end),
        created_by: auth.user.id,
      })
      .returning();
    const details = await tx
      .insert(takeCallTrainers)
      .values(ids.map((trainer_id) => ({ take_call_id: row!.id, trainer_id })))
      .returning({ id: takeCallTrainers.id });
    const requirements = details.flatMap((d) =>
      training.requirements.map((requirement, position) => ({ take_call_trainer_id: d.id, requirement, position })),
    );
    if (requirements.length) await tx.insert(takeCallRequirements).values(requirements);
    await invite(
      { ...deps, db: tx as unknown as Deps['db'] },
      row!,
      training,
      person(auth.user),
      found.map(person),
      `Take call: ${b.title}`,
      `You are invited to the take call "${b.title}" for the training "${training.name}". Answer it on ${deps.config.PUBLIC_URL}/trainer-take-calls.`,
    );
    return row!;
  });
  return { message: TAKE_CALL_MSG.created, id: tc.id, slug: tc.slug };
}

/** /show-take-call: the tenant's take calls, optionally of one training. */
export async function takeCallList(deps: Deps, auth: AuthContext, q: z.output<typeof takeCallListRequest>) {
  const w = pageWindow(q);
  const tenant = managerTenant(auth);
  const where: SQL | undefined = and(
    // the call's own copy of its training's tenant: the page walks that tenant's calls only
    tenantWhere(takeCalls, tenant),
    q.slug ? eq(trainings.slug, q.slug) : undefined,
    searchWhere(q.search, [takeCalls.title, trainings.name]),
  );
  const rows = await deps.db
    .select(rowColumns)
    .from(takeCalls)
    .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort,
        { start: takeCalls.start, end: takeCalls.end, title: takeCalls.title, name: trainings.name },
        [sql`${takeCalls.start} desc`],
        takeCalls.id,
      ),
    )
    .limit(w.limit)
    .offset(w.offset);
  return toCountedPage(
    rows,
    w,
    (r) => toRow(r),
    (limit) =>
      countUpTo(
        deps.db,
        deps.db
          .select({ one: takeCalls.id })
          .from(takeCalls)
          .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
          .where(where)
          .limit(limit),
      ),
  );
}

async function trainersOf(deps: Deps, takeCallId: number) {
  return deps.db
    .select({ first_name: users.first_name, last_name: users.last_name, email: users.email })
    .from(takeCallTrainers)
    .innerJoin(users, eq(users.id, takeCallTrainers.trainer_id))
    .where(eq(takeCallTrainers.take_call_id, takeCallId))
    .orderBy(asc(users.id));
}

/** /reschedule-take-call: new title and times; the invitation's sequence goes up and everyone is told. */
export async function rescheduleTakeCall(deps: Deps, auth: AuthContext, b: z.output<typeof rescheduleTakeCallRequest>) {
  const { takeCall, training } = await takeCallForManager(deps, auth, b.id);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(takeCalls)
      .set({ title: b.title, start: new Date(b.start), end: new Date(b.end), sequence: takeCall.sequence + 1 })
      .where(eq(takeCalls.id, takeCall.id))
      .returning();
    const txDeps = { ...deps, db: tx as unknown as Deps['db'] };
    await invite(
      txDeps,
      row!,
      training,
      person(auth.user),
      (await trainersOf(txDeps, takeCall.id)).map(person),
      `Take call rescheduled: ${b.title}`,
      `The take call "${b.title}" for the training "${training.name}" has moved to ${new Date(b.start).toUTCString()}.`,
    );
  });
  return { message: TAKE_CALL_MSG.rescheduled };
}

const detailColumns = {
  trainer_id: takeCallTrainers.trainer_id,
  first_name: users.first_name,
  last_name: users.last_name,
  email: users.email,
  propose_date1: takeCallTrainers.propose_date1,
  propose_date2: takeCallTrainers.propose_date2,
  propose_date3: takeCallTrainers.propose_date3,
  status: takeCallTrainers.status,
  remark: takeCallTrainers.remark,
  is_assing: takeCallTrainers.is_assing,
  requirements_confirmed: sql<number>`(select count(*)::int from take_call_requirements r where r.take_call_trainer_id = ${takeCallTrainers.id} and r.status = 1)`,
  requirements_total: sql<number>`(select count(*)::int from take_call_requirements r where r.take_call_trainer_id = ${takeCallTrainers.id})`,
};
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** /show-take-call-details: each trainer's answer. */
export async function takeCallDetails(deps: Deps, auth: AuthContext, q: z.output<typeof takeCallDetailsRequest>) {
  const { takeCall } = await takeCallForManager(deps, auth, q.id);
  const w = pageWindow(q);
  const mine = eq(takeCallTrainers.take_call_id, takeCall.id);
  const where = and(mine, searchWhere(q.search, [users.first_name, users.last_name, users.email]));
  const query = () =>
    deps.db
      .select({ ...detailColumns, total: totalOver() })
      .from(takeCallTrainers)
      .innerJoin(users, eq(users.id, takeCallTrainers.trainer_id))
      .where(where);
  const rows = await query()
    .orderBy(
      ...orderFor(
        q.sort,
        { first_name: users.first_name, status: takeCallTrainers.status },
        [asc(users.first_name)],
        takeCallTrainers.id,
      ),
    )
    .limit(w.limit)
    .offset(w.offset);
  const page = await toPage(
    rows,
    w,
    ({ total: _t, ...r }) => ({
      ...r,
      propose_date1: iso(r.propose_date1),
      propose_date2: iso(r.propose_date2),
      propose_date3: iso(r.propose_date3),
      requirements_confirmed: Number(r.requirements_confirmed),
      requirements_total: Number(r.requirements_total),
    }),
    () => totalAtFirstRow(query().limit(1)),
  );
  const [summary] = await deps.db
    .select(rowColumns)
    .from(takeCalls)
    .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
    .where(eq(takeCalls.id, takeCall.id));
  return { ...page, take_call: toRow(summary!) };
}

/**
 * /assign-trainer-to-training: the chosen trainers of the take call join the training's trainers
 * (kept beside those already assigned), so they see it under assigned trainings and moderate its
 * conference; each gets the training's invitation.
 */
export async function assignFromTakeCall(deps: Deps, auth: AuthContext, b: z.output<typeof assignFromTakeCallRequest>) {
  const { takeCall, training } = await takeCallForManager(deps, auth, b.take_call_id);
  const ids = [...new Set(b.trainer_ids)];
  const chosen = await deps.db
    .select({ id: users.id, first_name: users.first_name, last_name: users.last_name, email: users.email })
    .from(takeCallTrainers)
    .innerJoin(users, eq(users.id, takeCallTrainers.trainer_id))
    .where(and(eq(takeCallTrainers.take_call_id, takeCall.id), inArray(takeCallTrainers.trainer_id, ids)));
  if (chosen.length !== ids.length) throw invalidField('trainer_ids', TAKE_CALL_MSG.notInTakeCall);
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(trainingTrainers)
      .values(ids.map((trainer_id) => ({ training_id: training.id, trainer_id })))
      .onConflictDoNothing();
    await tx
      .update(takeCallTrainers)
      .set({ is_assing: 1 })
      .where(and(eq(takeCallTrainers.take_call_id, takeCall.id), inArray(takeCallTrainers.trainer_id, ids)));
    await queueInvitations(
      { db: tx as unknown as Deps['db'] },
      [...chosen.map(person), person(auth.user)],
      `Assigned to the training: ${training.name}`,
      `You are assigned as trainer of "${training.name}". It appears under your assigned trainings on ${deps.config.PUBLIC_URL}/trainer/assigned-trainings.`,
      {
        uid: `training-${training.slug}@trainlab`,
        sequence: 0,
        title: training.name,
        description: `Training "${training.name}"`,
        start: training.start_date,
        end: training.end_date,
        url: `${deps.config.PUBLIC_URL}/trainer/assigned-trainings`,
        organizer: person(auth.user),
        attendees: chosen.map(person),
        method: 'REQUEST',
      },
    );
  });
  return { message: TAKE_CALL_MSG.assigned };
}

/** /get-training-trainers-requirement-status: what one trainer of the take call confirmed (read-only). */
export async function requirementStatus(deps: Deps, auth: AuthContext, trainerId: number, takeCallId: number) {
  const { takeCall } = await takeCallForManager(deps, auth, takeCallId);
  const [detail] = await deps.db
    .select({ id: takeCallTrainers.id, first_name: users.first_name, last_name: users.last_name })
    .from(takeCallTrainers)
    .innerJoin(users, eq(users.id, takeCallTrainers.trainer_id))
    .where(and(eq(takeCallTrainers.take_call_id, takeCall.id), eq(takeCallTrainers.trainer_id, trainerId)));
  if (!detail) throw notFound();
  return {
    list: await requirementRows(deps, detail.id),
    trainer: { first_name: detail.first_name, last_name: detail.last_name },
    title: takeCall.title,
  };
}

export const requirementRows = (deps: Deps, detailId: number) =>
  deps.db
    .select({
      trId: takeCallRequirements.id,
      requirement: takeCallRequirements.requirement,
      status: takeCallRequirements.status,
    })
    .from(takeCallRequirements)
    .where(eq(takeCallRequirements.take_call_trainer_id, detailId))
    .orderBy(asc(takeCallRequirements.position), asc(takeCallRequirements.id));
