import { MSG } from '@trainlab/contract';
import { eq } from 'drizzle-orm';
import { decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainingAttendances, trainings } from '../src/db/schema';
import { scenario } from './conference-support';
import { createTestApp, rolesExcept, type TestApp } from './helpers';

let t: TestApp;
const PARTICIPANTS = [
  'user',
  'provider_user',
  'organization_user',
  'provider',
  'organization',
  'org_subadmin',
  'trainer',
] as const;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000', ICE_SERVERS: '[{"urls":"stun:stun.lan.test:3478"}]' });
});
afterAll(() => t.close());

describe('access', () => {
  it('401 without a token, 403 for roles outside the call', async () => {
    for (const path of ['get-meeting-link', 'end-meeting', 'get-whiteboard', 'save-whiteboard']) {
      expect((await t.post(path, { slug: 'x' })).status, path).toBe(401);
    }
    for (const role of rolesExcept(...PARTICIPANTS)) {
      const { token } = await t.loginAs({ role });
      for (const path of ['get-meeting-link', 'end-meeting', 'get-whiteboard', 'save-whiteboard']) {
        expect((await t.post(path, { slug: 'x' }, token)).status, `${role} ${path}`).toBe(403);
      }
    }
    for (const role of rolesExcept('provider', 'organization', 'org_subadmin', 'trainer')) {
      const { token } = await t.loginAs({ role });
      expect((await t.post('save-whiteboard', { slug: 'x', scene: {} }, token)).status, role).toBe(403);
    }
  });
});

describe('/get-meeting-link', () => {
  it('gives learners the built-in room and status; a moderator starts the training', async () => {
    const s = await scenario(t);
    const learner = await t.post('get-meeting-link', { slug: s.tr.slug }, s.learner.token);
    expect(learner).toEqual({
      status: 200,
      body: {
        url: `http://app.test/conference/${s.tr.slug}`,
        provider: 'builtin',
        room: s.tr.link,
        slug: s.tr.slug,
        name: 'Kubernetes Basics',
        ws_url: 'ws://app.test/ws/conference',
        ice_servers: [{ urls: 'stun:stun.lan.test:3478' }],
        isModerator: 0,
        status: 0,
      },
    });
    expect((await t.post('get-meeting-link', { slug: s.tr.slug, start: 1 }, s.learner.token)).status).toBe(403);
    // /training/start/{id}: base64 id
    const byId = await t.post(
      'get-meeting-link',
      { id: Buffer.from(String(s.tr.id)).toString('base64'), start: 1 },
      s.trainer.token,
    );
    expect(byId.body).toMatchObject({ isModerator: 1, status: 1, slug: s.tr.slug });
    const [row] = await t.deps.db.select().from(trainings).where(eq(trainings.id, s.tr.id));
    expect(row!.status).toBe(1);
    expect((await t.post('get-meeting-link', { id: s.tr.id }, s.learner.token)).body.status).toBe(1);
  });

  it('404 for other tenants and strangers; 422 without slug or id', async () => {
    const s = await scenario(t);
    const other = await t.loginAs({ role: 'provider' });
    const stranger = await t.loginAs({ role: 'user' });
    const otherTrainer = await t.loginAs({ role: 'trainer' });
    for (const token of [other.token, stranger.token, otherTrainer.token]) {
      expect((await t.post('get-meeting-link', { slug: s.tr.slug }, token)).status).toBe(404);
    }
    expect((await t.post('get-meeting-link', { slug: 'nope' }, s.provider.token)).status).toBe(404);
    expect((await t.post('get-meeting-link', { id: '!!!' }, s.provider.token)).status).toBe(404);
    expect(await t.post('get-meeting-link', {}, s.provider.token)).toEqual({
      status: 422,
      body: { slug: ['The slug field is required when id is not present.'] },
    });
  });
});

