import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, chromium, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from '../support/axe';
import { CHROMIUM_WITH_FAKE_MEDIA } from '../support/browser';
import { apiLogin, joinRoom, signedInContext } from '../support/conference';
import { activate, tabTo, typeInto } from '../support/keyboard';
import { DEMO_PASSWORD, screenshot, uniqueEmail } from '../support/session';
import { makeLecture } from '../support/video';

// Keyboard-only journeys (issue 21): Tab, Shift+Tab, Enter, Space and arrows; never the mouse. The
// address bar is used where a person would type or follow a mailed link. Each journey also keeps
// the accessibility tree of its screen (ariaSnapshot) as a person with a screen reader meets it.
test.describe.configure({ mode: 'serial' });

const tag = () => randomBytes(3).toString('hex');

test.afterAll(() => {
  // the lab SSH server that the server under test started for the lab journey
  const pidFile = path.join(process.env.E2E_DATA_DIR ?? '', 'labs', 'sshd.pid');
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
});

/** The provider's API (setup only: what the journeys need to exist). */
async function providerApi(request: APIRequestContext) {
  const res = await request.post('/api/login', {
    data: { email: 'provider@demo.test', password: DEMO_PASSWORD, is_previous: true, is_sso: false },
  });
  expect(res.ok()).toBe(true);
  const { success } = (await res.json()) as { success: { token: string } };
  return async <T = Record<string, unknown>>(path: string, data: Record<string, unknown>): Promise<T> => {
    const r = await request.post(`/api/${path}`, { data, headers: { Authorization: `Bearer ${success.token}` } });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as T;
  };
}

type Call = Awaited<ReturnType<typeof providerApi>>;

async function createTraining(call: Call, name: string, tests = false) {
  const start = new Date(Date.now() + 10 * 60_000);
  return call<{ id: number; slug: string }>('create-training', {
    name,
    start_date: start.toISOString(),
    end_date: new Date(start.getTime() + 2 * 86_400_000).toISOString(),
    total_training_day: 2,
    number_of_participants: 20,
    description: `About ${name}`,
    requirements: [],
    ...(tests ? { pre_assessment: 1, post_assessment: 1 } : {}),
  });
}

async function mailText(request: APIRequestContext, to: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.post('/api/dev/mailbox', { data: {} });
        const { list } = (await res.json()) as { list: { to: string; text: string }[] };
        found = list.map((m) => (m.to === to ? pattern.exec(m.text)?.[1] : undefined)).find(Boolean);
        return found;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return found as string;
}

/** Signs in on /login with the keyboard alone. */
async function signInByKeyboard(page: Page, email: string) {
  await page.goto('/login');
  await typeInto(page, page.getByRole('textbox', { name: 'Email', exact: true }), email);
  await typeInto(page, page.getByRole('textbox', { name: 'Password', exact: true }), DEMO_PASSWORD);
  await activate(page, page.getByRole('button', { name: /^login$/i }));
  await expect(page).not.toHaveURL(/\/login$/, { timeout: 15_000 });
}

test('sign in by keyboard: the form reads as a form, and focus lands on the new page heading', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('main')).toMatchAriaSnapshot({ name: 'login.aria.yml' });
  await signInByKeyboard(page, 'learner@demo.test');
  await expect(page).toHaveURL(/\/lpu-home$/);
  // the route change moved focus to the page's heading, so the next Tab starts from the content
  await expect(page.locator('h1')).toBeFocused();
  await screenshot(page, 'kb-signed-in');
});

