import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syllabusTopics, trainingAttendances, trainings } from '../src/db/schema';
import { Client, joined, listen, scenario } from './conference-support';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let base: string;
// long enough that a reconnect on a loaded machine (a join takes a few hundred ms there) lands inside it
const GRACE_MS = 1500;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', CONFERENCE_GRACE_SECONDS: String(GRACE_MS / 1000) });
  base = await listen(t.app);
});
afterAll(() => t.close());

const attendance = (enrolmentId: number) =>
  t.deps.db
    .select()
    .from(trainingAttendances)
    .where(eq(trainingAttendances.training_user_id, enrolmentId))
    .orderBy(trainingAttendances.id);

describe('protocol', () => {
  it('answers bad, unknown, oversized and early messages with an error and keeps the connection', async () => {
    const c = await Client.open(base);
    c.send('not json');
    expect(await c.next('error')).toEqual({ type: 'error', message: MSG.conferenceBadMessage });
    c.send({ type: 'dance' });
    expect((await c.next('error')).message).toBe(MSG.conferenceBadMessage);
    c.send({ type: 'chat' });
    expect((await c.next('error')).message).toBe(MSG.conferenceBadMessage);
    c.send({ type: 'join', slug: 'x' });
    expect((await c.next('error')).message).toBe(MSG.conferenceAuthRequired);
    c.send({ type: 'chat', text: 'hi' });
    expect((await c.next('error')).message).toBe(MSG.conferenceAuthRequired);
    c.send({ type: 'chat', text: 'x'.repeat(700 * 1024) });
    expect((await c.next('error')).message).toBe(MSG.conferenceTooLarge);
    c.ws.send(Buffer.from([1, 2, 3]));
    expect((await c.next('error')).message).toBe(MSG.conferenceBadMessage);
    c.send({ type: 'ping' });
    await c.next('pong');
    expect(c.closed).toBeNull();
    // a frame past the hard limit closes the socket (1009) without harming the server
    c.send('x'.repeat(2 * 1024 * 1024));
    expect(await c.waitClosed()).toBe(1009);
    const again = await Client.open(base);
    again.send({ type: 'ping' });
    await again.next('pong');
    again.close();
  });

  it('refuses a bad token and closes; an authenticated client must join before room messages', async () => {
    const bad = await Client.open(base);
    bad.send({ type: 'auth', token: 'nope' });
    expect((await bad.next('error')).message).toBe(MSG.unauthenticated);
    expect(await bad.waitClosed()).toBe(4401);

    const { learner } = await scenario(t, { started: true });
    const c = await Client.open(base);
    c.send({ type: 'auth', token: learner.token });
    expect(await c.next('authed')).toEqual({ type: 'authed', name: 'Lena user', guest: false });
    c.send({ type: 'mute-all', kind: 'audio' });
    expect((await c.next('error')).message).toBe(MSG.conferenceJoinFirst);
    c.send({ type: 'join', slug: 'no-such-training' });
    expect((await c.next('error')).message).toBe(MSG.notFound);
    c.close();
  });
});

