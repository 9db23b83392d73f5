import { expect, type Page, test } from '@playwright/test';
import { layoutFor } from '../../apps/web/src/app/layout-kind';
import { EXCALIDRAW_KNOWN, type Exception, seriousFindings } from '../support/axe';
import { watchPolicy } from '../support/csp';
import { demoParams, fillParams, type ParamValues } from '../support/route-params';
import { routesByRole, VISITORS, type Visitor } from '../support/routes-by-role';
import { DEMO_EMAIL, login } from '../support/session';

// Every route of every role, at a laptop's and a phone's width, against the WCAG 2.0 and 2.1 A/AA
// rules: any serious or critical finding fails, unless it is an exception listed here with its reason.
// The same walk fails on any Content-Security-Policy violation a route causes.
// One worker runs the tests one after another (playwright.config): one session per account.
// E2E_WALK_WIDTH=laptop or phone walks one width (npm test runs the two side by side).

const ALL_WIDTHS = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 360, height: 740 },
] as const;
const WIDTHS = ALL_WIDTHS.filter((w) => !process.env.E2E_WALK_WIDTH || w.name === process.env.E2E_WALK_WIDTH);

/** Findings we accept, each with why. */
const EXCEPTIONS: Exception[] = EXCALIDRAW_KNOWN.map((k) => ({
  ...k,
  reason: "Excalidraw's own editor UI (third party, @excalidraw/excalidraw): see EXCALIDRAW_KNOWN",
}));

/**
 * The pages of the public frame look the same to everyone: the anonymous walk checks them, and a
 * signed-in role walks the rest of its routes (its own screens and the open ones inside its frame).
 */
function walkOf(visitor: Visitor): string[] {
  const all = routesByRole()[visitor];
  return visitor === 'anonymous' ? all : all.filter((p) => layoutFor(p) !== 'public');
}

/**
 * Calls a route may have refused with 403 on the demo data, each a state of the record, not of the
 * caller's role. Any other 403 means a role opened a screen whose calls it may not make (decision
 * 0052: such a role goes to its counterpart or to /not-authorized before the screen loads).
 */
const REFUSALS_OF_STATE: { route: RegExp; call: string; reason: string }[] = [
  { route: /^\/public\/conference\//, call: 'get-meeting-status', reason: "'This training is not public.'" },
  { route: /^\/certificate\//, call: 'lpu/download-certificate', reason: 'certificate download not enabled yet' },
  { route: /^\/end-meeting\//, call: 'end-meeting', reason: 'leaves for the home screen whatever the answer' },
];

const LOADING = '[role="status"]:has(.mantine-Loader-root), [role="status"][aria-label="Loading…"]';

/**
 * Waits for the screen to settle: the same address, a heading and no loading indicator over three
 * looks 250 ms apart (pages that redirect, such as /end-meeting, move on before they settle).
 */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  let last = '';
  let steady = 0;
  for (let i = 0; i < 60 && steady < 3; i++) {
    await page.waitForTimeout(250);
    const now = `${page.url()} ${await page.locator('h1').count()} ${await page.locator(LOADING).count()}`;
    const ready = (await page.locator('h1').count()) > 0 && (await page.locator(LOADING).count()) === 0;
    steady = ready && now === last ? steady + 1 : 0;
    last = now;
  }
}

let params: ParamValues;

test.beforeAll(async ({ request }) => {
  params = await demoParams(request);
});

for (const visitor of VISITORS) {
  for (const size of WIDTHS) {
    test(`${visitor} at ${size.width} px: no serious or critical WCAG 2.1 AA finding on any route`, async ({
      page,
    }) => {
      const routes = walkOf(visitor);
      test.setTimeout(60_000 + routes.length * 12_000);
      const violations = await watchPolicy(page.context());
      let current = '';
      const refused: string[] = [];
      // each call is the route's that was open when it was asked (a late answer may arrive after the next goto)
      const askedOn = new WeakMap<object, string>();
      page.on('request', (r) => askedOn.set(r, current));
      page.on('response', (r) => {
        const { pathname } = new URL(r.url());
        if (r.status() !== 403 || !pathname.startsWith('/api/')) return;
        const call = pathname.slice('/api/'.length);
        const route = askedOn.get(r.request()) ?? current;
        if (REFUSALS_OF_STATE.some((e) => e.route.test(route) && e.call === call)) return;
        refused.push(`${route} [403] ${call}: a screen this role opens makes a call it may not`);
      });
      await page.setViewportSize({ width: size.width, height: size.height });
      if (visitor !== 'anonymous') {
        await login(page, DEMO_EMAIL[visitor]);
        await expect(page).not.toHaveURL(/\/login$/, { timeout: 15_000 });
      }
      const problems: string[] = [];
      for (const pattern of routes) {
        const path = fillParams(pattern, params);
        current = path;
        await page.goto(path);
        await settle(page);
        const landed = new URL(page.url()).pathname;
        const where = landed === path ? path : `${path} → ${landed}`;
        const h1s = await page.locator('h1').count();
        if (h1s !== 1) problems.push(`${where}: ${h1s} h1 elements (one per page)`);
        for (const f of await seriousFindings(page, EXCEPTIONS)) {
          problems.push(`${where} [${f.impact}] ${f.rule}: ${f.targets.slice(0, 4).join(' | ')} — ${f.summary}`);
        }
      }
      for (const v of violations) problems.push(`${new URL(v.page).pathname} [policy] ${v.what}`);
      problems.push(...refused);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
}
