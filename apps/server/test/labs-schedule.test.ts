import { LAB_SCHEDULE_MSG, MSG, VM_STATUS } from '@trainlab/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { jobs, labAccounts, labScheduleEvents, labSchedules, vms, vmUsages } from '../src/db/schema';
import { SCHEDULE_JOB, sweepLabSchedules } from '../src/domains/labs/schedule';
import { runDueJobs } from '../src/platform/jobs';
import { LabEngineError } from '../src/platform/ports/labs';
import { createTestApp, type TestApp } from './helpers';
import { labAccount, labControls, makeVm } from './labs-fixtures';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { makeTraining, person } from './trainings-fixtures';

/**
 * Labs tied to a training's schedule, on the simulated engine with the lab clock moved by hand:
 * started the lead time before each session topic, stopped the grace time after it ends, once,
 * across restarts of our server.
 */
let t: TestApp;
let lab: ReturnType<typeof labControls>;
let provider: string;
let other: string;
let org: string;
const MANAGERS = ['provider', 'organization', 'org_subadmin'] as const;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', LAB_PROVIDER: 'memory' });
  lab = labControls(t);
  provider = (await t.loginAs({ role: 'provider' })).token;
  other = (await t.loginAs({ role: 'provider' })).token;
  org = (await orgWithOwner(t)).token;
  await labAccount(t, provider);
  await labAccount(t, other);
});
afterAll(() => t.close());

const ok = async (path: string, body: unknown, token: string) => {
  const res = await t.post(path, body, token);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};
/** A training with one topic 10:00–11:00 (UTC) on the given day, one enrolled learner with a lab. */
async function setup(day: string, over: { topics?: [string, string][]; participants?: number } = {}) {
  const training = await makeTraining(t, provider, { number_of_participants: over.participants ?? 10 });
  for (const [i, [start, end]] of (over.topics ?? [[`${day}T10:00:00.000Z`, `${day}T11:00:00.000Z`]]).entries()) {
    await ok(
      'add-training-syllabus',
      { slug: training.slug, topic_name: `Topic ${i + 1}`, start_time: start, end_time: end },
      provider,
    );
  }
  const learner = person(Math.random().toString(36).slice(2, 7));
  await ok('lp/add-training-user', { ...learner, slug: training.slug }, provider);
  const vm = await makeVm(t, provider);
  await ok('assign-vm-to-user', { ...learner, name: vm.vm_name }, provider);
  return { training, vm, learner };
}
const statusOf = async (name: string) =>
  (await t.deps.db.select({ status: vms.status }).from(vms).where(eq(vms.vm_name, name)))[0]!.status;
const runsOf = async (name: string) => {
  const [vm] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
  return t.deps.db
    .select()
    .from(vmUsages)
    .where(and(eq(vmUsages.vm_id, vm!.id), eq(vmUsages.status, 2)));
};
const allRuns = async (name: string) => {
  const [vm] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, name));
  return t.deps.db
    .select()
    .from(vmUsages)
    .where(eq(vmUsages.vm_id, vm!.id))
    .then((rows) => rows.filter((r) => r.status !== 1));
};
/** A restart of our server on the same database and the same (still running) engine. */
const restart = async () => {
  const again = await buildApp(t.deps);
  await again.ready();
  await again.close();
};

