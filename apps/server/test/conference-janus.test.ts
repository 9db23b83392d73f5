import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JanusEngine, JanusUnavailable } from '../src/adapters/meeting/janus';
import { recordings, syllabusTopics } from '../src/db/schema';
import { SERVER_RECORDING_JOB } from '../src/domains/conference/server-recording';
import { ConfigError, loadConfig } from '../src/platform/config';
import { runDueJobs } from '../src/platform/jobs';
import { Client, enrol, joined, listen, scenario } from './conference-support';
import { createTestApp, type TestApp } from './helpers';
import { publisherOffer, subscriberAnswer } from './janus-sdp';
import { localJanus, remotePublisher } from './janus-support';

// The Janus engine against a real Janus (Debian's, started by scripts/janus-local.mjs). Node has no
// WebRTC, so pages are played by WebSocket clients sending real SDP offers, and media comes from
// plain-RTP "remote publishers" fed by ffmpeg (janus-support.ts).
let janus: Awaited<ReturnType<typeof localJanus>>;
let t: TestApp;
let base: string;

beforeAll(async () => {
  janus = await localJanus();
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    MEETING_PROVIDER: 'janus',
    JANUS_URL: janus.url,
    JANUS_ADMIN_SECRET: janus.adminKey,
    JANUS_RECORD_DIR: janus.recordDir,
    SFU_MAX_SUBSCRIBED_VIDEO: '2',
  });
  base = await listen(t.app);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await janus?.stop();
});

async function until(ok: () => boolean | Promise<boolean>, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
  await t.app.conferenceHub.settle();
}
const engine = () => t.app.janusEngine!;
const relay = () => t.app.conferenceHub.sfuRelay!;
const roomOf = async (trainingId: number) => (await relay().state(String(trainingId)))!;

describe('configuration', () => {
  it('janus needs its URL and admin secret, and a ws:// URL', () => {
    expect(() => loadConfig({ MEETING_PROVIDER: 'janus' })).toThrow(/JANUS_URL and JANUS_ADMIN_SECRET/);
    expect(() => loadConfig({ MEETING_PROVIDER: 'janus', JANUS_URL: 'ws://127.0.0.1:8188' })).toThrow(ConfigError);
    expect(() => loadConfig({ JANUS_URL: 'ws://127.0.0.1:8188' })).toThrow(/JANUS_ADMIN_SECRET/);
    expect(() => loadConfig({ JANUS_URL: 'http://127.0.0.1:8188', JANUS_ADMIN_SECRET: 'x'.repeat(12) })).toThrow(
      /ws:\/\/ or wss:\/\//,
    );
    const c = loadConfig({ MEETING_PROVIDER: 'janus', JANUS_URL: 'ws://j:8188', JANUS_ADMIN_SECRET: 'y'.repeat(12) });
    expect(c).toMatchObject({ MESH_MAX_PARTICIPANTS: 6, SFU_MAX_SUBSCRIBED_VIDEO: 9 });
  });
});

describe('the meeting calls with the Janus engine', () => {
  it('/get-meeting-link answers as the built-in one, without any Janus secret', async () => {
    const s = await scenario(t, { started: true, isPublic: true });
    const res = await t.post('get-meeting-link', { slug: s.tr.slug }, s.learner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'janus',
      url: `http://app.test/conference/${s.tr.slug}`,
      ws_url: 'ws://app.test/ws/conference',
      ice_servers: [],
    });
    const guest = await t.post('get-meeting-url', { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link });
    expect(guest.body).toMatchObject({ provider: 'janus', ws_url: 'ws://app.test/ws/conference' });
    for (const body of [res.body, guest.body]) {
      expect(JSON.stringify(body)).not.toContain(janus.adminKey);
      expect(JSON.stringify(body)).not.toContain(janus.url);
    }
  });

  it('a learner before the start is refused and cannot publish', async () => {
    const s = await scenario(t);
    const c = await Client.open(base);
    c.send({ type: 'auth', token: s.learner.token });
    await c.next('authed');
    c.send({ type: 'join', slug: s.tr.slug });
    expect((await c.next('error')).message).toBe(MSG.waitingForHost);
    c.send({ type: 'sfu-publish', source: 'camera', jsep: publisherOffer() });
    expect((await c.next('error')).message).toBe(MSG.conferenceJoinFirst);
    expect(await relay().state(String(s.tr.id))).toBeNull();
    c.close();
  });
});