describe('room rules', () => {
  it('learners wait until a moderator starts; moderators join any time; strangers get not found', async () => {
    const s = await scenario(t);
    const learner = await Client.open(base);
    learner.send({ type: 'auth', token: s.learner.token });
    await learner.next('authed');
    learner.send({ type: 'join', slug: s.tr.slug });
    expect((await learner.next('error')).message).toBe(MSG.waitingForHost);

    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    expect(host.joined).toMatchObject({ isModerator: true, peers: [], you: { isModerator: true, guest: false } });
    expect(host.joined.ice_servers).toEqual([]);

    const stranger = await t.loginAs({ role: 'user' });
    const other = await Client.open(base);
    other.send({ type: 'auth', token: stranger.token });
    await other.next('authed');
    other.send({ type: 'join', slug: s.tr.slug });
    expect((await other.next('error')).message).toBe(MSG.notFound);
    other.close();

    // the host starts (HTTP, the confirm dialog), then the learner may join
    const start = await t.post('get-meeting-link', { slug: s.tr.slug, start: 1 }, s.provider.token);
    expect(start.body.status).toBe(1);
    learner.send({ type: 'join', slug: s.tr.slug });
    const j = await learner.next('joined');
    expect(j.isModerator).toBe(false);
    expect(j.peers).toEqual([host.joined.you]);
    expect((await host.client.next('peer-joined')).peer).toEqual(j.you);

    const trainer = await joined(base, { token: s.trainer.token }, s.tr.slug);
    expect(trainer.joined.isModerator).toBe(true);
    expect(trainer.joined.peers.map((p) => p.id).sort()).toEqual([host.joined.you.id, j.you.id].sort());

    // learner may not moderate
    for (const msg of [
      { type: 'mute-all', kind: 'video' },
      { type: 'end-all' },
      { type: 'whiteboard', scene: { a: 1 } },
      { type: 'recording', on: true },
    ]) {
      learner.send(msg);
      expect((await learner.next('error')).message).toBe(MSG.conferenceModeratorOnly);
    }

    // signalling is relayed to the addressed peer only; unknown peers are refused
    learner.send({ type: 'signal', to: host.joined.you.id, data: { sdp: 'offer-sdp' } });
    expect(await host.client.next('signal')).toEqual({ type: 'signal', from: j.you.id, data: { sdp: 'offer-sdp' } });
    expect(await trainer.client.none('signal')).toBe(true);
    learner.send({ type: 'signal', to: 'nobody', data: {} });
    expect((await learner.next('error')).message).toBe(MSG.conferenceUnknownPeer);

    // chat fans out to everyone, sender included
    learner.send({ type: 'chat', text: '  hello all  ' });
    for (const c of [learner, host.client, trainer.client]) {
      expect(await c.next('chat')).toMatchObject({ from: j.you.id, name: 'Lena user', text: 'hello all' });
    }
    learner.send({ type: 'chat', text: 'x'.repeat(2001) });
    expect((await learner.next('error')).message).toBe(MSG.conferenceBadMessage);

    // leaving tells the others
    trainer.client.close();
    expect((await learner.next('peer-left')).id).toBe(trainer.joined.you.id);
    expect((await host.client.next('peer-left')).id).toBe(trainer.joined.you.id);
    learner.close();
    host.client.close();
  });

  it('one open session per account: a second tab is refused and the join count says 2', async () => {
    const s = await scenario(t, { started: true });
    const count = async () =>
      (await t.post('lp/get-training-join-count', { slug: s.tr.slug }, s.learner.token)).body.count;
    expect(await count()).toBe(1);
    const first = await joined(base, { token: s.learner.token }, s.tr.slug);
    expect(await count()).toBe(2);
    const second = await Client.open(base);
    second.send({ type: 'auth', token: s.learner.token });
    await second.next('authed');
    second.send({ type: 'join', slug: s.tr.slug });
    expect((await second.next('error')).message).toBe(MSG.trainingAlreadyOpen);
    expect(await second.waitClosed()).toBe(4409);
    expect(first.client.closed).toBeNull();
    // moderators too
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    expect((await t.post('lp/get-training-join-count', { slug: s.tr.slug }, s.provider.token)).body).toEqual({
      count: 2,
      isModerator: 1,
      isAssing: 1,
    });
    first.client.send({ type: 'leave' });
    expect((await host.client.next('peer-left')).id).toBe(first.joined.you.id);
    await t.app.conferenceHub.settle();
    expect(await count()).toBe(1);
    // after leaving, the same socket may join again
    first.client.send({ type: 'join', slug: s.tr.slug });
    await first.client.next('joined');
    first.client.close();
    host.client.close();
  });

  it('mute-all reaches everyone else; end-all ends the meeting for all and records the leave', async () => {
    const s = await scenario(t, { started: true });
    const host = await joined(base, { token: s.trainer.token }, s.tr.slug);
    const learner = await joined(base, { token: s.learner.token }, s.tr.slug);
    const other = await t.loginAs({ role: 'user' });
    const { enrol } = await import('./conference-support');
    await enrol(t, s.tr.id, other.user.id);
    const learner2 = await joined(base, { token: other.token }, s.tr.slug);

    host.client.send({ type: 'mute-all', kind: 'audio' });
    for (const c of [learner.client, learner2.client]) {
      expect(await c.next('muted')).toEqual({ type: 'muted', kind: 'audio', by: host.joined.you.id });
    }
    expect(await host.client.none('muted')).toBe(true);
    host.client.send({ type: 'mute-all', kind: 'video' });
    expect((await learner.client.next('muted')).kind).toBe('video');

    expect((await attendance(s.enrolmentId)).filter((r) => r.left_at === null)).toHaveLength(1);
    host.client.send({ type: 'end-all' });
    for (const c of [host.client, learner.client, learner2.client]) {
      expect(await c.next('ended')).toEqual({ type: 'ended', by: host.joined.you.id });
      expect(await c.waitClosed()).toBe(4000);
    }
    await t.app.conferenceHub.settle();
    // recorded at once, not after the grace period
    const rows = await attendance(s.enrolmentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.left_at).not.toBeNull();
  });

  it('hands: raised and lowered to the others, and a late joiner sees who is waiting', async () => {
    const s = await scenario(t, { started: true });
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    const learner = await joined(base, { token: s.learner.token }, s.tr.slug);
    learner.client.send({ type: 'hand', raised: true });
    expect(await host.client.next('hand')).toEqual({ type: 'hand', from: learner.joined.you.id, raised: true });
    expect(await learner.client.none('hand')).toBe(true);
    const trainer = await joined(base, { token: s.trainer.token }, s.tr.slug);
    expect(trainer.joined.peers.find((p) => p.id === learner.joined.you.id)?.hand).toBe(true);
    learner.client.send({ type: 'hand', raised: false });
    for (const c of [host.client, trainer.client]) {
      expect(await c.next('hand')).toEqual({ type: 'hand', from: learner.joined.you.id, raised: false });
    }
    learner.client.send({ type: 'hand', raised: 'yes' });
    expect((await learner.client.next('error')).message).toBe(MSG.conferenceBadMessage);
    for (const c of [host.client, learner.client, trainer.client]) c.close();
  });

  it('recording state: a moderator tells the room it started and stopped', async () => {
    const s = await scenario(t, { started: true });
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    const learner = await joined(base, { token: s.learner.token }, s.tr.slug);
    host.client.send({ type: 'recording', on: true });
    expect(await learner.client.next('recording')).toEqual({ type: 'recording', on: true, by: host.joined.you.id });
    host.client.send({ type: 'recording', on: false });
    expect((await learner.client.next('recording')).on).toBe(false);
    expect(await host.client.none('recording')).toBe(true);
    host.client.close();
    learner.client.close();
  });

  it('whiteboard: moderator scenes fan out and are saved with the training', async () => {
    const s = await scenario(t, { started: true });
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    const learner = await joined(base, { token: s.learner.token }, s.tr.slug);
    const scene = { elements: [{ id: 'r1', type: 'rectangle', x: 10 }], appState: { zoom: 1 } };
    host.client.send({ type: 'whiteboard', scene });
    expect(await learner.client.next('whiteboard')).toEqual({ type: 'whiteboard', scene, by: host.joined.you.id });
    expect(await host.client.none('whiteboard')).toBe(true);
    const saved = await t.post('get-whiteboard', { slug: s.tr.slug }, s.learner.token);
    expect(saved.status).toBe(200);
    expect(saved.body.success.scene).toEqual(scene);
    host.client.close();
    learner.client.close();
  });
});

