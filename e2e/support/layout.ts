import type { Page } from '@playwright/test';

/**
 * Elements inside the main region whose content is wider than their box while the box hides the
 * overflow: a column cut off. A box that scrolls (overflow auto/scroll) is not counted, and neither
 * is the page itself being wider than the screen, which is checked apart.
 */
export async function clippedInMain(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of Array.from(document.querySelectorAll('main *'))) {
      const style = getComputedStyle(el);
      if (!['hidden', 'clip'].includes(style.overflowX)) continue;
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        found.push(
          `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} ${el.scrollWidth}>${el.clientWidth}`,
        );
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      found.push(`page ${document.documentElement.scrollWidth}>${window.innerWidth}`);
    }
    return found;
  });
}