describe('an sfu room', () => {
  it('publishes, lists feeds, subscribes within the cap, and keeps the room rules', async () => {
    const s = await scenario(t, { started: true, isPublic: true });
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    expect(host.joined).toMatchObject({ media: 'sfu', isModerator: true });
    expect(await host.client.next('sfu-feeds')).toEqual({ type: 'sfu-feeds', feeds: [] });
    const learner = await joined(base, { token: s.learner.token }, s.tr.slug);
    expect(learner.joined.media).toBe('sfu');
    await learner.client.next('sfu-feeds');
    const hostId = host.joined.you.id;
    const learnerId = learner.joined.you.id;

    // the moderator publishes a camera with simulcast: Janus answers and accepts the three layers
    host.client.send({ type: 'sfu-publish', source: 'camera', jsep: publisherOffer() });
    const answer = await host.client.next('sfu-answer');
    expect(answer).toMatchObject({ source: 'camera', jsep: { type: 'answer' } });
    expect(answer.jsep.sdp).toContain('a=simulcast:recv l;m;h');
    expect(answer.jsep.sdp).toMatch(/a=ice-ufrag:/);
    const feeds = await learner.client.next('sfu-feeds');
    expect(feeds.feeds).toEqual([{ peer: hostId, source: 'camera', moderator: true }]);
    const { janusRoom, secret } = await roomOf(s.tr.id);
    expect(await engine().roomExists(janusRoom)).toBe(true);

    // mesh signalling is refused in an sfu room
    learner.client.send({ type: 'signal', to: hostId, data: { sdp: 'x' } });
    expect((await learner.client.next('error')).message).toBe(MSG.conferenceWrongMedia);

    // media from two more publishers of the room (plain RTP: see janus-support)
    const a = await remotePublisher(engine(), janusRoom, secret, `${hostId}:screen`);
    const b = await remotePublisher(engine(), janusRoom, secret, 'peer-b:camera');
    const c = await remotePublisher(engine(), janusRoom, secret, 'peer-c:camera');

    // more video than SFU_MAX_SUBSCRIBED_VIDEO (2): refused, nothing subscribed
    learner.client.send({
      type: 'sfu-subscribe',
      streams: [
        { feed: hostId, source: 'screen' },
        { feed: 'peer-b', source: 'camera' },
        { feed: 'peer-c', source: 'camera' },
      ],
    });
    expect((await learner.client.next('error')).message).toBe(MSG.conferenceTooManyStreams);
    expect(await learner.client.none('sfu-offer')).toBe(true);

    // within the cap: one offer, each m-line named by peer and source
    learner.client.send({
      type: 'sfu-subscribe',
      streams: [
        { feed: hostId, source: 'screen', substream: 2 },
        { feed: 'peer-b', source: 'camera', substream: 0 },
      ],
    });
    const offer = await learner.client.next('sfu-offer');
    expect(offer.jsep.type).toBe('offer');
    expect(offer.streams).toEqual([
      { mid: '0', feed: hostId, source: 'screen', kind: 'audio' },
      { mid: '1', feed: hostId, source: 'screen', kind: 'video' },
      { mid: '2', feed: 'peer-b', source: 'camera', kind: 'audio' },
      { mid: '3', feed: 'peer-b', source: 'camera', kind: 'video' },
    ]);
    expect(offer.jsep.sdp.match(/^m=/gm)).toHaveLength(4);
    learner.client.send({ type: 'sfu-answer', source: 'subscriber', jsep: subscriberAnswer(offer.jsep.sdp) });
    learner.client.send({ type: 'sfu-layer', feed: 'peer-b', source: 'camera', substream: 1 });
    learner.client.send({ type: 'sfu-trickle', target: 'subscriber', candidate: null });
    await t.app.conferenceHub.settle();
    expect(await learner.client.none('error')).toBe(true);

    // the set changes: peer-b out, peer-c in — one renegotiation
    learner.client.send({
      type: 'sfu-subscribe',
      streams: [
        { feed: hostId, source: 'screen' },
        { feed: 'peer-c', source: 'camera' },
      ],
    });
    const again = await learner.client.next('sfu-offer');
    const active = again.streams.map((x) => `${x.feed}/${x.kind}`);
    expect(active).toEqual(
      expect.arrayContaining([`${hostId}/audio`, `${hostId}/video`, 'peer-c/audio', 'peer-c/video']),
    );
    expect(active).not.toContain('peer-b/video');
    learner.client.send({ type: 'sfu-answer', source: 'subscriber', jsep: subscriberAnswer(again.jsep.sdp) });

    // room rules: chat, mute-all, hand, whiteboard as in the mesh
    learner.client.send({ type: 'chat', text: 'hello class' });
    expect((await host.client.next('chat')).text).toBe('hello class');
    host.client.send({ type: 'mute-all', kind: 'audio' });
    expect(await learner.client.next('muted')).toMatchObject({ kind: 'audio', by: hostId });
    learner.client.send({ type: 'mute-all', kind: 'audio' });
    expect((await learner.client.next('error')).message).toBe(MSG.conferenceModeratorOnly);

    // a second tab of the learner is refused
    const tab = await Client.open(base);
    tab.send({ type: 'auth', token: s.learner.token });
    await tab.next('authed');
    tab.send({ type: 'join', slug: s.tr.slug });
    expect((await tab.next('error')).message).toBe(MSG.trainingAlreadyOpen);
    expect(await tab.waitClosed()).toBe(4409);

    // a guest joins the sfu room and sees the feeds
    const url = await t.post('get-meeting-url', { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link });
    const guest = await joined(base, { ticket: url.body.ticket }, s.tr.slug);
    expect(guest.joined).toMatchObject({ media: 'sfu', you: { guest: true } });
    expect((await guest.client.next('sfu-feeds')).feeds).toEqual([{ peer: hostId, source: 'camera', moderator: true }]);
    guest.client.send({ type: 'sfu-publish', source: 'camera', jsep: publisherOffer({ simulcast: false }) });
    expect((await guest.client.next('sfu-answer')).jsep.sdp).toContain('m=video');
    expect((await host.client.next('sfu-feeds', 3000)).feeds).toBeDefined();

    // a guest leaving: its handles go, and its feed leaves everyone's list
    const before = relay().localPeers;
    guest.client.close();
    await until(() => relay().localPeers === before - 1);
    const after = (await relay().feeds(String(s.tr.id))).map((f) => f.peer);
    expect(after).toEqual([hostId]);

    // the moderator ends the meeting for all: the Janus room is destroyed
    host.client.send({ type: 'end-all' });
    expect(await learner.client.next('ended')).toEqual({ type: 'ended', by: hostId });
    expect(await learner.client.waitClosed()).toBe(4000);
    await host.client.waitClosed();
    await t.app.conferenceHub.settle();
    expect(await engine().roomExists(janusRoom)).toBe(false);
    expect(await engine().listRooms()).not.toContain(janusRoom);
    expect(await relay().state(String(s.tr.id))).toBeNull();
    expect(relay().localPeers).toBe(0);
    for (const p of [a, b, c]) await p.remove();
    expect(learnerId).not.toBe(hostId);
  }, 30_000);

  it('is destroyed in Janus when its last participant leaves, and a new opening creates another', async () => {
    const s = await scenario(t, { started: true });
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    const first = await roomOf(s.tr.id);
    expect(await engine().roomExists(first.janusRoom)).toBe(true);
    // publish a screen, then stop sharing: the feed comes and goes
    await host.client.next('sfu-feeds');
    host.client.send({ type: 'sfu-publish', source: 'screen', jsep: publisherOffer({ simulcast: false }) });
    await host.client.next('sfu-answer');
    expect((await host.client.next('sfu-feeds')).feeds).toEqual([
      { peer: host.joined.you.id, source: 'screen', moderator: true },
    ]);
    host.client.send({ type: 'sfu-trickle', target: 'screen', candidate: null });
    host.client.send({ type: 'sfu-unpublish', source: 'screen' });
    expect((await host.client.next('sfu-feeds')).feeds).toEqual([]);
    host.client.send({ type: 'sfu-trickle', target: 'screen', candidate: null });
    expect((await host.client.next('error')).message).toBe(MSG.conferenceBadMessage);
    host.client.send({ type: 'leave' });
    await until(async () => !(await engine().roomExists(first.janusRoom)));
    expect(await relay().state(String(s.tr.id))).toBeNull();
    host.client.send({ type: 'join', slug: s.tr.slug });
    expect((await host.client.next('joined')).media).toBe('sfu');
    const second = await roomOf(s.tr.id);
    expect(second.janusRoom).not.toBe(first.janusRoom);
    expect(await engine().roomExists(second.janusRoom)).toBe(true);
    host.client.close();
    await t.app.conferenceHub.settle();
  });
});

