// ad-hoc: every route of every role, recording API answers >= 400 and console errors
import { chromium, request as pwRequest } from 'playwright';
import { CHROMIUM } from '../support/browser';
import { demoParams, fillParams } from '../support/route-params';
import { routesByRole, VISITORS } from '../support/routes-by-role';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../support/session';

const BASE = process.env.BASE ?? 'http://localhost:3999';
const only = process.env.ROLES?.split(',');
const ctxReq = await pwRequest.newContext({ baseURL: BASE });
const params = await demoParams(ctxReq as never);
const browser = await chromium.launch(CHROMIUM);
for (const visitor of VISITORS) {
  if (only && !only.includes(visitor)) continue;
  const ctx = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  let current = '';
  const issues: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) issues.push(`${current}: ${r.status()} ${new URL(r.url()).pathname} ${r.request().postData()?.slice(0, 80) ?? ''}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') issues.push(`${current}: console ${m.text().slice(0, 160)}`);
  });
  page.on('pageerror', (e) => issues.push(`${current}: pageerror ${e.message.slice(0, 160)}`));
  if (visitor !== 'anonymous') {
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(DEMO_EMAIL[visitor]);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /^login$/i }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
  }
  for (const pattern of routesByRole()[visitor]) {
    const path = fillParams(pattern, params);
    current = path;
    await page.goto(path);
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.waitForTimeout(300);
  }
  console.log(`== ${visitor}: ${routesByRole()[visitor].length} routes`);
  for (const i of issues) console.log('  ' + i);
  await ctx.close();
}
await browser.close();