describe('attendance from the connection', () => {
  it('opens training and running-topic rows on join; a drop closes them after the grace period, as of the drop', async () => {
    const s = await scenario(t, { started: true });
    const [topic] = await t.deps.db
      .insert(syllabusTopics)
      .values({ training_id: s.tr.id, session_topic: 'Pods', status: 1 })
      .returning();
    const c = await joined(base, { token: s.learner.token }, s.tr.slug);
    await t.app.conferenceHub.settle();
    let rows = await attendance(s.enrolmentId);
    expect(rows.map((r) => r.topic_id).sort()).toEqual([topic!.id, null].sort());
    expect(rows.every((r) => r.left_at === null)).toBe(true);
    // pretend the learner has been in for 10 minutes
    await t.deps.db
      .update(trainingAttendances)
      .set({ joined_at: new Date(Date.now() - 10 * 60_000) })
      .where(eq(trainingAttendances.training_user_id, s.enrolmentId));

    const droppedAt = Date.now();
    c.client.ws.terminate();
    await new Promise((r) => setTimeout(r, GRACE_MS / 4));
    await t.app.conferenceHub.settle();
    expect((await attendance(s.enrolmentId)).every((r) => r.left_at === null)).toBe(true);
    await new Promise((r) => setTimeout(r, GRACE_MS + 200));
    await t.app.conferenceHub.settle();
    rows = await attendance(s.enrolmentId);
    for (const r of rows) {
      expect(r.left_at).not.toBeNull();
      expect(Math.abs(r.left_at!.getTime() - droppedAt)).toBeLessThan(GRACE_MS / 2);
      expect(r.minutes).toBe(10);
    }
    // the client's report cannot add time afterwards
    const late = await t.post(
      'lp/update-training-join-status',
      { slug: s.tr.slug, is_end: 1, min: 5 * 3600 },
      s.learner.token,
    );
    expect(late.body.minutes).toBe(0);
  });

  it('a reconnect within the grace period keeps the same attendance row open', async () => {
    const s = await scenario(t, { started: true });
    const first = await joined(base, { token: s.learner.token }, s.tr.slug);
    await t.app.conferenceHub.settle();
    const [row] = await attendance(s.enrolmentId);
    first.client.ws.terminate();
    await new Promise((r) => setTimeout(r, GRACE_MS / 4));
    const second = await joined(base, { token: s.learner.token }, s.tr.slug);
    await new Promise((r) => setTimeout(r, GRACE_MS + 200));
    await t.app.conferenceHub.settle();
    const rows = await attendance(s.enrolmentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: row!.id, left_at: null });
    // /end-meeting clears the session markers
    const end = await t.post('end-meeting', { slug: s.tr.slug }, s.learner.token);
    expect(end).toEqual({ status: 200, body: { message: MSG.meetingEnded, closed: 1 } });
    second.client.close();
  });

  it('moderators and guests record no attendance', async () => {
    const s = await scenario(t, { started: true, isPublic: true });
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    const url = await t.post('get-meeting-url', { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link });
    expect(url.status).toBe(200);
    const guest = await joined(base, { ticket: url.body.ticket }, s.tr.slug);
    expect(guest.joined).toMatchObject({ isModerator: false, you: { name: 'Gita Guest', guest: true } });
    expect((await host.client.next('peer-joined')).peer.name).toBe('Gita Guest');
    guest.client.close();
    host.client.close();
    await t.app.conferenceHub.settle();
    const all = await t.deps.db.select().from(trainingAttendances).where(eq(trainingAttendances.training_id, s.tr.id));
    expect(all).toEqual([]);
  });
});