describe('server-side recording', () => {
  it('records the room in Janus; after the meeting a job makes one playable file at /recording', async () => {
    const s = await scenario(t, { started: true });
    const topic = await t.post(
      'add-training-syllabus',
      { slug: s.tr.slug, topic_name: 'Recorded topic' },
      s.provider.token,
    );
    expect(topic.status).toBe(200);
    const [topicRow] = await t.deps.db.select().from(syllabusTopics).where(eq(syllabusTopics.training_id, s.tr.id));
    const host = await joined(base, { token: s.provider.token }, s.tr.slug);
    const learner = await joined(base, { token: s.learner.token }, s.tr.slug);
    const hostId = host.joined.you.id;
    const { janusRoom, secret } = await roomOf(s.tr.id);
    const cam = await remotePublisher(engine(), janusRoom, secret, `${hostId}:camera`);
    // a live camera: its media flows before the moderator records and all through the recording, as
    // in a class (Janus records a publisher from the packets it has once recording is on)
    const sending = cam.send(8);
    await sending.started;

    // a learner cannot turn the recording on
    learner.client.send({ type: 'recording', on: true });
    expect((await learner.client.next('error')).message).toBe(MSG.conferenceModeratorOnly);
    host.client.send({ type: 'recording', on: true });
    expect(await learner.client.next('recording')).toMatchObject({ on: true, by: hostId });
    const { recording } = await roomOf(s.tr.id);
    expect(recording).toMatchObject({ trainingId: s.tr.id, userId: s.provider.user.id });
    await sending;
    // Janus writes what it has received before the room goes: at load its RTP thread can be behind
    // what was just sent, so the meeting ends once both recorders hold media and stop growing (as a
    // moderator would end it well after the first seconds).
    const mjrFiles = () =>
      (existsSync(recording!.dir) ? readdirSync(recording!.dir) : []).filter((f) => f.endsWith('.mjr'));
    const written = () =>
      mjrFiles()
        .map((f) => statSync(join(recording!.dir, f)).size)
        .join();
    let last = '';
    await until(async () => {
      const now = written();
      const settled = mjrFiles().length === 2 && now === last;
      last = now;
      await new Promise((r) => setTimeout(r, 300));
      return settled;
    }, 15_000);

    // the moderator ends the meeting (the page may be gone: nothing more comes from a browser)
    host.client.send({ type: 'end-all' });
    await learner.client.waitClosed();
    await t.app.conferenceHub.settle();
    expect(mjrFiles().sort()).toEqual([
      expect.stringMatching(/-audio-0\.mjr$/),
      expect.stringMatching(/-video-1\.mjr$/),
    ]);

    expect(await runDueJobs(t.deps, { kinds: [SERVER_RECORDING_JOB] })).toMatchObject({ done: 1, failed: 0 });
    const [row] = await t.deps.db.select().from(recordings).where(eq(recordings.training_id, s.tr.id));
    expect(row).toMatchObject({ status: 'ready', mime: 'video/webm', topic_id: topicRow!.id });
    expect(row!.bytes).toBeGreaterThan(10_000);
    const [topicAfter] = await t.deps.db.select().from(syllabusTopics).where(eq(syllabusTopics.id, topicRow!.id));
    expect(topicAfter!.recording_url).toBe(`/api/recording-file/${row!.id}`);

    // /recording/{topic} plays it: get-recording gives the file URL, the file is a WebM with video and audio
    const page = await t.post('get-recording', { id: topicRow!.id }, s.learner.token);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/recording-file/${row!.id}`,
      headers: { authorization: `Bearer ${s.learner.token}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBe(row!.bytes);
    const probe = spawnSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name:format=duration', '-of', 'json', '-'],
      { input: file.rawPayload },
    );
    const info = JSON.parse(String(probe.stdout)) as {
      streams: { codec_type: string; codec_name: string }[];
      format: { duration: string };
    };
    expect(info.streams.map((x) => `${x.codec_type}:${x.codec_name}`).sort()).toEqual(['audio:opus', 'video:vp8']);
    expect(Number(info.format.duration)).toBeGreaterThan(2);
    // Janus's raw files are gone once the recording is stored
    expect(() => readdirSync(recording!.dir)).toThrow();
    await cam.remove();
  }, 45_000);
});