describe('access and validation', () => {
  it('401 and 403 for every role that may not call them', async () => {
    await expectGuarded(
      t,
      ['training-lab-schedules', 'tie-lab-to-training', 'untie-lab-from-training', 'update-lab-schedule-lead'],
      [...MANAGERS],
      { slug: 'none', id: 1, lead_minutes: 5 },
    );
    await expectGuarded(t, ['training-lab-views'], [...MANAGERS, 'trainer'], { slug: 'none' });
  });

  it('404 for another tenant’s training and tie; 422 for another tenant’s lab', async () => {
    lab.at('2026-12-01T08:00:00.000Z');
    const { training, vm } = await setup('2026-12-01');
    expect((await t.post('training-lab-schedules', { slug: training.slug }, other)).status).toBe(404);
    expect((await t.post('tie-lab-to-training', { slug: training.slug }, other)).status).toBe(404);
    expect((await t.post('tie-lab-to-training', { slug: training.slug }, org)).status).toBe(404);
    const theirs = await makeVm(t, other);
    const cross = await t.post('tie-lab-to-training', { slug: training.slug, vm_name: theirs.vm_name }, provider);
    expect(cross.status).toBe(422);
    expect(cross.body.vm_name).toEqual([LAB_SCHEDULE_MSG.vmInvalid]);
    await ok('tie-lab-to-training', { slug: training.slug, vm_name: vm.vm_name }, provider);
    const [tie] = await t.deps.db
      .select()
      .from(labSchedules)
      .where(eq(labSchedules.vm_id, (await t.deps.db.select().from(vms).where(eq(vms.vm_name, vm.vm_name)))[0]!.id));
    expect((await t.post('untie-lab-from-training', { id: tie!.id }, other)).status).toBe(404);
    expect((await t.post('untie-lab-from-training', { id: 999_999 }, provider)).status).toBe(404);
    expect(await t.deps.db.select().from(labSchedules).where(eq(labSchedules.id, tie!.id))).toHaveLength(1);
  });

  it('422 per field, nothing stored', async () => {
    const { training, vm } = await setup('2026-12-02');
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await t.post('tie-lab-to-training', { slug: training.slug, ...body }, provider);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body), JSON.stringify(body)).toEqual([field]);
    };
    await bad({ slug: '' }, 'slug');
    await bad({ vm_name: 'x'.repeat(65) }, 'vm_name');
    await bad({ vm_name: 'no-such-lab' }, 'vm_name');
    await bad({ lead_minutes: -1 }, 'lead_minutes');
    await bad({ lead_minutes: 241 }, 'lead_minutes');
    await bad({ lead_minutes: 'soon' }, 'lead_minutes');
    await bad({ grace_minutes: 241 }, 'grace_minutes');
    await bad({ grace_minutes: 1.5 }, 'grace_minutes');
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, vm.vm_name));
    expect(await t.deps.db.select().from(labSchedules).where(eq(labSchedules.vm_id, row!.id))).toHaveLength(0);
    // a second tie of the same lab
    await ok('tie-lab-to-training', { slug: training.slug, vm_name: vm.vm_name, lead_minutes: 0 }, provider);
    await bad({ vm_name: vm.vm_name }, 'vm_name');
    // the untie and the tenant default
    expect((await t.post('untie-lab-from-training', { id: 'x' }, provider)).status).toBe(422);
    for (const lead of ['', -1, 241, 'x']) {
      const res = await t.post('update-lab-schedule-lead', { lead_minutes: lead }, provider);
      expect(res.status, String(lead)).toBe(422);
      expect(Object.keys(res.body)).toEqual(['lead_minutes']);
    }
    const none = await t.post('update-lab-schedule-lead', { lead_minutes: 5 }, org);
    expect(none.status).toBe(422);
    expect(none.body.other_error).toEqual([MSG.labAccountMissing]);
  });
});

