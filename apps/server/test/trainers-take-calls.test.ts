import { TAKE_CALL_MSG } from '@trainlab/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeCalls, trainingTrainers } from '../src/db/schema';
import { buildIcs } from '../src/domains/take-calls/invitation';
import type { TestApp } from './helpers';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { makeCategory, sentMail, trainerTestApp } from './trainers-support';
import { inDays, makeTraining } from './trainings-fixtures';

let t: TestApp;
let cleanup: () => Promise<void>;
let provider: string;
let providerEmail: string;
let org: string;
const trainers: { token: string; id: number; email: string }[] = [];
let training: { id: number; slug: string };
let k8s: number;
let terraform: number;

const hoursAhead = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

beforeAll(async () => {
  ({ t, cleanup } = await trainerTestApp());
  const p = await t.loginAs({ role: 'provider', first_name: 'Priya' });
  provider = p.token;
  providerEmail = p.user.email;
  org = (await orgWithOwner(t)).token;
  for (const name of ['Asha', 'Bala', 'Chirag']) {
    const a = await t.loginAs({ role: 'trainer', first_name: name, last_name: 'Trainer' });
    trainers.push({ token: a.token, id: a.user.id, email: a.user.email });
  }
  const cat = (await makeCategory(t, 'DevOps')).id;
  k8s = (await t.post('create-skill', { name: 'Kubernetes', category_id: cat }, trainers[0]!.token)).body.id;
  terraform = (await t.post('create-skill', { name: 'Terraform', category_id: cat }, trainers[0]!.token)).body.id;
  const skill = (token: string, skill_id: number, experience: number, type: string, rate: number) =>
    t.post('add-trainer-skill', { category_id: cat, skill_id, experience, type, rate_per_hours: rate }, token);
  await skill(trainers[0]!.token, k8s, 5, 'Year', 60);
  await skill(trainers[1]!.token, k8s, 18, 'Month', 40);
  await skill(trainers[2]!.token, terraform, 2, 'Year', 30);
  training = await makeTraining(t, provider, { requirements: ['A laptop', 'Docker installed'] });
});
afterAll(() => cleanup());

describe('guards', () => {
  it('manager calls: 401 and 403 for every other role', async () => {
    await expectGuarded(
      t,
      [
        'get-trainer-list',
        'create-take-call',
        'show-take-call',
        'reschedule-take-call',
        'show-take-call-details',
        'assign-trainer-to-training',
        'get-training-trainers-requirement-status',
      ],
      ['provider', 'organization', 'org_subadmin'],
    );
  });
  it('trainer calls: 401 and 403 for every other role', async () => {
    await expectGuarded(
      t,
      [
        'trainer-take-calls',
        'reschedule-trainer-take-call',
        'get-training-requirements',
        'update-training-requirement',
      ],
      ['trainer'],
    );
  });
});

describe('search trainers', () => {
  it('finds trainers by skill, category, rate and experience with their real skills, paged', async () => {
    const bySkill = await t.post('get-trainer-list', { skill_id: k8s, sort: 'rate_per_hours' }, provider);
    expect(bySkill.status).toBe(200);
    expect(bySkill.body).toMatchObject({ total: 2, page: 1 });
    expect(bySkill.body.list.map((r: { first_name: string }) => r.first_name)).toEqual(['Bala', 'Asha']);
    expect(bySkill.body.list[1]).toMatchObject({
      id: trainers[0]!.id,
      rate_per_hours: 60,
      experience: 60,
      skills: [{ cname: 'DevOps', sname: 'Kubernetes', experience: 5, type: 'Year', rate_per_hours: 60 }],
    });
    // rate at the limit and one below it
    expect((await t.post('get-trainer-list', { skill_id: k8s, max_rate: 40 }, provider)).body.total).toBe(1);
    expect((await t.post('get-trainer-list', { skill_id: k8s, max_rate: 39 }, provider)).body.total).toBe(0);
    // experience in months: 18 months is at the limit of 18, not of 19
    expect((await t.post('get-trainer-list', { skill_id: k8s, min_experience_months: 18 }, provider)).body.total).toBe(
      2,
    );
    expect((await t.post('get-trainer-list', { skill_id: k8s, min_experience_months: 19 }, provider)).body.total).toBe(
      1,
    );
    expect((await t.post('get-trainer-list', { search: 'terra' }, org)).body.list).toMatchObject([
      { first_name: 'Chirag' },
    ]);
    const page2 = await t.post('get-trainer-list', { per_page: 2, page: 2 }, provider);
    expect(page2.body).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page2.body.list).toHaveLength(1);
    expect((await t.post('get-trainer-list', { per_page: 101 }, provider)).status).toBe(422);
    expect((await t.post('get-trainer-list', { per_page: 100 }, provider)).status).toBe(200);
  });
});

