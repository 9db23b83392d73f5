import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_SOURCE = require.resolve('axe-core/axe.min.js');

/** A violation that is not ours to fix: rule `rule` on nodes inside `within` (a CSS selector). */
export interface KnownViolation {
  rule: string;
  within: string;
}

/**
 * Issues of Excalidraw's own editor UI (the whiteboard, @excalidraw/excalidraw 0.18.1), which the
 * package renders and we cannot change:
 * - button-name: its main-menu (hamburger) button has an icon and no accessible name;
 * - aria-allowed-attr: a Radix popover trigger of its toolbar is a div carrying aria-expanded.
 * Only these rules, and only inside the editor: anything else there still fails.
 */
export const EXCALIDRAW_KNOWN: KnownViolation[] = [
  { rule: 'button-name', within: '.excalidraw' },
  { rule: 'aria-allowed-attr', within: '.excalidraw' },
];

/** WCAG 2 A/AA violations on the current page, as readable lines (empty when the page passes). */
export async function axeViolations(page: Page, opts: { known?: KnownViolation[] } = {}): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate(async (known) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: unknown,
          ) => Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    const isKnown = (rule: string, target: string[]) =>
      known.some(
        (k) => k.rule === rule && target.length === 1 && document.querySelector(target[0] ?? '')?.closest(k.within),
      );
    return result.violations
      .map((v) => ({ ...v, nodes: v.nodes.filter((n) => !isKnown(v.id, n.target)) }))
      .filter((v) => v.nodes.length > 0);
  }, opts.known ?? []);
  return violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(' | ')}`,
  );
}
