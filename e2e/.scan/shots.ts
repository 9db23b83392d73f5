import { chromium } from 'playwright';
import { CHROMIUM } from '../support/browser';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../support/session';
const BASE = process.env.BASE ?? 'http://localhost:3999';
const list = JSON.parse(process.env.SHOTS!) as [string, string][];
const browser = await chromium.launch(CHROMIUM);
const byRole = new Map<string, string[]>();
for (const [r, p] of list) byRole.set(r, [...(byRole.get(r) ?? []), p]);
for (const [role, paths] of byRole) {
  const ctx = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  if (role !== 'anonymous') {
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(DEMO_EMAIL[role as 'admin']);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /^login$/i }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
  }
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.waitForTimeout(500);
    const file = `/tmp/shots/${role}${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
    await page.screenshot({ path: file });
    console.log(file, page.url());
  }
  await ctx.close();
}
await browser.close();