describe('builtin with JANUS_URL: large classes through Janus', () => {
  let t2: TestApp;
  let base2: string;
  beforeAll(async () => {
    t2 = await createTestApp({
      LOGIN_RATE_LIMIT: '1000',
      JANUS_URL: janus.url,
      JANUS_ADMIN_SECRET: janus.adminKey,
      MESH_MAX_PARTICIPANTS: '3',
    });
    base2 = await listen(t2.app);
  }, 120_000);
  afterAll(async () => {
    await t2?.close();
  });

  it('a class above MESH_MAX_PARTICIPANTS meets through Janus, a small one in the mesh', async () => {
    // learner + trainer + a manager = 3: the mesh
    const small = await scenario(t2, { started: true });
    const link = await t2.post('get-meeting-link', { slug: small.tr.slug }, small.learner.token);
    expect(link.body.provider).toBe('builtin');
    const a = await joined(base2, { token: small.provider.token }, small.tr.slug);
    expect(a.joined.media).toBe('mesh');
    a.client.send({ type: 'sfu-publish', source: 'camera', jsep: publisherOffer() });
    expect((await a.client.next('error')).message).toBe(MSG.conferenceWrongMedia);

    // one more learner = 4: Janus, decided when the room opens
    const large = await scenario(t2, { started: true });
    const extra = await t2.loginAs({ role: 'user' });
    await enrol(t2, large.tr.id, extra.user.id);
    const b = await joined(base2, { token: large.provider.token }, large.tr.slug);
    expect(b.joined.media).toBe('sfu');
    b.client.send({ type: 'sfu-publish', source: 'camera', jsep: publisherOffer() });
    expect((await b.client.next('sfu-answer')).source).toBe('camera');
    // the choice is kept while the room is open, even if the class shrinks
    const c = await joined(base2, { token: large.learner.token }, large.tr.slug);
    expect(c.joined.media).toBe('sfu');
    for (const x of [a, b, c]) x.client.close();
    await t2.app.conferenceHub.settle();
  }, 30_000);
});

describe('the line to Janus', () => {
  it('reports a lost Janus, answers "not reachable" meanwhile, and connects again when it is back', async () => {
    const first = await localJanus();
    const line = new JanusEngine({ url: first.url, adminKey: first.adminKey });
    let lost = 0;
    line.on('lost', () => lost++);
    try {
      await line.createRoom(4242, { secret: 'room-secret' });
      expect(await line.roomExists(4242)).toBe(true);
      await first.stop();
      await until(() => lost === 1, 5000);
      await expect(line.roomExists(4242)).rejects.toBeInstanceOf(JanusUnavailable);
      // Janus is back on the same address (its rooms did not survive the restart)
      const again = await localJanus({ port: first.port, adminKey: first.adminKey });
      try {
        expect(await line.roomExists(4242)).toBe(false);
        await line.createRoom(4242, { secret: 'room-secret' });
        expect(await line.listRooms()).toEqual([4242]);
      } finally {
        await line.close();
        await again.stop();
      }
    } finally {
      await line.close();
      await first.stop().catch(() => {});
    }
  }, 30_000);
});