test('enrol in a training by keyboard: details, both codes, submit', async ({ page }) => {
  const call = await providerApi(page.request);
  const name = `Keyboard Training ${tag()}`;
  const training = await createTraining(call, name);
  await call('lp-public-training', { id: training.id });

  const email = uniqueEmail('kb-student');
  const mobile = `97${String(randomInt(10_000_000, 99_999_999))}`;
  await page.goto(`/training-register/${training.slug}`);
  await expect(page.getByRole('heading', { name: 'Training Registration' })).toBeVisible();
  await expect(page.getByRole('main')).toMatchAriaSnapshot({ name: 'enrolment.aria.yml' });

  await typeInto(page, page.getByRole('textbox', { name: 'First name' }), 'Kim');
  await typeInto(page, page.getByRole('textbox', { name: 'Last name' }), 'Keys');
  await typeInto(page, page.getByRole('textbox', { name: 'Email', exact: true }), email);
  await typeInto(page, page.getByRole('textbox', { name: 'Mobile no' }), mobile);
  await activate(page, page.getByRole('button', { name: 'Send OTP to email' }));
  await expect(page.getByText('OTP sent to your email.')).toBeVisible();
  await activate(page, page.getByRole('button', { name: 'Send OTP to mobile' }));
  await expect(page.getByText('OTP sent to your mobile no.')).toBeVisible();
  const emailCode = await mailText(page.request, email, /code is (\d{6})/);
  const smsCode = await mailText(page.request, mobile, /^(\d{6}) is your/);

  await typeInto(page, page.getByRole('textbox', { name: 'Mobile OTP' }), smsCode);
  await activate(page, page.getByRole('button', { name: 'Verify mobile OTP' }));
  await expect(page.getByText('Mobile no is verified')).toBeVisible();
  await typeInto(page, page.getByRole('textbox', { name: 'Email OTP' }), emailCode);
  await activate(page, page.getByRole('button', { name: 'Verify email OTP' }));
  await expect(page.getByText('Email is verified')).toBeVisible();
  await activate(page, page.getByRole('button', { name: 'Submit' }));
  await expect(page.getByText(`Welcome Kim! You are registered for ${name}.`)).toBeVisible();
  await screenshot(page, 'kb-enrolled');
});

test('take a test by keyboard: start, answer with Space, move with Next, submit; the screen reads as fieldsets', async ({
  page,
}) => {
  const call = await providerApi(page.request);
  const name = `Keyboard Test ${tag()}`;
  const training = await createTraining(call, name, true);
  await call('lp/add-training-user', {
    first_name: 'Liam',
    last_name: 'Learner',
    mobile_no: '9876543210',
    email: 'learner@demo.test',
    slug: training.slug,
  });
  const ids: number[] = [];
  for (const n of [1, 2]) {
    const saved = await call<{ success: { id: number } }>('add-question', {
      language_identified: 'English',
      question_category: 'Keyboard',
      question_type: 'Multiple choice',
      question: `Keyboard question ${n} ${tag()}?`,
      option1: `Right ${n}`,
      option2: 'Wrong A',
      option3: 'Wrong B',
      option4: 'Wrong C',
      correct_option: 1,
      level: 'Beginner',
    });
    ids.push(saved.success.id);
  }
  await call('add-random-questions', { minute: 10, type: 1, slug: training.slug, question_ids: ids });

  await signInByKeyboard(page, 'learner@demo.test');
  await page.goto(`/assessment?slug=${training.slug}`);
  await activate(page, page.getByRole('link', { name: 'Start Pre-assessment' }));
  const question = page.getByRole('group', { name: /^Question 1 of 2/ });
  await expect(question).toBeVisible();
  await expect(page.getByRole('timer')).toHaveAccessibleName(/^Time left \d+:\d\d$/);
  await expect(page.getByRole('main')).toMatchAriaSnapshot({ name: 'test-taking.aria.yml' });

  for (const n of [1, 2]) {
    const group = page.getByRole('group', { name: new RegExp(`^Question ${n} of 2`) });
    // Tab enters the radio group on its first option; Space chooses it
    await tabTo(page, group.getByRole('radio').first());
    await page.keyboard.press('Space');
    await expect(group.getByRole('radio', { name: `Right ${n}` })).toBeChecked();
    await expect(page.getByText('Answer saved.')).toBeVisible();
    if (n === 1) await activate(page, page.getByRole('button', { name: 'Next' }));
  }
  await activate(page, page.getByRole('button', { name: 'Submit Test' }));
  // the confirmation traps focus; Tab reaches its Submit button
  const ask = page.getByRole('dialog', { name: 'Submit the test?' });
  await expect(ask).toContainText('You have answered all 2 questions.');
  await activate(page, ask.getByRole('button', { name: 'Submit' }));
  await expect(page.getByRole('heading', { name: /Your score: 2 of 2/ })).toBeVisible();
  await screenshot(page, 'kb-test-submitted');
});

