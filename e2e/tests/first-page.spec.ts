import path from 'node:path';
import { expect, test } from '@playwright/test';
import { NEXT_FILES_ID } from '../../apps/web/src/app/likely-next';
import { firstLoadJs } from '../support/bundle';
import { DEMO_PASSWORD, screenshot } from '../support/session';

/** The JavaScript budget of the first page (the landing and /login), gzip: 150 KB, 150,000 bytes. */
const BUDGET = 150_000;
const dist = path.resolve(import.meta.dirname, '../../apps/web/dist');

test('the first page needs under 150 KB of JavaScript (gzip), read from the build manifest', () => {
  const { files, total } = firstLoadJs(dist);
  console.log(`first load: ${files.map((f) => `${f.file} ${f.gzip} B`).join(', ')}; total ${total} B`);
  expect(total).toBeLessThan(BUDGET);
});

for (const route of ['/', '/login']) {
  test(`${route} loads compressed, cacheable scripts within the budget and no console error`, async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    // the first page's scripts are those asked for before the load event; after it, once the browser
    // is idle, the app asks for the files of the route most likely next with <link rel="prefetch">
    // (app/prefetch-next.tsx): downloaded, never run, so no script request follows the load
    const urls: string[] = [];
    const later: string[] = [];
    let loaded = false;
    page.on('load', () => {
      loaded = true;
    });
    page.on('request', (req) => {
      if (req.resourceType() === 'script') (loaded ? later : urls).push(req.url());
    });
    await page.goto(route);
    await page.waitForLoadState('networkidle');
    await expect
      .poll(() => page.locator('link[rel="prefetch"]').count(), { message: 'the likely next route is prefetched' })
      .toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    // (the landing loads its own lower parts after the load event; the next screen's chunk stays unrun)
    const nextChunks = await page.evaluate((id) => {
      const files = JSON.parse(document.getElementById(id)?.textContent ?? '{}');
      return Object.values(files as Record<string, string[]>).map((list) => list[0]);
    }, NEXT_FILES_ID);
    expect(nextChunks.length).toBeGreaterThan(0);
    for (const chunk of nextChunks)
      expect(
        later.map((u) => new URL(u).pathname),
        'the next screen is prefetched, not run',
      ).not.toContain(chunk);
    if (route === '/login') await expect(page.getByRole('button', { name: /^login$/i })).toBeVisible();
    else await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(urls.length).toBeGreaterThan(0);
    // what those scripts cost on the wire, asked the way a browser asks (Chromium's cache hides it)
    const scripts = await Promise.all(
      urls.map(async (url) => {
        const res = await fetch(url, { headers: { 'accept-encoding': 'br, gzip' } });
        await res.arrayBuffer();
        return {
          url,
          encoding: res.headers.get('content-encoding') ?? '',
          cache: res.headers.get('cache-control') ?? '',
          bytes: Number(res.headers.get('content-length') ?? 0),
        };
      }),
    );
    for (const s of scripts) {
      expect(s.url.startsWith('http://localhost')).toBe(true);
      // files under 1 KB are sent as they are (compressing them gains nothing)
      if (s.bytes >= 1024) expect(['br', 'gzip'], s.url).toContain(s.encoding);
      expect(s.cache).toContain('immutable');
    }
    const total = scripts.reduce((n, s) => n + s.bytes, 0);
    console.log(`${route}: ${scripts.length} scripts, ${total} B on the wire`);
    expect(total).toBeLessThan(BUDGET);
    expect(errors).toEqual([]);
    await screenshot(page, `first-page${route.replace(/\//g, '-') || '-root'}`);
  });
}

test('the likely next route needs no script the first page did not prefetch: the catalogue from the landing, a home after login', async ({
  page,
}) => {
  const prefetched = async () =>
    new Set(
      await page
        .locator('link[rel="prefetch"]')
        .evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname)),
    );
  const scriptsWhile = async (act: () => Promise<void>) => {
    const asked: string[] = [];
    const onRequest = (req: import('@playwright/test').Request) => {
      if (req.resourceType() === 'script') asked.push(new URL(req.url()).pathname);
    };
    page.on('request', onRequest);
    await act();
    page.off('request', onRequest);
    return asked;
  };
  // the files the build names for a likely-next screen, all of which the page must have prefetched
  const listedFor = (key: string) =>
    page.evaluate(([k, id]) => (JSON.parse(document.getElementById(id)?.textContent ?? '{}')[k] ?? []) as string[], [
      key,
      NEXT_FILES_ID,
    ] as const);

  await page.goto('/');
  await expect.poll(async () => (await prefetched()).size).toBeGreaterThan(0);
  const fromLanding = await prefetched();
  const catalogueFiles = await listedFor('/courses');
  expect(catalogueFiles.length).toBeGreaterThan(0);
  expect(catalogueFiles.filter((f) => !fromLanding.has(f))).toEqual([]);
  await page.waitForLoadState('networkidle');
  const catalogue = await scriptsWhile(async () => {
    await page.getByRole('banner').getByRole('link', { name: 'Courses', exact: true }).click();
    await expect(page).toHaveURL(/\/courses$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
  // a file served from the prefetch cache may not show as a request at all; any that does was prefetched
  expect(catalogue.filter((f) => !fromLanding.has(f))).toEqual([]);

  await page.goto('/login');
  await expect.poll(async () => (await prefetched()).size).toBeGreaterThan(0);
  const fromLogin = await prefetched();
  const homeFiles = [...(await listedFor('/users')), ...(await listedFor('shell'))];
  expect(homeFiles.length).toBeGreaterThan(0);
  expect(homeFiles.filter((f) => !fromLogin.has(f))).toEqual([]);
  await page.waitForLoadState('networkidle');
  const home = await scriptsWhile(async () => {
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('learner@demo.test');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /^login$/i }).click();
    // the demo learner is a provider's learner: /lpu-home shows the same dashboard as /users
    await expect(page).toHaveURL(/\/(users|lpu-home)$/);
    await expect(page.getByRole('navigation').first()).toBeVisible();
  });
  expect(home.filter((f) => !fromLogin.has(f))).toEqual([]);
});

test('the landing is readable without JavaScript: headline, trending courses and certifications with links', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/training-home');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Trainings, courses and cloud labs in one place' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Trending Courses' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Docker from Scratch' })).toHaveAttribute('href', /^\/course-details\//);
  await expect(page.getByRole('link', { name: /^AWS Certified/ }).first()).toHaveAttribute(
    'href',
    /^\/certification-details\//,
  );
  await screenshot(page, 'landing-no-javascript');
  await context.close();
});