describe('/end-meeting', () => {
  it('closes the caller’s open attendance rows; 404 elsewhere; 422', async () => {
    const s = await scenario(t, { started: true });
    await t.post('lp/update-training-join-status', { slug: s.tr.slug, is_start: 1 }, s.learner.token);
    expect(await t.post('end-meeting', { slug: s.tr.slug }, s.learner.token)).toEqual({
      status: 200,
      body: { message: MSG.meetingEnded, closed: 1 },
    });
    const rows = await t.deps.db
      .select()
      .from(trainingAttendances)
      .where(eq(trainingAttendances.training_user_id, s.enrolmentId));
    expect(rows[0]!.left_at).not.toBeNull();
    expect((await t.post('end-meeting', { id: s.tr.id }, s.provider.token)).body.closed).toBe(0);
    const stranger = await t.loginAs({ role: 'user' });
    expect((await t.post('end-meeting', { slug: s.tr.slug }, stranger.token)).status).toBe(404);
    expect((await t.post('end-meeting', {}, s.learner.token)).status).toBe(422);
  });
});

describe('guest join', () => {
  it('/get-meeting-status: 0/1 for public trainings, 403 not public, 404 unknown, 422', async () => {
    const s = await scenario(t, { isPublic: true });
    expect(await t.post('get-meeting-status', { meeting_id: s.tr.link })).toEqual({ status: 200, body: { status: 0 } });
    await t.post('get-meeting-link', { slug: s.tr.slug, start: 1 }, s.provider.token);
    expect((await t.post('get-meeting-status', { meeting_id: s.tr.link })).body).toEqual({ status: 1 });
    const hidden = await scenario(t, { started: true });
    expect(await t.post('get-meeting-status', { meeting_id: hidden.tr.link })).toEqual({
      status: 403,
      body: { message: MSG.trainingNotPublic, code: 'forbidden' },
    });
    expect((await t.post('get-meeting-status', { meeting_id: 'nope' })).status).toBe(404);
    expect(await t.post('get-meeting-status', {})).toEqual({
      status: 422,
      body: { meeting_id: ['The meeting id field is required.'] },
    });
  });

  it('/get-meeting-url: url and ticket once started; 403 waiting or not public; 404; 422 per field', async () => {
    const s = await scenario(t, { isPublic: true });
    const body = { first_name: 'Gita', last_name: 'Guest', meeting_id: s.tr.link };
    expect(await t.post('get-meeting-url', body)).toEqual({
      status: 403,
      body: { message: MSG.waitingForHost, code: 'forbidden' },
    });
    await t.post('get-meeting-link', { slug: s.tr.slug, start: 1 }, s.provider.token);
    const ok = await t.post('get-meeting-url', body);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      url: `http://app.test/public/conference/${s.tr.link}`,
      provider: 'builtin',
      room: s.tr.link,
      name: 'Kubernetes Basics',
      ws_url: 'ws://app.test/ws/conference',
      status: 1,
      expires_in: 600,
    });
    expect(ok.body.ticket).toMatch(/^[\w-]{20,}$/);
    const hidden = await scenario(t, { started: true });
    expect((await t.post('get-meeting-url', { ...body, meeting_id: hidden.tr.link })).status).toBe(403);
    expect((await t.post('get-meeting-url', { ...body, meeting_id: 'nope' })).status).toBe(404);
    for (const field of ['first_name', 'last_name', 'meeting_id'] as const) {
      const res = await t.post('get-meeting-url', { ...body, [field]: '' });
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body), field).toEqual([field]);
    }
  });
});

