import { expect, type Page, test } from '@playwright/test';
import {
  apiLogin,
  createTraining,
  freshLearner,
  joinRoom,
  localTracks,
  type SessionUser,
  signedInContext,
  stats,
  tag,
} from '../support/conference';
import { screenshot } from '../support/session';

// Issue 5: "The same room served by two server instances sharing Redis: participants connected to
// different instances see each other." Instance A and B share one PostgreSQL database and one Redis
// (playwright.cluster.config.ts); each page signals over the WebSocket of the instance it came from.
const PORT_A = Number(process.env.E2E_CLUSTER_PORT ?? 3150);
const A = `http://localhost:${PORT_A}`;
const B = `http://localhost:${PORT_A + 1}`;

const fullName = (u: SessionUser) => `${u.first_name} ${u.last_name}`;

/** The conference WebSocket URLs a page opens (to prove which instance it talks to). */
function sockets(page: Page): string[] {
  const urls: string[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().includes('/ws/conference')) urls.push(ws.url());
  });
  return urls;
}

test('participants on two instances sharing Redis see and hear each other; moderation crosses instances', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  // The provider works through A; the learners' accounts are finished through B (its mailbox and
  // password reset read and write the same database) and through A.
  const { user: provider, call } = await apiLogin(request, 'provider@demo.test', undefined, A);
  const training = await createTraining(call, `Two Instances ${tag()}`);
  const bea = await freshLearner(request, call, training.slug, 'Bea', B);
  const alan = await freshLearner(request, call, training.slug, 'Alan', A);

  const hostCtx = await signedInContext(browser, provider, A);
  const beaCtx = await signedInContext(browser, bea, B);
  const alanCtx = await signedInContext(browser, alan, A);
  const host = await hostCtx.newPage();
  const onB = await beaCtx.newPage();
  const onA = await alanCtx.newPage();
  const hostSockets = sockets(host);
  const bSockets = sockets(onB);
  const aSockets = sockets(onA);

  // the provider starts the training on A and joins
  await host.goto(`/conference/${training.slug}`);
  await host.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await host.getByRole('button', { name: 'Join meeting' }).click();
  await expect(host.getByRole('button', { name: "Mute everyone's audio" })).toBeVisible();

  // a learner through B (which learns from the shared database that the training is started), one through A
  await joinRoom(onB, training.slug);
  await joinRoom(onA, training.slug);
  expect(onB.url().startsWith(`${B}/`)).toBe(true);
  expect(bSockets).toEqual([`${B.replace(/^http/, 'ws')}/ws/conference`]);
  for (const urls of [hostSockets, aSockets]) expect(urls).toEqual([`${A.replace(/^http/, 'ws')}/ws/conference`]);

  // every page lists the other two and shows their video tiles
  const everyone = [
    { page: host, user: provider },
    { page: onB, user: bea },
    { page: onA, user: alan },
  ];
  for (const { page, user } of everyone) {
    const others = everyone.filter((p) => p.user !== user).map((p) => fullName(p.user));
    const list = page.getByRole('list', { name: 'Participants' });
    for (const name of others) {
      await expect(list.getByText(name, { exact: true })).toBeVisible();
      await expect(page.getByRole('group', { name: `Video of ${name}` })).toBeVisible();
    }
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expect(page.getByTestId('cf-peer-tile')).toHaveCount(2);
  }

  // media flows both ways between the instances' participants: bytes received grow on every page
  for (const { page } of everyone) {
    await expect.poll(async () => (await stats(page)).peers, { timeout: 20_000 }).toBe(2);
    await expect.poll(async () => (await stats(page)).bytesReceived, { timeout: 30_000 }).toBeGreaterThan(0);
    const before = (await stats(page)).bytesReceived;
    await expect.poll(async () => (await stats(page)).bytesReceived, { timeout: 15_000 }).toBeGreaterThan(before);
  }
  await screenshot(host, 'cluster-instance-a-host');
  await screenshot(onB, 'cluster-instance-b-learner');

  // chat sent on B reaches the pages on A
  await onB.getByRole('tab', { name: /Chat/ }).click();
  await onB.getByRole('textbox', { name: 'Chat message' }).fill('Hello from instance B');
  await onB.getByRole('button', { name: 'Send' }).click();
  for (const page of [host, onA]) {
    await page.getByRole('tab', { name: /Chat/ }).click();
    await expect(page.getByLabel('Chat messages').getByText('Hello from instance B')).toBeVisible();
  }

  // the moderator on A mutes everyone's audio: the learner on B (and the one on A) is muted
  await host.getByRole('button', { name: "Mute everyone's audio" }).click();
  for (const page of [onB, onA]) {
    await expect
      .poll(async () => (await localTracks(page)).map((t) => `${t.kind}:${t.enabled}`).sort())
      .toEqual(['audio:false', 'video:true']);
  }
  await expect(onB.getByText('The host muted your microphone.')).toBeVisible();
  expect((await localTracks(host)).every((t) => t.enabled)).toBe(true);
  await screenshot(onB, 'cluster-instance-b-learner-muted');

  // the moderator on A ends the meeting for all: the learner on B is sent to the site root of B
  // (which forwards a signed-in learner to the learner home)
  await host.getByRole('button', { name: 'End meeting for all' }).click();
  await host.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(onB).toHaveURL(new RegExp(`^${B}/(lpu-home)?$`));
  await expect(onA).toHaveURL(new RegExp(`^${A}/(lpu-home)?$`));
  await expect(host).toHaveURL(new RegExp(`^${A}/(learning-provider)?$`));

  // both instances recorded the attendance in the shared database
  const { list } = await call<{ list: { email: string; join: number }[] }>('lp/get-training-users', {
    slug: training.slug,
  });
  for (const learner of [bea, alan]) expect(list.find((r) => r.email === learner.email)?.join).toBe(1);
  await Promise.all([hostCtx.close(), beaCtx.close(), alanCtx.close()]);
});
