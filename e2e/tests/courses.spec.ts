import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { login, screenshot } from '../support/session';
import { pickDateTime, trTag } from '../support/trainings';
import { makeLecture } from '../support/video';

async function uploadTopic(
  page: Page,
  opts: { course: string; module: string; topic: string; file: string; newModule?: boolean },
) {
  await page.goto('/create-course');
  await expect(page.getByRole('heading', { name: 'Create Course' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Course', exact: true }).click();
  await page.getByRole('option', { name: opts.course }).click();
  if (opts.newModule) {
    await page.getByRole('button', { name: 'Add New' }).nth(1).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Module' });
    await dialog.getByRole('textbox', { name: 'Module Name' }).fill(opts.module);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Module', exact: true })).toHaveValue(opts.module);
  } else {
    await page.getByRole('textbox', { name: 'Module', exact: true }).click();
    await page.getByRole('option', { name: opts.module }).click();
  }
  await page.getByRole('textbox', { name: 'Topic Name' }).fill(opts.topic);
  await page.locator('input[type="file"]').setInputFiles(opts.file);
  await page.getByRole('textbox', { name: 'Description' }).fill(`All about ${opts.topic}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeAttached();
  await expect(page.getByText(/^(Uploading… \d+%|Checking the video…)$/)).toBeVisible();
  await screenshot(page, 'courses-upload-progress');
  await expect(page).toHaveURL(/\/all-courses$/, { timeout: 30_000 });
}

test('a provider authors a course with two videos and assigns it; the learner plays, resumes and both see the progress', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(path.join(tmpdir(), 'tl-e2e-videos-'));
  const first = makeLecture(path.join(dir, 'first.mp4'), 4, 'red');
  const second = makeLecture(path.join(dir, 'second.mp4'), 8, 'blue');
  const tag = trTag();
  const courseName = `Cloud Basics ${tag}`;

  const providerCtx = await browser.newContext();
  const provider = await providerCtx.newPage();
  await login(provider, 'provider@demo.test');
  await expect(provider).toHaveURL(/\/learning-provider$/);

  // the video goes up resumably (tus): each PATCH is held back a moment so the progress bar can be
  // seen, and the first one is cut off like a dropped connection; the upload must resume after it
  const tusRequests: string[] = [];
  provider.on('request', (r) => {
    if (r.url().includes('/api/course-uploads')) tusRequests.push(r.method());
  });
  let dropped = false;
  await provider.route('**/api/course-uploads/*', async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    await new Promise((r) => setTimeout(r, 1500));
    if (!dropped) {
      dropped = true;
      return route.abort('connectionreset');
    }
    return route.continue();
  });

  // course and module through their Add New popups, then the first topic
  await provider.goto('/create-course');
  await provider.getByRole('button', { name: 'Add New' }).first().click();
  const courseDialog = provider.getByRole('dialog', { name: 'Add New Course' });
  await courseDialog.getByRole('textbox', { name: 'Course Name' }).fill(courseName);
  await courseDialog.getByRole('textbox', { name: 'Course Amount' }).fill('499');
  await courseDialog.getByRole('textbox', { name: 'Description' }).fill('Virtual machines, networks and storage.');
  await courseDialog.getByRole('button', { name: 'Save' }).click();
  await expect(courseDialog).toBeHidden();
  await uploadTopic(provider, {
    course: courseName,
    module: 'Foundations',
    topic: 'What is a cloud',
    file: first,
    newModule: true,
  });
  // the dropped PATCH was followed by a HEAD (where to go on from) and the PATCH again
  expect(tusRequests.slice(0, 4)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
  await uploadTopic(provider, { course: courseName, module: 'Foundations', topic: 'Regions and zones', file: second });

  const row = provider.getByRole('row').filter({ hasText: courseName });
  await expect(row).toContainText('Virtual machines, network...');
  const slug = (await row.getByRole('link', { name: `Edit ${courseName}` }).getAttribute('href'))?.split('/').pop();
  if (!slug) throw new Error('no course slug');
  await screenshot(provider, 'courses-all-courses');

  // processing, then ready (the topic list refreshes itself)
  await provider.goto(`/course-view/${slug}`);
  const topics = provider.getByRole('table');
  await expect(topics.getByText('What is a cloud')).toBeVisible();
  await expect(topics.getByText('ready')).toHaveCount(2, { timeout: 120_000 });
  await screenshot(provider, 'courses-course-view');

  // assign to the demo learner until tomorrow
  await provider.goto(`/course/assign-to-users/${slug}`);
  await provider.getByRole('textbox', { name: 'Users' }).click();
  await provider.getByRole('option', { name: /Liam Learner/ }).click();
  await provider.keyboard.press('Escape');
  const tomorrow = new Date(Date.now() + 86400_000);
  await pickDateTime(provider, 'End date', tomorrow);
  await screenshot(provider, 'courses-assign');
  await provider.getByRole('button', { name: 'Assign' }).click();
  await expect(provider).toHaveURL(/\/all-courses$/);

  // the learner plays the first topic to the end
  const learnerCtx = await browser.newContext();
  const learner = await learnerCtx.newPage();
  await login(learner, 'learner@demo.test');
  await expect(learner).toHaveURL(/\/lpu-home$/);
  await learner.goto('/user/courses/list');
  const card = learner.getByRole('article', { name: courseName });
  await expect(card).toContainText('0% completed');
  await card.getByRole('link', { name: `Play ${courseName}` }).click();
  await expect(learner).toHaveURL(new RegExp(`/course/${slug}$`));
  await expect(learner.getByRole('heading', { name: 'What is a cloud' })).toBeVisible();
  const video = learner.getByTestId('course-video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.ended), { timeout: 30_000 }).toBe(true);
  await expect(learner.getByLabel('Completed')).toBeVisible({ timeout: 10_000 });
  await screenshot(learner, 'courses-player');

  // the second topic: three seconds, pause, reload, and it resumes there
  await learner.getByRole('button', { name: 'Next' }).click();
  await expect(learner.getByRole('heading', { name: 'Regions and zones' })).toBeVisible();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(3);
  const progressSaved = learner.waitForResponse((r) => r.url().endsWith('/api/course-progress') && r.ok());
  await video.evaluate((v: HTMLVideoElement) => v.pause());
  await progressSaved;
  await learner.reload();
  await expect(learner.getByRole('heading', { name: 'Regions and zones' })).toBeVisible();
  await expect
    .poll(() => learner.getByTestId('course-video').evaluate((v: HTMLVideoElement) => v.currentTime), {
      timeout: 20_000,
    })
    .toBeGreaterThanOrEqual(3);

  await learner.goto('/user/courses/list');
  const after = learner.getByRole('article', { name: courseName });
  await expect(after).toBeVisible();
  const pct = Number((await after.getByText(/% completed/).textContent())?.match(/(\d+)%/)?.[1]);
  expect(pct).toBeGreaterThanOrEqual(50);
  expect(pct).toBeLessThan(100);
  await screenshot(learner, 'courses-learner-list');

  // the provider sees it on the users list
  await provider.goto(`/course/assign-users-list/${slug}`);
  const learnerRow = provider.getByRole('row').filter({ hasText: 'learner@demo.test' });
  await expect(learnerRow).toContainText(`${pct}%`);
  await expect(learnerRow).toContainText('Incomplete');
  await screenshot(provider, 'courses-users-list');
  await providerCtx.close();
  await learnerCtx.close();
});
