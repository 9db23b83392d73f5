import path from 'node:path';
import { expect, test } from '@playwright/test';
import { firstLoadJs } from '../support/bundle';
import { screenshot } from '../support/session';

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
    // is idle, the app fetches the chunks of the route most likely next (app/prefetch-next.tsx)
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
      .poll(() => later.length, { message: 'the likely next route is prefetched after load' })
      .toBeGreaterThan(0);
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
  await expect(page.getByRole('link', { name: 'Docker from Scratch' })).toHaveAttribute(
    'href',
    /^\/training-register\//,
  );
  await expect(page.getByRole('link', { name: /^AWS Certified/ }).first()).toHaveAttribute(
    'href',
    /^\/certification-details\//,
  );
  await screenshot(page, 'landing-no-javascript');
  await context.close();
});
