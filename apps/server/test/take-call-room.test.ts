import { MSG } from '@trainlab/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, listen } from './conference-support';
import { createTestApp, type TestApp } from './helpers';
import { expectGuarded, orgWithOwner } from './org-fixtures';
import { makeTraining } from './trainings-fixtures';

let t: TestApp;
let base: string;
let provider: { token: string; user: { id: number } };
let invited: { token: string; user: { id: number } };
let uninvited: { token: string; user: { id: number } };
let takeCall: { id: number; slug: string };

const hoursAhead = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
  base = await listen(t.app);
  provider = await t.loginAs({ role: 'provider', first_name: 'Priya' });
  invited = await t.loginAs({ role: 'trainer', first_name: 'Asha' });
  uninvited = await t.loginAs({ role: 'trainer', first_name: 'Bala' });
  const training = await makeTraining(t, provider.token);
  const res = await t.post(
    'create-take-call',
    {
      title: 'Kick-off',
      start: hoursAhead(2),
      end: hoursAhead(3),
      slug: training.slug,
      trainer_ids: [invited.user.id],
    },
    provider.token,
  );
  expect(res.status).toBe(200);
  takeCall = { id: res.body.id, slug: res.body.slug };
});
afterAll(() => t.close());

const link = (token: string, id = takeCall.id) => t.post('get-take-call-meeting-link', { id }, token);

/** A socket authenticated with `token` that asks to join the take call's room. */
async function joinRoom(token: string, slug = takeCall.slug) {
  const c = await Client.open(base);
  c.send({ type: 'auth', token });
  await c.next('authed');
  c.send({ type: 'join', slug, room: 'take-call' });
  return c;
}

describe('/get-take-call-meeting-link', () => {
  it('401 without a token, 403 for learners and the admin', async () => {
    await expectGuarded(t, ['get-take-call-meeting-link'], ['provider', 'organization', 'org_subadmin', 'trainer'], {
      id: 1,
    });
  });

  it('the provider starts the room as its moderator', async () => {
    const res = await link(provider.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'builtin',
      slug: takeCall.slug,
      room: `take-call-${takeCall.slug}`,
      name: 'Kubernetes Basics',
      url: `http://app.test/take-call-meeting/${takeCall.id}`,
      isModerator: 1,
      status: 1,
    });
    expect(res.body.ws_url).toMatch(/\/ws\/conference$/);
  });

  it('an invited trainer joins, not as a moderator', async () => {
    const res = await link(invited.token);
    expect(res.status).toBe(200);
    expect(res.body.isModerator).toBe(0);
  });

  it('an uninvited trainer, another provider and another organization get 404', async () => {
    expect((await link(uninvited.token)).status).toBe(404);
    const other = await t.loginAs({ role: 'provider' });
    expect((await link(other.token)).status).toBe(404);
    expect((await link((await orgWithOwner(t)).token)).status).toBe(404);
    expect((await link(provider.token, 999999)).status).toBe(404);
  });

  it('the organization and its sub-admin moderate the take calls of their trainings', async () => {
    const { organization, token } = await orgWithOwner(t);
    const sub = await t.loginAs({ role: 'org_subadmin', organization_id: organization.id });
    const training = await makeTraining(t, token);
    const created = await t.post(
      'create-take-call',
      {
        title: 'Org call',
        start: hoursAhead(2),
        end: hoursAhead(3),
        slug: training.slug,
        trainer_ids: [invited.user.id],
      },
      token,
    );
    for (const who of [token, sub.token]) {
      const res = await link(who, created.body.id);
      expect(res.status).toBe(200);
      expect(res.body.isModerator).toBe(1);
    }
    expect((await link(provider.token, created.body.id)).status).toBe(404);
  });

  it('422 for a missing or bad id', async () => {
    const res = await t.post('get-take-call-meeting-link', { id: 'x' }, provider.token);
    expect(res.status).toBe(422);
    expect(res.body.id).toBeDefined();
  });
});

describe('the room on /ws/conference', () => {
  it('the manager side moderates, the invited trainer joins and sees the manager', async () => {
    const host = await joinRoom(provider.token);
    const hostJoined = await host.next('joined');
    expect(hostJoined.isModerator).toBe(true);
    const guestTrainer = await joinRoom(invited.token);
    const trainerJoined = await guestTrainer.next('joined');
    expect(trainerJoined.isModerator).toBe(false);
    expect(trainerJoined.peers.map((p) => p.id)).toEqual([hostJoined.you.id]);
    expect((await host.next('peer-joined')).peer.id).toBe(trainerJoined.you.id);

    // moderator rules: the trainer may not mute everyone; the manager may, and may end for all
    guestTrainer.send({ type: 'mute-all', kind: 'audio' });
    expect((await guestTrainer.next('error')).message).toBe(MSG.conferenceModeratorOnly);
    host.send({ type: 'mute-all', kind: 'audio' });
    expect((await guestTrainer.next('muted')).kind).toBe('audio');
    host.send({ type: 'end-all' });
    await guestTrainer.next('ended');
    expect(await guestTrainer.waitClosed()).toBe(4000);
    expect(await host.waitClosed()).toBe(4000);
  });

  it('refuses an uninvited trainer, another tenant and a learner', async () => {
    const learner = await t.loginAs({ role: 'user' });
    const other = await t.loginAs({ role: 'provider' });
    for (const token of [uninvited.token, other.token, learner.token]) {
      const c = await joinRoom(token);
      expect((await c.next('error')).message).toBe(MSG.notFound);
      c.close();
    }
  });

  it('is not the training room: the take call slug does not open a training', async () => {
    const c = await Client.open(base);
    c.send({ type: 'auth', token: provider.token });
    await c.next('authed');
    c.send({ type: 'join', slug: takeCall.slug });
    expect((await c.next('error')).message).toBe(MSG.notFound);
    c.close();
  });
});
