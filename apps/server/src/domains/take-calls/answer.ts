import {
  type answerTakeCallRequest,
  type ListQuery,
  TAKE_CALL_MSG,
  type TRAINER_TAKE_CALL_SORT_KEYS,
} from '@trainlab/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { takeCallRequirements, takeCalls, takeCallTrainers, trainings, users } from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { invalidField } from '../../platform/errors';
import type { AuthContext } from '../../platform/http/auth-context';
import { orderFor, pageWindow, searchWhere, toPage, totalAtFirstRow, totalOver } from '../../platform/http/paging';
import { detailForTrainer } from './access';
import { queueInvitations } from './invitation';
import { requirementRows } from './manage';

const PARTSTAT = { 1: 'ACCEPTED', 2: 'TENTATIVE', 3: 'DECLINED' } as const;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The tenant's display name: the organization, else the provider account. */
const providerName = sql<string>`coalesce(
  (select o.name from organizations o where o.id = ${trainings.organization_id}),
  (select p.first_name || ' ' || p.last_name from users p where p.id = ${trainings.owner_user_id}),
  '')`;

const columns = {
  first_name: sql<string>`coalesce(${users.first_name}, '')`,
  last_name: sql<string>`coalesce(${users.last_name}, '')`,
  learning_provider: providerName,
  name: trainings.name,
  title: takeCalls.title,
  start: takeCalls.start,
  end: takeCalls.end,
  status: takeCallTrainers.status,
  propose_date1: takeCallTrainers.propose_date1,
  propose_date2: takeCallTrainers.propose_date2,
  propose_date3: takeCallTrainers.propose_date3,
  remark: takeCallTrainers.remark,
  is_assing: takeCallTrainers.is_assing,
  take_call_id: takeCalls.id,
  take_call_detail_id: takeCallTrainers.id,
};
type Out = {
  start: Date;
  end: Date;
  propose_date1: Date | null;
  propose_date2: Date | null;
  propose_date3: Date | null;
} & Record<string, unknown>;
const toRow = <R extends Out>(r: R) => ({
  ...r,
  start: r.start.toISOString(),
  end: r.end.toISOString(),
  propose_date1: iso(r.propose_date1),
  propose_date2: iso(r.propose_date2),
  propose_date3: iso(r.propose_date3),
});

const base = (deps: Deps) =>
  deps.db
    .select({ ...columns, total: totalOver() })
    .from(takeCallTrainers)
    .innerJoin(takeCalls, eq(takeCalls.id, takeCallTrainers.take_call_id))
    .innerJoin(trainings, eq(trainings.id, takeCalls.training_id))
    .leftJoin(users, eq(users.id, takeCalls.created_by));

/** /trainer-take-calls: every take call sent to the caller, newest first. */
export async function trainerTakeCalls(
  deps: Deps,
  auth: AuthContext,
  q: ListQuery<(typeof TRAINER_TAKE_CALL_SORT_KEYS)[number]>,
) {
  const w = pageWindow(q);
  const mine = eq(takeCallTrainers.trainer_id, auth.user.id);
  const where = and(mine, searchWhere(q.search, [takeCalls.title, trainings.name]));
  const rows = await base(deps)
    .where(where)
    .orderBy(
      ...orderFor(
        q.sort,
        { start: takeCalls.start, title: takeCalls.title, name: trainings.name, status: takeCallTrainers.status },
        [sql`${takeCalls.start} desc`],
        takeCallTrainers.id,
      ),
    )
    .limit(w.limit)
    .offset(w.offset);
  return toPage(
    rows,
    w,
    ({ total: _t, ...r }) => toRow(r),
    () => totalAtFirstRow(base(deps).where(where).limit(1)),
  );
}

/** One row of the caller's take calls (for the requirement screen's heading). */
async function trainerRow(deps: Deps, detailId: number) {
  const [row] = await base(deps).where(eq(takeCallTrainers.id, detailId));
  const { total: _t, ...r } = row!;
  return toRow(r);
}