describe('take call journey', () => {
  let takeCallId: number;

  it('create: 422 per field, past start, end before start, unknown trainer, other tenant training', async () => {
    const empty = await t.post('create-take-call', {}, provider);
    expect(empty.body).toEqual({
      title: ['The title field is required.'],
      start: ['The start field is required.'],
      end: ['The end field is required.'],
      slug: ['The slug field is required.'],
      trainer_ids: ['The trainer ids field is required.'],
    });
    const past = await t.post(
      'create-take-call',
      {
        title: 'Call',
        start: hoursAhead(-1),
        end: hoursAhead(-2),
        slug: training.slug,
        trainer_ids: [trainers[0]!.id],
      },
      provider,
    );
    expect(past.body).toEqual({
      start: ['The start must be a date after or equal to now.'],
      end: ['The end must be a date after start.'],
    });
    const bad = await t.post(
      'create-take-call',
      { title: 'Call', start: 'soon', end: hoursAhead(2), slug: training.slug, trainer_ids: [trainers[0]!.id] },
      provider,
    );
    expect(bad.body).toEqual({ start: ['The start is not a valid date.'] });
    const body = { title: 'Call', start: hoursAhead(1), end: hoursAhead(2), slug: training.slug };
    expect((await t.post('create-take-call', { ...body, trainer_ids: [999999] }, provider)).body).toEqual({
      trainer_ids: ['The selected trainer is invalid.'],
    });
    const tooMany = Array.from({ length: 51 }, (_, i) => i + 1);
    expect((await t.post('create-take-call', { ...body, trainer_ids: tooMany }, provider)).body).toEqual({
      trainer_ids: ['The trainer ids must not have more than 50 items.'],
    });
    // another tenant's training answers 404
    expect((await t.post('create-take-call', { ...body, trainer_ids: [trainers[0]!.id] }, org)).status).toBe(404);
  });

  it('create for two trainers: listed for the manager and both trainers, each invited with an .ics', async () => {
    const res = await t.post(
      'create-take-call',
      {
        title: 'Kubernetes intro call',
        start: hoursAhead(24),
        end: hoursAhead(25),
        slug: training.slug,
        trainer_ids: [trainers[0]!.id, trainers[1]!.id],
      },
      provider,
    );
    expect(res).toEqual({
      status: 200,
      body: { message: TAKE_CALL_MSG.created, id: expect.any(Number), slug: expect.any(String) },
    });
    takeCallId = res.body.id;

    const list = await t.post('show-take-call', {}, provider);
    expect(list.body).toMatchObject({
      total: 1,
      list: [
        {
          id: takeCallId,
          title: 'Kubernetes intro call',
          name: 'Kubernetes Basics',
          status: 0,
          trainers: 2,
          answered: 0,
        },
      ],
    });
    expect((await t.post('show-take-call', {}, org)).body.total).toBe(0);

    const mine = await t.post('trainer-take-calls', {}, trainers[0]!.token);
    expect(mine.body.total).toBe(1);
    expect(mine.body.list[0]).toMatchObject({
      take_call_id: takeCallId,
      title: 'Kubernetes intro call',
      name: 'Kubernetes Basics',
      status: 0,
      first_name: 'Priya',
      learning_provider: expect.stringContaining('Priya'),
      is_assing: 0,
    });
    expect((await t.post('trainer-take-calls', {}, trainers[2]!.token)).body.total).toBe(0);

    const mail = await sentMail(t);
    for (const to of [trainers[0]!.email, trainers[1]!.email, providerEmail]) {
      const m = mail.find((x) => x.to === to && x.subject === 'Take call: Kubernetes intro call');
      expect(m, to).toBeDefined();
      expect(m!.text).toContain('invite.ics');
    }
    expect(mail.some((x) => x.to === trainers[2]!.email)).toBe(false);

    const dash = await t.post('trainer-dashboard', {}, trainers[0]!.token);
    expect(dash.body).toMatchObject({ open_take_call_count: 1, open_take_calls: [{ take_call_id: takeCallId }] });
  });

  it('reschedule: 422 for past dates, 404 across tenants, everyone told with a newer invitation', async () => {
    const body = { id: takeCallId, title: 'Kubernetes call (moved)', start: hoursAhead(48), end: hoursAhead(49) };
    expect((await t.post('reschedule-take-call', { ...body, start: hoursAhead(-3) }, provider)).body).toEqual({
      start: ['The start must be a date after or equal to now.'],
    });
    expect((await t.post('reschedule-take-call', body, org)).status).toBe(404);
    const res = await t.post('reschedule-take-call', body, provider);
    expect(res).toEqual({ status: 200, body: { message: TAKE_CALL_MSG.rescheduled } });
    const mail = await sentMail(t);
    expect(
      mail
        .filter((m) => m.subject === 'Take call rescheduled: Kubernetes call (moved)')
        .map((m) => m.to)
        .sort(),
    ).toEqual([trainers[0]!.email, trainers[1]!.email, providerEmail].sort());
    expect((await t.post('show-take-call', {}, provider)).body.list[0].start).toBe(new Date(body.start).toISOString());
  });

  it('trainers answer: up to three future dates (Reschedule needs the first), Not Interested none; 422 and 404 rules', async () => {
    const detailOf = async (i: number) =>
      (await t.post('trainer-take-calls', {}, trainers[i]!.token)).body.list[0].take_call_detail_id as number;
    const d0 = await detailOf(0);
    const d1 = await detailOf(1);
    // spec 02 §4: "up to three proposed dates": Reschedule proposes at least one
    const missing = await t.post('reschedule-trainer-take-call', { id: d0, status: 2 }, trainers[0]!.token);
    expect(missing.body).toEqual({ propose_date1: ['The propose date1 field is required.'] });
    // Available demands no date (issue 41); a date given is still checked
    const availablePast = await t.post(
      'reschedule-trainer-take-call',
      { id: d0, status: 1, propose_date2: hoursAhead(-1) },
      trainers[0]!.token,
    );
    expect(availablePast.body).toEqual({ propose_date2: ['The propose date2 must be a date after or equal to now.'] });
    const pastDate = await t.post(
      'reschedule-trainer-take-call',
      { id: d0, status: 2, propose_date1: hoursAhead(-2), propose_date2: hoursAhead(5), propose_date3: hoursAhead(6) },
      trainers[0]!.token,
    );
    expect(pastDate.body).toEqual({ propose_date1: ['The propose date1 must be a date after or equal to now.'] });
    expect((await t.post('reschedule-trainer-take-call', { id: d0, status: 4 }, trainers[0]!.token)).body).toEqual({
      status: ['The selected status is invalid.'],
    });
    expect(
      (
        await t.post(
          'reschedule-trainer-take-call',
          { id: d0, status: 3, remark: 'x'.repeat(1001) },
          trainers[0]!.token,
        )
      ).body,
    ).toEqual({
      remark: ['The remark must not be greater than 1000 characters.'],
    });
    // another trainer's detail answers 404
    expect((await t.post('reschedule-trainer-take-call', { id: d0, status: 3 }, trainers[1]!.token)).status).toBe(404);

    const dates = [hoursAhead(30), hoursAhead(31), hoursAhead(32)];
    const ok = await t.post(
      'reschedule-trainer-take-call',
      {
        id: d0,
        status: 1,
        title: 'ignored',
        remark: 'Happy to',
        propose_date1: dates[0],
        propose_date2: dates[1],
        propose_date3: dates[2],
      },
      trainers[0]!.token,
    );
    expect(ok).toEqual({ status: 200, body: { message: TAKE_CALL_MSG.answered } });
    const no = await t.post('reschedule-trainer-take-call', { id: d1, status: 3, remark: 'Busy' }, trainers[1]!.token);
    expect(no.status).toBe(200);

    const mail = await sentMail(t);
    const answers = mail.filter((m) => m.to === providerEmail && m.subject.startsWith('Take call answer:'));
    expect(answers.map((m) => m.subject).sort()).toEqual([
      'Take call answer: Kubernetes call (moved) (Available)',
      'Take call answer: Kubernetes call (moved) (Not Interested)',
    ]);
    expect(answers.find((m) => m.subject.endsWith('(Available)'))!.text).toContain('Remark: Happy to');

    const details = await t.post('show-take-call-details', { id: takeCallId }, provider);
    expect(details.status).toBe(200);
    expect(details.body.total).toBe(2);
    const asha = details.body.list.find((r: { trainer_id: number }) => r.trainer_id === trainers[0]!.id);
    expect(asha).toMatchObject({
      first_name: 'Asha',
      status: 1,
      remark: 'Happy to',
      propose_date1: new Date(dates[0]!).toISOString(),
      propose_date3: new Date(dates[2]!).toISOString(),
      is_assing: 0,
      requirements_total: 2,
      requirements_confirmed: 0,
    });
    expect(details.body.list.find((r: { trainer_id: number }) => r.trainer_id === trainers[1]!.id)).toMatchObject({
      status: 3,
      propose_date1: null,
    });
    expect(details.body.take_call).toMatchObject({ id: takeCallId, answered: 2 });
    expect((await t.post('show-take-call-details', { id: takeCallId }, org)).status).toBe(404);
  });

  it('requirements: the trainer confirms a selection; the manager reads it; foreign ids are refused', async () => {
    const req = await t.post('get-training-requirements', { take_call_id: takeCallId }, trainers[0]!.token);
    expect(req.status).toBe(200);
    expect(req.body.list).toEqual([
      { trId: expect.any(Number), requirement: 'A laptop', status: 0 },
      { trId: expect.any(Number), requirement: 'Docker installed', status: 0 },
    ]);
    expect(req.body.take_call).toMatchObject({ take_call_id: takeCallId, title: 'Kubernetes call (moved)' });
    const ids = req.body.list.map((r: { trId: number }) => r.trId);
    const otherIds = (
      await t.post('get-training-requirements', { take_call_id: takeCallId }, trainers[1]!.token)
    ).body.list.map((r: { trId: number }) => r.trId);
    expect((await t.post('update-training-requirement', { ids: [otherIds[0]] }, trainers[0]!.token)).body).toEqual({
      ids: [TAKE_CALL_MSG.requirementInvalid],
    });
    expect((await t.post('update-training-requirement', { ids: [] }, trainers[0]!.token)).body).toEqual({
      ids: ['The ids field is required.'],
    });
    expect((await t.post('get-training-requirements', { take_call_id: takeCallId }, trainers[2]!.token)).status).toBe(
      404,
    );
    const ok = await t.post('update-training-requirement', { ids: [ids[1]] }, trainers[0]!.token);
    expect(ok).toEqual({ status: 200, body: { message: TAKE_CALL_MSG.requirementsConfirmed } });

    const status = await t.post(
      'get-training-trainers-requirement-status',
      { trainer_id: trainers[0]!.id, take_call_id: takeCallId },
      provider,
    );
    expect(status.body).toEqual({
      list: [
        { trId: ids[0], requirement: 'A laptop', status: 0 },
        { trId: ids[1], requirement: 'Docker installed', status: 1 },
      ],
      trainer: { first_name: 'Asha', last_name: 'Trainer' },
      title: 'Kubernetes call (moved)',
    });
    expect(
      (
        await t.post(
          'get-training-trainers-requirement-status',
          { trainer_id: trainers[0]!.id, take_call_id: takeCallId },
          org,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.post(
          'get-training-trainers-requirement-status',
          { trainer_id: trainers[2]!.id, take_call_id: takeCallId },
          provider,
        )
      ).status,
    ).toBe(404);
  });

  it('requirements: each tick is saved with take_call_id; only on the caller’s own take call', async () => {
    const listOf = async (token: string) =>
      (await t.post('get-training-requirements', { take_call_id: takeCallId }, token)).body.list as {
        trId: number;
        status: number;
      }[];
    const progress = async (trainerId: number) => {
      const details = await t.post('show-take-call-details', { id: takeCallId }, provider);
      const row = details.body.list.find((r: { trainer_id: number }) => r.trainer_id === trainerId);
      return `${row.requirements_confirmed}/${row.requirements_total}`;
    };
    const bala = trainers[1]!;
    const balaIds = (await listOf(bala.token)).map((r) => r.trId);
    const ashaBefore = await listOf(trainers[0]!.token);
    expect(await progress(bala.id)).toBe('0/2');

    const tick = await t.post(
      'update-training-requirement',
      { take_call_id: takeCallId, ids: [balaIds[0]] },
      bala.token,
    );
    expect(tick).toEqual({ status: 200, body: { message: TAKE_CALL_MSG.requirementsConfirmed } });
    expect((await listOf(bala.token)).map((r) => r.status)).toEqual([1, 0]);
    expect(await progress(bala.id)).toBe('1/2');

    // a trainer who is not on this take call: not found, nothing changed
    const foreign = await t.post(
      'update-training-requirement',
      { take_call_id: takeCallId, ids: [] },
      trainers[2]!.token,
    );
    expect(foreign.status).toBe(404);
    // ids of another trainer's list under one's own take call: refused, nothing changed
    const stolen = await t.post(
      'update-training-requirement',
      { take_call_id: takeCallId, ids: [balaIds[1]] },
      trainers[0]!.token,
    );
    expect(stolen).toEqual({ status: 422, body: { ids: [TAKE_CALL_MSG.requirementInvalid] } });
    expect(await listOf(trainers[0]!.token)).toEqual(ashaBefore);
    expect((await listOf(bala.token)).map((r) => r.status)).toEqual([1, 0]);

    // unticking the last one is a save too
    const untick = await t.post('update-training-requirement', { take_call_id: takeCallId, ids: [] }, bala.token);
    expect(untick.status).toBe(200);
    expect((await listOf(bala.token)).map((r) => r.status)).toEqual([0, 0]);
    expect(await progress(bala.id)).toBe('0/2');
  });

  it('assign: only trainers of the take call; the assigned trainer sees the training and is told', async () => {
    expect(
      (
        await t.post(
          'assign-trainer-to-training',
          { take_call_id: takeCallId, trainer_ids: [trainers[2]!.id] },
          provider,
        )
      ).body,
    ).toEqual({
      trainer_ids: [TAKE_CALL_MSG.notInTakeCall],
    });
    expect(
      (await t.post('assign-trainer-to-training', { take_call_id: takeCallId, trainer_ids: [trainers[0]!.id] }, org))
        .status,
    ).toBe(404);
    const res = await t.post(
      'assign-trainer-to-training',
      { take_call_id: takeCallId, trainer_ids: [trainers[0]!.id] },
      provider,
    );
    expect(res).toEqual({ status: 200, body: { message: TAKE_CALL_MSG.assigned } });
    const rows = await t.deps.db.select().from(trainingTrainers).where(eq(trainingTrainers.training_id, training.id));
    expect(rows.map((r) => r.trainer_id)).toEqual([trainers[0]!.id]);
    const assigned = await t.post('trainer/assigned-trainings', {}, trainers[0]!.token);
    expect(assigned.body.list.map((r: { slug: string }) => r.slug)).toContain(training.slug);
    // assigning again is harmless
    expect(
      (
        await t.post(
          'assign-trainer-to-training',
          { take_call_id: takeCallId, trainer_ids: [trainers[0]!.id] },
          provider,
        )
      ).status,
    ).toBe(200);
    const details = await t.post('show-take-call-details', { id: takeCallId, sort: 'first_name' }, provider);
    expect(details.body.list.map((r: { is_assing: number }) => r.is_assing)).toEqual([1, 0]);
    const mail = await sentMail(t);
    expect(
      mail.some((m) => m.to === trainers[0]!.email && m.subject === 'Assigned to the training: Kubernetes Basics'),
    ).toBe(true);
    // the assigned trainer moderates the training's conference
    const link = await t.post('get-meeting-link', { slug: training.slug }, trainers[0]!.token);
    expect(link.status).toBe(200);
    const dash = await t.post('trainer-dashboard', {}, trainers[0]!.token);
    expect(dash.body.assigned_trainings).toMatchObject([{ slug: training.slug }]);
    expect(dash.body.open_take_call_count).toBe(0);
  });
});

describe('calendar file', () => {
  it('is a valid VEVENT with the organizer, attendees, uid and sequence', () => {
    const ics = buildIcs({
      uid: 'take-call-abc@trainlab',
      sequence: 2,
      title: 'Call (Training)',
      description: 'Hello',
      start: new Date('2030-01-02T10:00:00Z'),
      end: new Date('2030-01-02T11:00:00Z'),
      url: 'http://app.test/trainer-take-calls',
      organizer: { name: 'Priya', email: 'priya@example.test' },
      attendees: [{ name: 'Asha', email: 'asha@example.test' }],
      method: 'REQUEST',
    });
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain('UID:take-call-abc@trainlab');
    expect(ics).toContain('SEQUENCE:2');
    expect(ics).toContain('DTSTART:20300102T100000Z');
    expect(ics).toContain('DTEND:20300102T110000Z');
    expect(ics).toMatch(/ORGANIZER;CN=[^:]*Priya[^:]*:mailto:priya@example\.test/i);
    // long lines are folded (RFC 5545 §3.1)
    expect(ics.replace(/\r\n[ \t]/g, '')).toMatch(/ATTENDEE;[^\r\n]*PARTSTAT=[^\r\n]*:mailto:asha@example\.test/);
  });
});

describe('lists stay within their tenant and page', () => {
  it('an organization sees only its own take calls; per_page 100 passes, 101 does not', async () => {
    const orgAccount = await orgWithOwner(t);
    const orgTraining = await makeTraining(t, orgAccount.token, {
      start_date: inDays(3),
      end_date: inDays(4),
      requirements: [],
    });
    const created = await t.post(
      'create-take-call',
      {
        title: 'Org call',
        start: hoursAhead(3),
        end: hoursAhead(4),
        slug: orgTraining.slug,
        trainer_ids: [trainers[2]!.id],
      },
      orgAccount.token,
    );
    expect(created.status).toBe(200);
    const list = await t.post('show-take-call', { per_page: 100 }, orgAccount.token);
    expect(list.body).toMatchObject({ total: 1, list: [{ title: 'Org call' }] });
    expect((await t.post('show-take-call', { per_page: 101 }, orgAccount.token)).status).toBe(422);
    expect((await t.post('show-take-call-details', { id: created.body.id }, provider)).status).toBe(404);
    expect((await t.post('show-take-call', { slug: training.slug }, provider)).body.total).toBe(1);
    // a training without requirements gives an empty checklist
    expect(
      (await t.post('get-training-requirements', { take_call_id: created.body.id }, trainers[2]!.token)).body.list,
    ).toEqual([]);
  });

  it('a tenant reads its own calls however the others lie in time; a call inserted by any path carries its training’s tenant', async () => {
    const a = await t.loginAs({ role: 'provider' });
    const b = await t.loginAs({ role: 'provider' });
    const ta = await makeTraining(t, a.token, { requirements: [] });
    const tb = await makeTraining(t, b.token, { requirements: [] });
    // A's calls all lie behind B's newer ones, inserted straight into the table (no tenant given)
    await t.deps.db.execute(sql`
      insert into take_calls (slug, training_id, title, start, "end")
      select 'tc-a-' || ${ta.id} || '-' || g, ${ta.id}, 'A call ' || g, now() - (g || ' days')::interval - interval '400 days',
             now() - (g || ' days')::interval - interval '399 days'
      from generate_series(1, 3) g`);
    await t.deps.db.execute(sql`
      insert into take_calls (slug, training_id, title, start, "end")
      select 'tc-b-' || ${tb.id} || '-' || g, ${tb.id}, 'B call ' || g, now() + (g || ' hours')::interval,
             now() + (g || ' hours')::interval + interval '1 hour'
      from generate_series(1, 30) g`);
    const copied = await t.deps.db
      .select({ owner: takeCalls.owner_user_id, org: takeCalls.organization_id })
      .from(takeCalls)
      .where(eq(takeCalls.training_id, ta.id));
    expect(copied).toEqual([...Array(3)].map(() => ({ owner: a.user.id, org: null })));
    // a tenant written by the insert itself (a path that meant to file the call under B) is replaced
    await t.deps.db.execute(sql`
      insert into take_calls (slug, training_id, title, start, "end", owner_user_id)
      values ('tc-forged-' || ${ta.id}, ${ta.id}, 'Forged', now(), now() + interval '1 hour', ${b.user.id})`);
    const [forged] = await t.deps.db
      .select({ owner: takeCalls.owner_user_id })
      .from(takeCalls)
      .where(eq(takeCalls.title, 'Forged'));
    expect(forged!.owner).toBe(a.user.id);
    await t.deps.db.delete(takeCalls).where(eq(takeCalls.title, 'Forged'));
    const listA = await t.post('show-take-call', { per_page: 2 }, a.token);
    expect(listA.body).toMatchObject({ total: 3, list: [{ title: 'A call 1' }, { title: 'A call 2' }] });
    const listB = await t.post('show-take-call', {}, b.token);
    expect(listB.body.total).toBe(30);
    expect(listB.body.list.every((r: { title: string }) => r.title.startsWith('B call'))).toBe(true);
  });
});