describe('start before the topic, stop after it', () => {
  it('the tie’s lead: started 10 minutes before 10:00, stopped 5 minutes after 11:00; the page shows it', async () => {
    lab.at('2026-12-03T08:00:00.000Z');
    const { training, vm } = await setup('2026-12-03');
    await ok(
      'tie-lab-to-training',
      { slug: training.slug, vm_name: vm.vm_name, lead_minutes: 10, grace_minutes: 5 },
      provider,
    );
    let shown = await ok('training-lab-schedules', { slug: training.slug }, provider);
    expect(shown.list).toEqual([
      expect.objectContaining({
        vm_name: vm.vm_name,
        lead_minutes: 10,
        lead_in_force: 10,
        grace_minutes: 5,
        labs: 1,
        next_start: '2026-12-03T09:50:00.000Z',
        next_stop: '2026-12-03T11:05:00.000Z',
        last_event: null,
      }),
    ]);

    lab.at('2026-12-03T09:49:00.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);

    lab.at('2026-12-03T09:50:00.000Z');
    expect((await sweepLabSchedules(t.deps)).started).toBe(1);
    expect(await statusOf(vm.vm_name)).toBe(VM_STATUS.start);
    expect(lab.engine.machines.get(vm.vm_name)).toBe('running');
    const [run] = await runsOf(vm.vm_name);
    expect(run?.vm_start?.toISOString()).toBe('2026-12-03T09:50:00.000Z');

    // during the topic: nothing more happens
    lab.at('2026-12-03T10:30:00.000Z');
    expect(await sweepLabSchedules(t.deps)).toMatchObject({ started: 0, stopped: 0 });

    lab.at('2026-12-03T11:04:00.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).toBe(VM_STATUS.start);

    lab.at('2026-12-03T11:05:00.000Z');
    expect((await sweepLabSchedules(t.deps)).stopped).toBe(1);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    const runs = await allRuns(vm.vm_name);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 3, used_min: 75 });

    shown = await ok('training-lab-schedules', { slug: training.slug }, provider);
    expect(shown.list[0]).toMatchObject({
      next_start: null,
      next_stop: null,
      last_event: {
        action: 'stop',
        at: '2026-12-03T11:05:00.000Z',
        vm_name: vm.vm_name,
        topic: 'Topic 1',
        outcome: null,
      },
    });
  });

  it('no vm_name: the labs of the training’s learners, with the tenant’s default lead', async () => {
    lab.at('2026-12-04T08:00:00.000Z');
    await ok('update-lab-schedule-lead', { lead_minutes: 20 }, provider);
    const { training, vm } = await setup('2026-12-04');
    await ok('tie-lab-to-training', { slug: training.slug, grace_minutes: '' }, provider);
    const shown = await ok('training-lab-schedules', { slug: training.slug }, provider);
    expect(shown).toMatchObject({ lead_minutes_default: 20 });
    expect(shown.list[0]).toMatchObject({
      vm_name: null,
      lead_minutes: null,
      lead_in_force: 20,
      grace_minutes: 15,
      labs: 1,
    });
    lab.at('2026-12-04T09:39:59.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    lab.at('2026-12-04T09:40:00.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).toBe(VM_STATUS.start);
    lab.at('2026-12-04T11:15:00.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    await ok('update-lab-schedule-lead', { lead_minutes: 15 }, provider);
  });

  it('back-to-back topics keep the lab running between them', async () => {
    lab.at('2026-12-05T08:00:00.000Z');
    const { training, vm } = await setup('2026-12-05', {
      topics: [
        ['2026-12-05T10:00:00.000Z', '2026-12-05T11:00:00.000Z'],
        ['2026-12-05T11:10:00.000Z', '2026-12-05T12:00:00.000Z'],
      ],
    });
    await ok(
      'tie-lab-to-training',
      { slug: training.slug, vm_name: vm.vm_name, lead_minutes: 15, grace_minutes: 5 },
      provider,
    );
    lab.at('2026-12-05T09:45:00.000Z');
    await sweepLabSchedules(t.deps);
    // topic 1's stop time (11:05) is inside topic 2's window (10:55–12:05)
    lab.at('2026-12-05T11:05:00.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).toBe(VM_STATUS.start);
    lab.at('2026-12-05T12:05:00.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    expect(await allRuns(vm.vm_name)).toHaveLength(1);
  });

  it('a start past the tenant’s monthly cap is refused and shown; nothing runs', async () => {
    lab.at('2026-12-06T08:00:00.000Z');
    const { training, vm } = await setup('2026-12-06');
    const [account] = await t.deps.db.select().from(labAccounts).limit(1);
    await ok('update-lab-settings', { idle_stop_seconds: 1800, cap_hours_month: '', cap_paise_month: 1 }, provider);
    await t.deps.db.update(vmUsages).set({ cost_paise: 5 }).where(eq(vmUsages.status, 3));
    await ok('tie-lab-to-training', { slug: training.slug, vm_name: vm.vm_name, lead_minutes: 10 }, provider);
    lab.at('2026-12-06T09:55:00.000Z');
    expect((await sweepLabSchedules(t.deps)).started).toBe(0);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    const shown = await ok('training-lab-schedules', { slug: training.slug }, provider);
    expect(shown.list[0].last_event).toMatchObject({ action: 'start', outcome: MSG.labCapSpend });
    // refused once for the topic: later sweeps do not try again
    lab.at('2026-12-06T10:10:00.000Z');
    await sweepLabSchedules(t.deps);
    const events = await t.deps.db.select().from(labScheduleEvents);
    expect(events.filter((e) => e.outcome === MSG.labCapSpend)).toHaveLength(1);
    await ok('update-lab-settings', { idle_stop_seconds: 1800, cap_hours_month: '', cap_paise_month: '' }, provider);
    expect(account).toBeDefined();
  });
});

describe('a whole class at the bell', () => {
  it('starts the labs 8 at a time, each once; a lab that fails is recorded and holds up no other; stops them 8 at a time', async () => {
    lab.at('2026-12-10T08:00:00.000Z');
    const { training, vm: first } = await setup('2026-12-10', { participants: 12 });
    const names = [first.vm_name];
    for (let i = 0; i < 11; i++) {
      const learner = person(`class${i}-${Math.random().toString(36).slice(2, 6)}`);
      await ok('lp/add-training-user', { ...learner, slug: training.slug }, provider);
      const vm = await makeVm(t, provider);
      await ok('assign-vm-to-user', { ...learner, name: vm.vm_name }, provider);
      names.push(vm.vm_name);
    }
    // the first lab is also tied on its own: two open windows hold it, it starts once
    await ok('tie-lab-to-training', { slug: training.slug, lead_minutes: 10, grace_minutes: 0 }, provider);
    await ok(
      'tie-lab-to-training',
      { slug: training.slug, vm_name: first.vm_name, lead_minutes: 10, grace_minutes: 0 },
      provider,
    );
    const failing = names[5]!;
    const calls: string[] = [];
    let inFlight = 0;
    let most = 0;
    let expected = 0;
    let held: (() => void)[] = [];
    // Each call is held until 8 are in flight or every expected call has come, so the most in
    // flight is what the sweep allows, not how fast the database let the sweep reach the engine
    // (a fixed sleep saw 4 at load on PostgreSQL). The 10 s bound keeps a wrong sweep from hanging.
    const slowly = (act: (ref: string) => Promise<void>) => async (ref: string) => {
      calls.push(ref);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((release) => {
        held.push(release);
        if (inFlight >= 8 || calls.length >= expected) {
          const now = held;
          held = [];
          // a moment more, so a ninth call let through too early would be counted
          setTimeout(() => {
            for (const r of now) r();
          }, 200);
        } else setTimeout(release, 10_000);
      });
      inFlight--;
      if (ref === failing) throw new LabEngineError('The lab did not start: no room.');
      return act(ref);
    };
    const { start, stop } = lab.engine;
    lab.engine.start = slowly(start.bind(lab.engine));
    try {
      lab.at('2026-12-10T09:50:00.000Z');
      expected = names.length;
      expect((await sweepLabSchedules(t.deps)).started).toBe(11);
      expect(most).toBe(8);
      expect(calls.filter((c) => c === first.vm_name)).toHaveLength(1);
      expect(calls.sort()).toEqual([...names].sort());
      for (const name of names) {
        if (name === failing) expect(await statusOf(name)).not.toBe(VM_STATUS.start);
        else expect(await statusOf(name)).toBe(VM_STATUS.start);
      }
      const ids = (await t.deps.db.select().from(vms).where(inArray(vms.vm_name, names))).map((v) => v.id);
      const started = (
        await t.deps.db.select().from(labScheduleEvents).where(inArray(labScheduleEvents.vm_id, ids))
      ).filter((e) => e.action === 'start');
      // one start per tie and lab: 12 through the learners' tie, 1 through the first lab's own
      expect(started).toHaveLength(13);
      expect(started.filter((e) => e.outcome !== null)).toHaveLength(1);
      // nothing is tried again in the window
      calls.length = 0;
      expect((await sweepLabSchedules(t.deps)).started).toBe(0);
      expect(calls).toEqual([]);

      lab.engine.stop = slowly(stop.bind(lab.engine));
      most = 0;
      calls.length = 0;
      expected = names.length - 1;
      lab.at('2026-12-10T11:00:00.000Z');
      expect((await sweepLabSchedules(t.deps)).stopped).toBe(11);
      expect(most).toBe(8);
      for (const name of names) expect(await statusOf(name)).not.toBe(VM_STATUS.start);
      expect(calls.filter((c) => c === first.vm_name)).toHaveLength(1);
    } finally {
      lab.engine.start = start;
      lab.engine.stop = stop;
    }
  });
});

describe('restarts', () => {
  it('a start that fell due while the server was down is made at the restart, and only once', async () => {
    lab.at('2026-12-07T08:00:00.000Z');
    const { training, vm } = await setup('2026-12-07');
    await ok(
      'tie-lab-to-training',
      { slug: training.slug, vm_name: vm.vm_name, lead_minutes: 10, grace_minutes: 5 },
      provider,
    );
    // down from before 09:50 until 10:20: the restart catches up
    lab.at('2026-12-07T10:20:00.000Z');
    await restart();
    expect(await statusOf(vm.vm_name)).toBe(VM_STATUS.start);
    // the learner stops it; more restarts during the topic do not start it again
    await ok('vm-start-stop', { action: 'stop', name: vm.vm_name }, provider);
    lab.at('2026-12-07T10:25:00.000Z');
    await restart();
    await restart();
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    const runs = await allRuns(vm.vm_name);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.vm_start?.toISOString()).toBe('2026-12-07T10:20:00.000Z');
  });

  it('running through two restarts: one run, one start event, stopped once after the topic', async () => {
    lab.at('2026-12-08T09:50:00.000Z');
    const { training, vm } = await setup('2026-12-08');
    await ok(
      'tie-lab-to-training',
      { slug: training.slug, vm_name: vm.vm_name, lead_minutes: 10, grace_minutes: 5 },
      provider,
    );
    // the tie's own sweep job, run by the job runner
    const due = await runDueJobs(t.deps);
    expect(due.failed).toBe(0);
    expect(await statusOf(vm.vm_name)).toBe(VM_STATUS.start);
    lab.at('2026-12-08T10:30:00.000Z');
    await restart();
    await restart();
    expect(await runsOf(vm.vm_name)).toHaveLength(1);
    lab.at('2026-12-08T11:30:00.000Z');
    await restart();
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    await restart();
    const [row] = await t.deps.db.select().from(vms).where(eq(vms.vm_name, vm.vm_name));
    const events = await t.deps.db.select().from(labScheduleEvents).where(eq(labScheduleEvents.vm_id, row!.id));
    expect(events.map((e) => e.action).sort()).toEqual(['start', 'stop']);
    expect(await allRuns(vm.vm_name)).toHaveLength(1);
    // one sweep stays queued, however many restarts
    const queued = await t.deps.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, SCHEDULE_JOB), eq(jobs.status, 'queued')));
    expect(queued).toHaveLength(1);
  });

  it('untied: no more starts', async () => {
    lab.at('2026-12-09T08:00:00.000Z');
    const { training, vm } = await setup('2026-12-09');
    await ok('tie-lab-to-training', { slug: training.slug, vm_name: vm.vm_name }, provider);
    const shown = await ok('training-lab-schedules', { slug: training.slug }, provider);
    expect(await ok('untie-lab-from-training', { id: shown.list[0].id }, provider)).toEqual({
      message: LAB_SCHEDULE_MSG.untied,
    });
    lab.at('2026-12-09T09:55:00.000Z');
    await sweepLabSchedules(t.deps);
    expect(await statusOf(vm.vm_name)).not.toBe(VM_STATUS.start);
    expect((await ok('training-lab-schedules', { slug: training.slug }, provider)).list).toEqual([]);
  });
});