/** A three-second lecture. */
function shortVideo(): Buffer {
  return readFileSync(makeLecture(path.join(mkdtempSync(path.join(tmpdir(), 'kb-video-')), 'lecture.mp4'), 3));
}

test('play a course video by keyboard: M mutes, Space plays, C shows the captions; played to the end it is marked completed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const call = await providerApi(page.request);
  const t = tag();
  const course = await call<{ id: number; slug: string }>('create-course', {
    name: `Keyboard Course ${t}`,
    amount: 0,
    is_paid: 0,
    is_public: 0,
    description: 'A course played with the keyboard.',
  });
  const module = await call<{ id: number }>('create-module', { course_id: course.id, name: 'Basics' });
  const login = await page.request.post('/api/login', {
    data: { email: 'provider@demo.test', password: DEMO_PASSWORD, is_previous: true, is_sso: false },
  });
  const { success } = (await login.json()) as { success: { token: string } };
  const auth = { Authorization: `Bearer ${success.token}` };
  const created = await page.request.post('/api/create-all-course', {
    headers: auth,
    multipart: {
      module_id: String(module.id),
      name: 'Keys of the player',
      description: 'Three seconds.',
      course_url: { name: 'lecture.mp4', mimeType: 'video/mp4', buffer: shortVideo() },
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const topicSlug = ((await created.json()) as { slug: string }).slug;
  const captions = await page.request.post('/api/upload-topic-captions', {
    headers: auth,
    multipart: {
      slug: topicSlug,
      language: 'en',
      label: 'English',
      file: {
        name: 'captions.vtt',
        mimeType: 'text/vtt',
        buffer: Buffer.from('WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nA test pattern and a tone.\n'),
      },
    },
  });
  expect(captions.status(), await captions.text()).toBe(200);
  const call2 = async <T>(p: string, data: Record<string, unknown>) => {
    const r = await page.request.post(`/api/${p}`, { data, headers: auth });
    expect(r.status(), `${p}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as T;
  };
  await expect
    .poll(
      async () =>
        (await call2<{ data: { topics: { video_status: string }[] }[] }>('play-course-data', { slug: course.slug }))
          .data[0]?.topics[0]?.video_status,
      { timeout: 120_000 },
    )
    .toBe('ready');
  const learners = await call2<{ list: { id: number; email: string }[] }>('get-lp-or-org-users', {});
  const learner = learners.list.find((u) => u.email === 'learner@demo.test');
  expect(learner).toBeTruthy();
  await call2('assign-course-to-user', {
    slug: course.slug,
    // the window may not start in the past; it has opened by the time the learner has signed in
    start_date: new Date(Date.now() + 1_000).toISOString(),
    end_date: new Date(Date.now() + 86_400_000).toISOString(),
    userIds: [learner!.id],
  });
  // a second language, and the transcript taken from the English track
  const hindi = await page.request.post('/api/upload-topic-captions', {
    headers: auth,
    multipart: {
      slug: topicSlug,
      language: 'hi',
      label: 'Hindi',
      file: {
        name: 'hi.vtt',
        mimeType: 'text/vtt',
        buffer: Buffer.from('WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nएक परीक्षण चित्र।\n'),
      },
    },
  });
  expect(hindi.status(), await hindi.text()).toBe(200);
  await call2('save-topic-transcript', { slug: topicSlug, from_language: 'en' });

  await signInByKeyboard(page, 'learner@demo.test');
  await page.goto(`/course/${course.slug}`);
  await expect(page.getByRole('heading', { name: 'Keys of the player' })).toBeVisible();
  const video = page.getByTestId('course-video');
  await expect(video).toHaveAccessibleDescription(/Space plays and pauses/);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
    .toBeGreaterThan(0);
  expect(
    await video.evaluate((v: HTMLVideoElement) => Array.from(v.textTracks).map((t) => `${t.language}:${t.label}`)),
  ).toEqual(['en:English', 'hi:Hindi']);
  await tabTo(page, video);
  await page.keyboard.press('m');
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  await page.keyboard.press('c');
  expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.mode)).toBe(
    // the track is shown by default: C hides it, a second C shows it again
    'hidden',
  );
  await page.keyboard.press('c');
  expect(await video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.mode)).toBe('showing');
  await page.keyboard.press('Space');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused || v.ended)).toBe(true);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended), { timeout: 30_000 }).toBe(true);
  await expect(page.getByRole('img', { name: 'Completed' })).toBeVisible({ timeout: 10_000 });
  await screenshot(page, 'kb-video-watched');
  // the transcript opens from its button and is read as a named region
  await activate(page, page.getByRole('button', { name: 'Show transcript' }));
  await expect(page.getByRole('region', { name: 'Transcript: Keys of the player' })).toHaveText(
    'A test pattern and a tone.',
  );
  await screenshot(page, 'kb-video-transcript');

  // the author's side: the topic's caption tracks and transcript on its edit screen
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('provider@demo.test');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /^login$/i }).click();
  await expect(page).not.toHaveURL(/\/login$/, { timeout: 15_000 });
  await page.goto(`/edit-course/${topicSlug}`);
  const captionsSection = page.getByRole('region', { name: 'Captions' });
  await expect(captionsSection.getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('textbox', { name: 'Transcript text' })).toHaveValue('A test pattern and a tone.');
  await captionsSection.scrollIntoViewIfNeeded();
  await screenshot(page, 'kb-edit-captions');
  // the new sections meet the same WCAG 2.1 AA check as every route, at a desktop's and a phone's width
  expect(await seriousFindings(page)).toEqual([]);
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await seriousFindings(page)).toEqual([]);
  await screenshot(page, 'kb-edit-captions-360');
});

test('join the conference and raise a hand by keyboard; the host hears it announced', async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  // a browser with a fake camera and microphone (launch options cannot change within this file)
  const browser = await chromium.launch(CHROMIUM_WITH_FAKE_MEDIA);
  const page = await (await browser.newContext({ baseURL })).newPage();
  const call = await providerApi(request);
  const name = `Keyboard Meeting ${tag()}`;
  const training = await createTraining(call, name);
  await call('lp/add-training-user', {
    first_name: 'Liam',
    last_name: 'Learner',
    mobile_no: '9876543210',
    email: 'learner@demo.test',
    slug: training.slug,
  });
  // the host (set-up, not the keyboard user) starts the training and is in the room
  const { user: provider, call: hostCall } = await apiLogin(request, 'provider@demo.test');
  await hostCall('get-meeting-link', { slug: training.slug, start: 1 });
  const hostCtx = await signedInContext(browser, provider, baseURL);
  const host = await hostCtx.newPage();
  await joinRoom(host, training.slug);

  await signInByKeyboard(page, 'learner@demo.test');
  await page.goto(`/conference/${training.slug}`);
  await activate(page, page.getByRole('button', { name: 'Join meeting' }));
  const controls = page.getByRole('toolbar', { name: 'Meeting controls' });
  await expect(controls).toBeVisible({ timeout: 20_000 });
  await activate(page, controls.getByRole('button', { name: 'Raise hand' }));
  await expect(controls.getByRole('button', { name: 'Lower hand' })).toBeFocused();
  const mine = page.getByRole('log', { name: 'Meeting announcements' });
  await expect(mine).toContainText('Your hand is raised.');

  const heard = host.getByRole('log', { name: 'Meeting announcements' });
  await expect(heard).toContainText('Liam Learner raised a hand.');
  await expect(
    host.getByRole('list', { name: 'Participants' }).getByRole('listitem').filter({ hasText: 'Liam Learner' }),
  ).toContainText('Hand raised');
  await screenshot(page, 'kb-conference-hand');

  // the host's chat line is read out to the learner, whichever tab is open
  await host.getByRole('tab', { name: /Chat/ }).click();
  await host.getByRole('textbox', { name: 'Chat message' }).fill('Go ahead, Liam');
  await host.getByRole('button', { name: 'Send' }).click();
  await expect(mine).toContainText(/says: Go ahead, Liam/);

  await page.keyboard.press('Enter');
  await expect(controls.getByRole('button', { name: 'Raise hand' })).toBeFocused();
  await expect(heard).toContainText('Liam Learner lowered their hand.');
  await activate(page, controls.getByRole('button', { name: 'Leave' }));
  await browser.close();
});

test('start a lab by keyboard: dashboard card (one click), a command in the terminal, Shift+Escape out, stop it on closing', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const call = await providerApi(page.request);
  // the demo provider's lab account comes with the demo data (issue 41); registered here only without it
  const exist = await call<{ exist: number; authorized: number }>('check-gc-ac-exist', {});
  if (!exist.exist) {
    const account = `kblabs${tag()}`;
    await call('register-gc-account', {
      username: account,
      email: `${account}@demo.test`,
      first_name: 'Key',
      last_name: 'Labs',
      password: 'Labs#2026pw',
      password2: 'Labs#2026pw',
    });
  }
  const created = await call<{ list?: { vm_name: string }[] }>('gc-create-vm', {
    image: 'ubuntu',
    protocol: 'ssh',
    zone: 'asia-south1-a',
    count: 1,
    storage: 10,
    ram: 2,
    name: `Keyboard Lab ${tag()}`,
  });
  const assigned = await call<{ vm_name: string }>('assign-vm-to-user', {
    first_name: 'Liam',
    last_name: 'Learner',
    email: 'learner@demo.test',
    mobile_no: '9876543210',
    ...(created.list?.[0] ? { name: created.list[0].vm_name } : {}),
  });
  const vmName = assigned.vm_name;

  try {
    await signInByKeyboard(page, 'learner@demo.test');
    await expect(page).toHaveURL(/\/lpu-home$/);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Virtual Machine' }) });
    await expect(card.getByText(new RegExp(vmName))).toBeVisible();
    // Start VM starts and opens the lab in one click
    await activate(page, card.getByRole('link', { name: 'Start VM' }).first());
    await expect(page).toHaveURL(new RegExp(`/vm/${vmName}\\?start=1$`));
    const terminal = page.getByTestId('lab-terminal');
    await expect(terminal).toBeVisible({ timeout: 30_000 });
    await expect(terminal.locator('.xterm-rows')).toContainText('$', { timeout: 20_000 });
    await tabTo(page, terminal.locator('textarea'));
    await page.keyboard.type('echo hello-keys\n');
    await expect(terminal.locator('.xterm-rows > div').filter({ hasText: /^\s*hello-keys\s*$/ })).toHaveCount(1, {
      timeout: 15_000,
    });
    await screenshot(page, 'kb-lab-terminal');
    // the terminal keeps Tab for the shell; Shift+Escape hands focus back to the page
    await page.keyboard.press('Shift+Escape');
    await expect(page.locator('h1')).toBeFocused();
    await activate(page, page.getByRole('button', { name: 'Close Connection' }));
    // the running lab: stop it too, by keyboard (focus is inside the dialog)
    await expect(page.getByRole('dialog', { name: 'Stop the VM too?' })).toBeVisible();
    await activate(page, page.getByRole('button', { name: 'Stop the VM' }));
    await expect(page).toHaveURL(/\/lpu-home$/);
  } finally {
    await call('vm-delete', { name: vmName });
  }
});
