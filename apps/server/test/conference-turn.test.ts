import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnIceServer } from '../src/adapters/meeting/turn';
import { ConfigError, loadConfig } from '../src/platform/config';
import { joined, listen, scenario } from './conference-support';
import { createTestApp, type TestApp } from './helpers';
import { allocate, startTurnserver } from './turn-support';

// coturn on the reserved test ports (relay ports right above it)
const TURN_PORT = 3790;
const SECRET = 'turn-shared-secret-0123456789';
const TTL = 600;
const STUN = { urls: 'stun:stun.lan.test:3478' };
const TURN_URLS = [`turn:127.0.0.1:${TURN_PORT}?transport=udp`, 'turns:turn.lan.test:5349'];

let t: TestApp;
let base: string;
let turn: Awaited<ReturnType<typeof startTurnserver>>;

beforeAll(async () => {
  turn = await startTurnserver(TURN_PORT, SECRET);
  t = await createTestApp({
    LOGIN_RATE_LIMIT: '1000',
    ICE_SERVERS: JSON.stringify([STUN]),
    TURN_URLS: TURN_URLS.join(', '),
    TURN_SECRET: SECRET,
    TURN_TTL_SECONDS: String(TTL),
  });
  base = await listen(t.app);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await turn?.stop();
});

/** The TURN entry of an ice_servers list, checked against the scheme coturn verifies. */
function turnEntry(iceServers: Record<string, unknown>[], participant: RegExp | string) {
  expect(iceServers).toHaveLength(2);
  expect(iceServers[0]).toEqual(STUN);
  const entry = iceServers[1] as { urls: string[]; username: string; credential: string };
  expect(entry.urls).toEqual(TURN_URLS);
  const [expiry, id] = entry.username.split(':');
  if (typeof participant === 'string') expect(id).toBe(participant);
  else expect(id).toMatch(participant);
  const now = Math.floor(Date.now() / 1000);
  expect(Number(expiry)).toBeGreaterThan(now + TTL - 30);
  expect(Number(expiry)).toBeLessThanOrEqual(now + TTL);
  expect(entry.credential).toBe(createHmac('sha1', SECRET).update(entry.username).digest('base64'));
  return entry;
}

describe('TURN credentials', () => {
  it('follow the REST shared-secret scheme and carry their expiry', () => {
    const config = { TURN_URLS, TURN_SECRET: SECRET, TURN_TTL_SECONDS: 3600 };
    const at = Date.UTC(2026, 0, 1, 10);
    const entry = turnIceServer(config, '42', at)!;
    expect(entry.username).toBe(`${at / 1000 + 3600}:42`);
    expect(entry.credential).toBe(createHmac('sha1', SECRET).update(entry.username).digest('base64'));
    // coturn splits the username at the first ':'; an id cannot add another
    expect(turnIceServer(config, 'guest:x', at)!.username).toBe(`${at / 1000 + 3600}:guest-x`);
    expect(turnIceServer({ TURN_URLS: [], TURN_SECRET: undefined, TURN_TTL_SECONDS: 3600 }, '42')).toBeNull();
  });

  it('need both the URLs and the secret; the URLs must be turn: or turns:', () => {
    expect(() => loadConfig({ TURN_URLS: 'turn:a.test:3478' })).toThrow(ConfigError);
    expect(() => loadConfig({ TURN_SECRET: SECRET })).toThrow(/TURN_URLS and TURN_SECRET/);
    expect(() => loadConfig({ TURN_URLS: 'stun:a.test:3478', TURN_SECRET: SECRET })).toThrow(/TURN_URLS/);
    expect(() => loadConfig({ TURN_URLS: 'turn:a.test:3478', TURN_SECRET: 'short' })).toThrow(/TURN_SECRET/);
    expect(loadConfig({}).TURN_URLS).toEqual([]);
  });

  it('come with the meeting link, one per participant, and the secret never does', async () => {
    const s = await scenario(t, { started: true, isPublic: true });
    const learner = await t.post('get-meeting-link', { slug: s.tr.slug }, s.learner.token);
    expect(learner.status).toBe(200);
    turnEntry(learner.body.ice_servers, String(s.learner.user.id));
    const trainer = await t.post('get-meeting-link', { slug: s.tr.slug }, s.trainer.token);
    turnEntry(trainer.body.ice_servers, String(s.trainer.user.id));
    const guest = await t.post('get-meeting-url', { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link });
    turnEntry(guest.body.ice_servers, /^guest-[\w-]+$/);
    for (const res of [learner, trainer, guest]) expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });

  it('are fresh in every WebSocket join, for accounts and guests', async () => {
    const s = await scenario(t, { started: true, isPublic: true });
    const learner = await joined(base, { token: s.learner.token }, s.tr.slug);
    turnEntry(learner.joined.ice_servers, String(s.learner.user.id));
    const url = await t.post('get-meeting-url', { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link });
    const guest = await joined(base, { ticket: url.body.ticket }, s.tr.slug);
    turnEntry(guest.joined.ice_servers, /^guest-[\w-]+$/);
    learner.client.close();
    guest.client.close();
    await t.app.conferenceHub.settle();
  });

  it('open a relay on a real coturn; expired, altered or foreign ones are refused', async () => {
    const s = await scenario(t, { started: true });
    const link = await t.post('get-meeting-link', { slug: s.tr.slug }, s.learner.token);
    const entry = turnEntry(link.body.ice_servers, String(s.learner.user.id));
    const granted = await allocate(TURN_PORT, entry.username, entry.credential);
    expect(granted.ok).toBe(true);
    expect(granted.ok && granted.relayPort).toBeGreaterThan(TURN_PORT);

    const config = { TURN_URLS, TURN_SECRET: SECRET, TURN_TTL_SECONDS: TTL };
    // issued TTL + 1 s ago: its expiry has passed
    const expired = turnIceServer(config, String(s.learner.user.id), Date.now() - (TTL + 1) * 1000)!;
    expect(await allocate(TURN_PORT, expired.username, expired.credential)).toEqual({ ok: false, code: 401 });
    // a later expiry written into the username without the secret
    const stretched = `${Number(entry.username.split(':')[0]) + 86400}:${s.learner.user.id}`;
    expect(await allocate(TURN_PORT, stretched, entry.credential)).toEqual({ ok: false, code: 401 });
    const foreign = turnIceServer({ ...config, TURN_SECRET: 'another-secret-0123456789' }, '7')!;
    expect(await allocate(TURN_PORT, foreign.username, foreign.credential)).toEqual({ ok: false, code: 401 });
  });
});
