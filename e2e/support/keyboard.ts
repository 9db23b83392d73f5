import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has focus, as a keyboard user would; fails
 * when it is not reached within `max` presses (unreachable, or a trap). Never touches the mouse.
 */
export async function tabTo(page: Page, target: Locator, opts: { max?: number; backwards?: boolean } = {}) {
  await expect(target).toBeAttached();
  const max = opts.max ?? 80;
  for (let i = 0; i <= max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(opts.backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`not reached by ${max} presses of Tab: ${target}`);
}

/** Tabs to a field and types into it. */
export async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

/** Tabs to a button or link and presses Enter. */
export async function activate(page: Page, control: Locator) {
  await tabTo(page, control);
  await page.keyboard.press('Enter');
}
