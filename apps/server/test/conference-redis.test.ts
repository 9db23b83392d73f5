import { randomBytes } from 'node:crypto';
import { MSG } from '@trainlab/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { Client, joined, listen, scenario } from './conference-support';
import { createTestApp, type TestApp } from './helpers';

// The CI machine runs Redis; this file never skips.
const REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

let t: TestApp;
let second: FastifyInstance;
let a: string;
let b: string;

beforeAll(async () => {
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    REDIS_URL,
    REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:`,
    CONFERENCE_GRACE_SECONDS: '0.2',
  });
  // a second server instance on the same database and Redis
  second = await buildApp(t.deps);
  await second.ready();
  a = await listen(t.app);
  b = await listen(second);
});
afterAll(async () => {
  await second.close();
  await t.close();
});

describe('two instances sharing Redis', () => {
  it('serve one room: presence, signalling, chat, moderation and the one-session rule cross instances', async () => {
    const s = await scenario(t, { started: true });
    const host = await joined(b, { token: s.provider.token }, s.tr.slug);
    const learner = await joined(a, { token: s.learner.token }, s.tr.slug);
    expect(learner.joined.peers).toEqual([host.joined.you]);
    expect((await host.client.next('peer-joined')).peer).toEqual(learner.joined.you);

    learner.client.send({ type: 'signal', to: host.joined.you.id, data: { candidate: 'c1' } });
    expect(await host.client.next('signal')).toEqual({
      type: 'signal',
      from: learner.joined.you.id,
      data: { candidate: 'c1' },
    });
    host.client.send({ type: 'signal', to: learner.joined.you.id, data: { sdp: 'answer' } });
    expect((await learner.client.next('signal')).data).toEqual({ sdp: 'answer' });

    host.client.send({ type: 'chat', text: 'welcome' });
    expect((await learner.client.next('chat')).text).toBe('welcome');
    host.client.send({ type: 'mute-all', kind: 'audio' });
    expect((await learner.client.next('muted')).kind).toBe('audio');
    host.client.send({ type: 'whiteboard', scene: { elements: [] } });
    expect((await learner.client.next('whiteboard')).scene).toEqual({ elements: [] });

    // the learner's second tab on the other instance is refused; both instances count 2
    const tab = await Client.open(b);
    tab.send({ type: 'auth', token: s.learner.token });
    await tab.next('authed');
    tab.send({ type: 'join', slug: s.tr.slug });
    expect((await tab.next('error')).message).toBe(MSG.trainingAlreadyOpen);
    const viaB = await second.inject({
      method: 'POST',
      url: '/api/lp/get-training-join-count',
      headers: { authorization: `Bearer ${s.learner.token}` },
      payload: { slug: s.tr.slug },
    });
    expect(viaB.json().count).toBe(2);

    host.client.send({ type: 'end-all' });
    expect((await learner.client.next('ended')).by).toBe(host.joined.you.id);
    expect(await learner.client.waitClosed()).toBe(4000);
    expect(await host.client.waitClosed()).toBe(4000);
    await t.app.conferenceHub.settle();
    await second.conferenceHub.settle();
    expect((await t.post('lp/get-training-join-count', { slug: s.tr.slug }, s.learner.token)).body.count).toBe(1);
  });

  it('a guest ticket issued by one instance works on the other', async () => {
    const s = await scenario(t, { started: true, isPublic: true });
    const url = await t.post('get-meeting-url', { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link });
    expect(url.status).toBe(200);
    const host = await joined(a, { token: s.trainer.token }, s.tr.slug);
    const guest = await joined(b, { ticket: url.body.ticket }, s.tr.slug);
    expect(guest.joined.peers).toEqual([host.joined.you]);
    guest.client.close();
    expect((await host.client.next('peer-left')).id).toBe(guest.joined.you.id);
    host.client.close();
  });
});
