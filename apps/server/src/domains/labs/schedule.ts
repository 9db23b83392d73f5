import { VM_STATUS } from '@trainlab/contract';
import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import {
  jobs,
  labAccounts,
  labScheduleEvents,
  labSchedules,
  syllabusTopics,
  trainings,
  trainingUsers,
  vms,
} from '../../db/schema';
import type { Deps } from '../../platform/deps';
import { ValidationError } from '../../platform/errors';
import { enqueue, registerJobHandler } from '../../platform/jobs';
import { recordTenant, type Tenant, tenantWhere } from '../../platform/tenancy';
import { type VmRow, vmTenantWhere } from './access';
import { startLab, stopLab } from './lifecycle';

/**
 * Labs on a training's schedule (decision 0026). A sweep compares the clock with every tie's
 * windows — from `lead` minutes before a session topic starts to `grace` minutes after it ends —
 * and starts the labs inside a window, stops the ones it started once no window holds them.
 * Each start and stop is written once per tie, topic and lab (a unique index), after the act:
 * acts are idempotent (a started lab is not started again), so a crash between the two repeats a
 * no-op, and a restart's sweep catches up on what fell due while the server was down.
 */

export const SCHEDULE_JOB = 'lab-schedule-sweep';
/** the sweep runs at least this often, and as soon as the next window opens or closes */
const SWEEP_EVERY_MS = 60_000;
/** windows that ended longer ago than this are not looked at */
const LOOK_BACK_MS = 24 * 3600_000;
/**
 * Labs a sweep starts (or stops) at the same time. A start returns once the lab's desktop is up
 * (seconds); one after another, the last lab of a class of 50 waited for 49 desktops before its
 * own start (bench/class.ts). The container engine decides admissions one by one and then starts
 * the admitted containers side by side (container-capacity.ts).
 */
const LABS_AT_ONCE = 8;

/** `run` for every item, LABS_AT_ONCE at a time */
async function atOnce<T>(items: T[], run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(LABS_AT_ONCE, queue.length) }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await run(next);
    }),
  );
}

export type ScheduleRow = typeof labSchedules.$inferSelect;
type TopicWindow = { topicId: number; topic: string; opens: Date; closes: Date };

/** The tenant's default lead minutes (its lab account), 15 without one. */
export async function tenantLead(deps: Deps, tenant: Tenant): Promise<number> {
  const [row] = await deps.db
    .select({ lead: labAccounts.schedule_lead_minutes })
    .from(labAccounts)
    .where(tenantWhere(labAccounts, tenant));
  return row?.lead ?? 15;
}

/** The topic windows of a training with a planned start and end (a completed topic ends when it ended). */
export async function windowsOf(deps: Deps, trainingId: number, lead: number, grace: number, now: Date) {
  const topics = await deps.db
    .select()
    .from(syllabusTopics)
    .where(and(eq(syllabusTopics.training_id, trainingId), isNotNull(syllabusTopics.start_time)));
  const out: TopicWindow[] = [];
  for (const t of topics) {
    const end = t.ended_at ?? t.end_time;
    if (!t.start_time || !end) continue;
    const closes = new Date(end.getTime() + grace * 60_000);
    if (closes.getTime() < now.getTime() - LOOK_BACK_MS) continue;
    out.push({
      topicId: t.id,
      topic: t.session_topic,
      opens: new Date(t.start_time.getTime() - lead * 60_000),
      closes,
    });
  }
  return out.sort((a, b) => a.opens.getTime() - b.opens.getTime());
}

/** The labs a tie covers now: its one lab, or the labs assigned to the training's enrolled learners. */
export async function labsOfTie(deps: Deps, tie: ScheduleRow, tenant: Tenant): Promise<VmRow[]> {
  if (tie.vm_id) {
    return deps.db
      .select()
      .from(vms)
      .where(and(eq(vms.id, tie.vm_id), ne(vms.status, VM_STATUS.deleted)));
  }
  const learners = deps.db
    .select({ id: trainingUsers.user_id })
    .from(trainingUsers)
    .where(eq(trainingUsers.training_id, tie.training_id));
  return deps.db
    .select()
    .from(vms)
    .where(and(vmTenantWhere(tenant), ne(vms.status, VM_STATUS.deleted), inArray(vms.assigned_user_id, learners)));
}

async function record(
  deps: Deps,
  tie: ScheduleRow,
  w: TopicWindow,
  vm: VmRow,
  action: 'start' | 'stop',
  at: Date,
  outcome: string | null,
) {
  await deps.db
    .insert(labScheduleEvents)
    .values({ schedule_id: tie.id, topic_id: w.topicId, vm_id: vm.id, action, at, outcome })
    .onConflictDoNothing();
}

const reason = (e: unknown) =>
  e instanceof ValidationError
    ? (Object.values(e.fields).flat()[0] ?? 'The lab could not start.')
    : 'The lab engine did not answer.';

/**
 * One pass over every tie. Answers what it did and when the next window opens or closes, so the
 * job can come back then.
 */
