// Helpers of the conference journeys: sign-in through the API, a browser context carrying that
// session, fresh enrolled learners, trainings, joining a room and reading the page's WebRTC stats.
// Copied from tests/conference.spec.ts (which still has its own copy) for the two-instance
// journeys in cluster/; that spec can move to this file later.
import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page } from '@playwright/test';

declare global {
  interface Window {
    __cfConference?: {
      getStats: () => Promise<{ bytesReceived: number; peers: number }>;
      localTracks: () => { kind: string; enabled: boolean }[];
    };
  }
}

export const WAITING = 'Waiting for the host to start the training, please standby !';
export const ALREADY_OPEN = 'Training already open in another tab or browser please check';
export const LEARNER_PASSWORD = 'Learner#2026';
export const tag = () => randomBytes(3).toString('hex');

export interface SessionUser {
  token: string;
  roles: string[];
  email: string;
  _id: number;
  first_name: string;
  last_name: string;
}
export type Call = <T = Record<string, unknown>>(path: string, data: Record<string, unknown>) => Promise<T>;

/** Absolute API paths when `baseURL` is given (another server instance than the config's baseURL). */
const api = (path: string, baseURL = '') => `${baseURL}/api/${path}`;

export async function apiLogin(request: APIRequestContext, email: string, password = 'Demo@12345', baseURL = '') {
  const res = await request.post(api('login', baseURL), {
    data: { email, password, is_previous: true, is_sso: false },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const user = ((await res.json()) as { success: SessionUser }).success;
  const call: Call = async (path, data) => {
    const r = await request.post(api(path, baseURL), { data, headers: { Authorization: `Bearer ${user.token}` } });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as never;
  };
  return { user, call };
}

/**
 * A browser context signed in as `user` (the session kept in localStorage as the login page does).
 * `baseURL` points the context at one server instance (relative page.goto paths go there);
 * `viewport` defaults to a laptop's.
 */
export async function signedInContext(
  browser: Browser,
  user: SessionUser,
  baseURL?: string,
  viewport = { width: 1280, height: 860 },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, ...(baseURL ? { baseURL } : {}) });
  await context.addInitScript((u) => {
    if (localStorage.getItem('token') === u.token) return;
    localStorage.setItem('token', u.token);
    localStorage.setItem('roles', JSON.stringify(u.roles));
    localStorage.setItem('email', u.email);
    localStorage.setItem('id', String(u._id));
    localStorage.setItem('first_name', u.first_name);
    localStorage.setItem('last_name', u.last_name);
  }, user);
  return context;
}

/** Enrols a fresh learner, sets the password through the e-mailed link and signs in through the API. */
export async function freshLearner(request: APIRequestContext, call: Call, slug: string, first: string, baseURL = '') {
  const email = `cf-${first.toLowerCase()}-${tag()}@e2e.test`;
  await call('lp/add-training-user', { first_name: first, last_name: 'Learner', mobile_no: '9876543210', email, slug });
  let token: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.post(api('dev/mailbox', baseURL), { data: {} });
      const { list } = (await res.json()) as { list: { to: string; text: string }[] };
      token = list
        .filter((m) => m.to === email)
        .map((m) => /\/reset-password\/([A-Za-z0-9_-]+)/.exec(m.text)?.[1])
        .find(Boolean);
      return token;
    })
    .toBeTruthy();
  const reset = await request.post(api('reset-password', baseURL), {
    data: { password: LEARNER_PASSWORD, password_confirmation: LEARNER_PASSWORD, i_t: token },
  });
  expect(reset.ok(), await reset.text()).toBe(true);
  return (await apiLogin(request, email, LEARNER_PASSWORD, baseURL)).user;
}

export async function createTraining(call: Call, name: string) {
  const start = new Date(Date.now() + 10 * 60_000);
  const end = new Date(start.getTime() + 2 * 86_400_000);
  return call<{ id: number; slug: string; link: string }>('create-training', {
    name,
    start_date: start.toISOString(),
    end_date: end.toISOString(),
    total_training_day: 2,
    number_of_participants: 20,
    description: `About ${name}`,
    requirements: [],
  });
}

export async function joinRoom(page: Page, slug: string) {
  await page.goto(`/conference/${slug}`);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
}

export const stats = (page: Page) =>
  page.evaluate(async () =>
    window.__cfConference ? window.__cfConference.getStats() : { bytesReceived: 0, peers: 0 },
  );
export const localTracks = (page: Page) => page.evaluate(() => window.__cfConference?.localTracks() ?? []);