/** /reschedule-trainer-take-call: the trainer's answer; the manager gets it as a calendar reply. */
export async function answerTakeCall(deps: Deps, auth: AuthContext, b: z.output<typeof answerTakeCallRequest>) {
  const { detail, takeCall, training } = await detailForTrainer(deps, auth, { detailId: b.id });
  const dates = [b.propose_date1, b.propose_date2, b.propose_date3].map((d) => (d ? new Date(d) : null));
  await deps.db.transaction(async (tx) => {
    await tx
      .update(takeCallTrainers)
      .set({
        status: b.status,
        remark: b.remark,
        propose_date1: dates[0],
        propose_date2: dates[1],
        propose_date3: dates[2],
        answered_at: new Date(),
      })
      .where(eq(takeCallTrainers.id, detail.id));
    const [manager] = takeCall.created_by
      ? await tx
          .select({ first_name: users.first_name, last_name: users.last_name, email: users.email })
          .from(users)
          .where(eq(users.id, takeCall.created_by))
      : [];
    if (!manager) return;
    const trainer = { name: `${auth.user.first_name} ${auth.user.last_name}`, email: auth.user.email };
    const label = { 1: 'Available', 2: 'Reschedule', 3: 'Not Interested' }[b.status];
    const proposed = dates.filter((d): d is Date => !!d).map((d) => d.toUTCString());
    await queueInvitations(
      { db: tx as unknown as Deps['db'] },
      [{ name: `${manager.first_name} ${manager.last_name}`, email: manager.email }],
      `Take call answer: ${takeCall.title} (${label})`,
      [
        `${trainer.name} answered the take call "${takeCall.title}" for "${training.name}": ${label}.`,
        proposed.length ? `Proposed dates: ${proposed.join('; ')}.` : '',
        b.remark ? `Remark: ${b.remark}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
      {
        uid: `take-call-${takeCall.slug}@trainlab`,
        sequence: takeCall.sequence,
        title: `${takeCall.title} (${training.name})`,
        description: `${trainer.name}: ${label}`,
        start: takeCall.start,
        end: takeCall.end,
        url: `${deps.config.PUBLIC_URL}/take-calls`,
        organizer: { name: `${manager.first_name} ${manager.last_name}`, email: manager.email },
        attendees: [{ ...trainer, partstat: PARTSTAT[b.status] }],
        method: 'REPLY',
      },
    );
  });
  return { message: TAKE_CALL_MSG.answered };
}

/** /get-training-requirements: the checklist of the caller's take call. */
export async function trainingRequirements(deps: Deps, auth: AuthContext, takeCallId: number) {
  const { detail } = await detailForTrainer(deps, auth, { takeCallId });
  return { list: await requirementRows(deps, detail.id), take_call: await trainerRow(deps, detail.id) };
}

/**
 * /update-training-requirement: the ids selected (all of one take call of the caller); the others
 * unselected. With `take_call_id` (the checklist saving each tick) the list is that take call's,
 * found only among the caller's own (another's answers 404), so an empty selection clears it.
 */
export async function confirmRequirements(deps: Deps, auth: AuthContext, ids: number[], takeCallId?: number) {
  const unique = [...new Set(ids)];
  let detailId: number;
  if (takeCallId !== undefined) {
    detailId = (await detailForTrainer(deps, auth, { takeCallId })).detail.id;
    const rows = unique.length
      ? await deps.db
          .select({ id: takeCallRequirements.id })
          .from(takeCallRequirements)
          .where(and(inArray(takeCallRequirements.id, unique), eq(takeCallRequirements.take_call_trainer_id, detailId)))
      : [];
    if (rows.length !== unique.length) throw invalidField('ids', TAKE_CALL_MSG.requirementInvalid);
  } else {
    const rows = await deps.db
      .select({ id: takeCallRequirements.id, detailId: takeCallRequirements.take_call_trainer_id })
      .from(takeCallRequirements)
      .innerJoin(takeCallTrainers, eq(takeCallTrainers.id, takeCallRequirements.take_call_trainer_id))
      .where(and(inArray(takeCallRequirements.id, unique), eq(takeCallTrainers.trainer_id, auth.user.id)));
    const details = new Set(rows.map((r) => r.detailId));
    if (rows.length !== unique.length || details.size !== 1)
      throw invalidField('ids', TAKE_CALL_MSG.requirementInvalid);
    detailId = rows[0]!.detailId;
  }
  await deps.db
    .update(takeCallRequirements)
    .set({
      status: unique.length ? sql`case when ${inArray(takeCallRequirements.id, unique)} then 1 else 0 end` : 0,
    })
    .where(eq(takeCallRequirements.take_call_trainer_id, detailId));
  return { message: TAKE_CALL_MSG.requirementsConfirmed };
}