describe('whiteboard calls', () => {
  it('moderators save, everyone in the training reads; others 404; 422', async () => {
    const s = await scenario(t);
    expect((await t.post('get-whiteboard', { slug: s.tr.slug }, s.learner.token)).body).toEqual({
      success: { scene: null, updated_at: null },
    });
    const scene = { elements: [{ id: 'a' }] };
    expect(await t.post('save-whiteboard', { slug: s.tr.slug, scene }, s.trainer.token)).toEqual({
      status: 200,
      body: { message: MSG.whiteboardSaved },
    });
    await t.post('save-whiteboard', { slug: s.tr.slug, scene: { elements: [] } }, s.provider.token);
    const read = await t.post('get-whiteboard', { slug: s.tr.slug }, s.learner.token);
    expect(read.body.success.scene).toEqual({ elements: [] });
    expect(read.body.success.updated_at).toEqual(expect.any(String));
    const other = await t.loginAs({ role: 'provider' });
    expect((await t.post('save-whiteboard', { slug: s.tr.slug, scene }, other.token)).status).toBe(404);
    expect((await t.post('get-whiteboard', { slug: s.tr.slug }, other.token)).status).toBe(404);
    expect((await t.post('save-whiteboard', { slug: s.tr.slug }, s.provider.token)).status).toBe(422);
    const big = { data: 'x'.repeat(600 * 1024) };
    const tooBig = await t.post('save-whiteboard', { slug: s.tr.slug, scene: big }, s.provider.token);
    expect(tooBig.status).toBe(422);
    expect(Object.keys(tooBig.body)).toEqual(['scene']);
    expect((await t.post('get-whiteboard', {}, s.provider.token)).status).toBe(422);
  });
});

describe('Jitsi provider', () => {
  it('returns the domain and room, and a signed JWT with the moderator claim for hosts only', async () => {
    const secret = 'jitsi-test-secret-0123456789abcdef';
    const j = await createTestApp({
      MEETING_PROVIDER: 'jitsi',
      JITSI_DOMAIN: 'meet.example.test',
      JITSI_APP_ID: 'trainlab',
      JITSI_APP_SECRET: secret,
    });
    try {
      const s = await scenario(j);
      const key = new TextEncoder().encode(secret);
      const claims = async (token: string) => {
        const res = await j.post('get-meeting-link', { slug: s.tr.slug }, token);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ provider: 'jitsi', domain: 'meet.example.test', room: s.tr.link });
        expect(res.body.url).toBe(`https://meet.example.test/${s.tr.link}?jwt=${res.body.jwt}`);
        expect(res.body.ws_url).toBeUndefined();
        const { payload, protectedHeader } = await jwtVerify(res.body.jwt, key, {
          issuer: 'trainlab',
          audience: 'jitsi',
        });
        expect(protectedHeader.alg).toBe('HS256');
        expect(payload).toMatchObject({ sub: 'meet.example.test', room: s.tr.link });
        return payload as { context: { user: { moderator: boolean; name: string } } };
      };
      expect((await claims(s.provider.token)).context.user.moderator).toBe(true);
      expect((await claims(s.trainer.token)).context.user).toMatchObject({ moderator: true, name: 'Tara trainer' });
      expect((await claims(s.learner.token)).context.user.moderator).toBe(false);
      await j.deps.db.update(trainings).set({ status: 1, is_public: 1 }).where(eq(trainings.id, s.tr.id));
      const guest = await j.post('get-meeting-url', { first_name: 'G', last_name: 'H', meeting_id: s.tr.link });
      expect(decodeJwt(guest.body.jwt).context).toMatchObject({ user: { moderator: false, name: 'G H' } });
    } finally {
      await j.close();
    }
  });

  it('without app id/secret: no JWT', async () => {
    const j = await createTestApp({ MEETING_PROVIDER: 'jitsi', JITSI_DOMAIN: 'meet.example.test' });
    try {
      const s = await scenario(j);
      const res = await j.post('get-meeting-link', { slug: s.tr.slug }, s.learner.token);
      expect(res.body).toMatchObject({ provider: 'jitsi', url: `https://meet.example.test/${s.tr.link}` });
      expect(res.body.jwt).toBeUndefined();
    } finally {
      await j.close();
    }
  });
});
