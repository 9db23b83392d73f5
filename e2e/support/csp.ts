import type { BrowserContext, Page } from '@playwright/test';

export interface Violation {
  page: string;
  what: string;
}

/**
 * Records every Content-Security-Policy violation of the context's pages: the DOM's
 * securitypolicyviolation events and the console errors Chromium writes for blocked loads.
 */
export async function watchPolicy(context: BrowserContext): Promise<Violation[]> {
  const seen: Violation[] = [];
  await context.exposeBinding('__cspViolation', ({ page }, what: string) => {
    seen.push({ page: page.url(), what });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation: (what: string) => void }).__cspViolation;
      void report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const watchPage = (page: Page) =>
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy|Content-Security-Policy/i.test(msg.text())) {
        seen.push({ page: page.url(), what: msg.text() });
      }
    });
  for (const page of context.pages()) watchPage(page);
  context.on('page', watchPage);
  return seen;
}