export async function sweepLabSchedules(deps: Deps): Promise<{ started: number; stopped: number; next: Date | null }> {
  const now = deps.clock();
  const ties = await deps.db
    .select({ tie: labSchedules, training: trainings })
    .from(labSchedules)
    .innerJoin(trainings, eq(trainings.id, labSchedules.training_id));
  let started = 0;
  let stopped = 0;
  let next: Date | null = null;
  const later = (d: Date) => {
    if (d > now && (!next || d < next)) next = d;
  };
  // a lab stops only when no window of any tie holds it: two ties or back-to-back topics share it
  const held = new Set<number>();
  const stops: { tie: ScheduleRow; w: TopicWindow; vm: VmRow }[] = [];
  // each lab started (stopped) once per sweep, however many windows hold it; each window's act recorded
  const starts = new Map<number, { vm: VmRow; due: { tie: ScheduleRow; w: TopicWindow }[] }>();
  for (const { tie, training } of ties) {
    // every training belongs to a tenant (trainings.ts creates it with tenantColumns); a row that
    // names none is skipped, never allowed to stop the sweep for every other class
    const tenant = recordTenant(training);
    if (!tenant) continue;
    const lead = tie.lead_minutes ?? (await tenantLead(deps, tenant));
    const windows = await windowsOf(deps, training.id, lead, tie.grace_minutes, now);
    if (!windows.length) continue;
    const labs = await labsOfTie(deps, tie, tenant);
    if (!labs.length) continue;
    const done = await deps.db
      .select()
      .from(labScheduleEvents)
      .where(
        and(
          eq(labScheduleEvents.schedule_id, tie.id),
          inArray(
            labScheduleEvents.topic_id,
            windows.map((w) => w.topicId),
          ),
        ),
      );
    const has = (w: TopicWindow, vm: VmRow, action: string) =>
      done.some((e) => e.topic_id === w.topicId && e.vm_id === vm.id && e.action === action);
    for (const w of windows) {
      later(w.opens);
      later(w.closes);
      const open = w.opens <= now && now < w.closes;
      for (const vm of labs) {
        if (open) {
          held.add(vm.id);
          if (has(w, vm, 'start')) continue;
          const start = starts.get(vm.id) ?? { vm, due: [] };
          start.due.push({ tie, w });
          starts.set(vm.id, start);
        } else if (now >= w.closes && has(w, vm, 'start') && !has(w, vm, 'stop')) {
          stops.push({ tie, w, vm });
        }
      }
    }
  }
  await atOnce([...starts.values()], async ({ vm, due }) => {
    let outcome: string | null = null;
    try {
      await startLab(deps, vm, vm.assigned_user_id);
      started++;
    } catch (e) {
      outcome = reason(e);
    }
    for (const { tie, w } of due) await record(deps, tie, w, vm, 'start', now, outcome);
  });
  const stopping = new Map<number, { vm: VmRow; due: { tie: ScheduleRow; w: TopicWindow }[] }>();
  for (const { tie, w, vm } of stops) {
    if (held.has(vm.id)) continue;
    const stop = stopping.get(vm.id) ?? { vm, due: [] };
    stop.due.push({ tie, w });
    stopping.set(vm.id, stop);
  }
  await atOnce([...stopping.values()], async ({ vm, due }) => {
    const [fresh] = await deps.db.select().from(vms).where(eq(vms.id, vm.id));
    let outcome: string | null = null;
    try {
      if (fresh && fresh.status === VM_STATUS.start) {
        await stopLab(deps, fresh);
        stopped++;
      }
    } catch (e) {
      outcome = reason(e);
    }
    for (const { tie, w } of due) await record(deps, tie, w, vm, 'stop', now, outcome);
  });
  return { started, stopped, next };
}

/**
 * Keeps exactly one queued sweep: at the next window edge, or within a minute (topics are edited
 * at any time). Called after each sweep, at start-up and when a tie changes.
 */
export async function scheduleSweep(deps: Deps, at?: Date): Promise<void> {
  const runAt = at ?? new Date();
  await deps.db.transaction(async (tx) => {
    // one sweep chain even with several server processes: the lock serialises this check
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${SCHEDULE_JOB}))`);
    const [queued] = await tx
      .select({ id: jobs.id, run_at: jobs.run_at })
      .from(jobs)
      .where(and(eq(jobs.kind, SCHEDULE_JOB), eq(jobs.status, 'queued')))
      .limit(1);
    if (queued) {
      if (queued.run_at > runAt) await tx.update(jobs).set({ run_at: runAt }).where(eq(jobs.id, queued.id));
      return;
    }
    await enqueue({ db: tx as unknown as Deps['db'] }, SCHEDULE_JOB, {}, { runAt });
  });
}

registerJobHandler(SCHEDULE_JOB, async (deps) => {
  const { next } = await sweepLabSchedules(deps);
  // no tie left: the chain ends; the next tie starts it again
  const [any] = await deps.db.select({ id: labSchedules.id }).from(labSchedules).limit(1);
  if (!any) return;
  // the lab clock may differ from the wall clock in tests: the job waits in wall-clock time
  const wait = next
    ? Math.min(SWEEP_EVERY_MS, Math.max(1000, (next as Date).getTime() - deps.clock().getTime()))
    : SWEEP_EVERY_MS;
  await scheduleSweep(deps, new Date(Date.now() + wait));
});

/** At start-up: catch up at once on whatever fell due while the server was down. */
export async function resumeLabSchedules(deps: Deps): Promise<void> {
  const [any] = await deps.db.select({ id: labSchedules.id }).from(labSchedules).limit(1);
  if (!any) return;
  await sweepLabSchedules(deps);
  await scheduleSweep(deps, new Date(Date.now() + SWEEP_EVERY_MS));
}