describe('guests', () => {
  it('need a fresh ticket of this public, started training', async () => {
    const s = await scenario(t, { started: true, isPublic: true });
    const other = await scenario(t, { started: true, isPublic: true });
    const url = await t.post('get-meeting-url', { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link });
    const c = await Client.open(base);
    c.send({ type: 'auth', ticket: url.body.ticket });
    expect(await c.next('authed')).toEqual({ type: 'authed', name: 'Gita Guest', guest: true });
    c.send({ type: 'join', slug: other.tr.slug });
    expect((await c.next('error')).message).toBe(MSG.notFound);
    // the training stops being public: the guest is refused
    await t.deps.db.update(trainings).set({ is_public: 0 }).where(eq(trainings.id, s.tr.id));
    c.send({ type: 'join', slug: s.tr.slug });
    expect((await c.next('error')).message).toBe(MSG.notFound);
    await t.deps.db.update(trainings).set({ is_public: 1, status: 0 }).where(eq(trainings.id, s.tr.id));
    c.send({ type: 'join', slug: s.tr.slug });
    expect((await c.next('error')).message).toBe(MSG.waitingForHost);
    c.close();
    // a ticket is good once
    const reuse = await Client.open(base);
    reuse.send({ type: 'auth', ticket: url.body.ticket });
    expect((await reuse.next('error')).message).toBe(MSG.unauthenticated);
    expect(await reuse.waitClosed()).toBe(4401);
  });
});
