import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Loads axe-core into the page through the DevTools protocol rather than a <script> tag: the
 * server's Content-Security-Policy (rightly) refuses inline scripts, and the checker must not need
 * the policy loosened.
 */
async function injectAxe(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
}

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
  await injectAxe(page);
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

/** Every WCAG 2.0 and 2.1 rule at levels A and AA. */
export const WCAG21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A finding we accept, with the reason a person reads in the code. */
export interface Exception extends KnownViolation {
  reason: string;
}

export interface Finding {
  rule: string;
  impact: string;
  targets: string[];
  summary: string;
}

/**
 * The one place that runs axe over a page for the accessibility walk: WCAG 2.0 and 2.1 A/AA rules,
 * only serious and critical findings, minus the listed exceptions (each scoped to a rule and a part
 * of the page, so anything else there still fails).
 */
export async function seriousFindings(page: Page, exceptions: readonly Exception[] = []): Promise<Finding[]> {
  await injectAxe(page);
  return page.evaluate(
    async ({ tags, known }) => {
      type Node = { target: string[]; failureSummary?: string; impact?: string | null };
      const axe = (
        window as unknown as {
          axe: {
            run: (
              ctx: Document,
              opts: unknown,
            ) => Promise<{ violations: { id: string; impact?: string | null; nodes: Node[] }[] }>;
          };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        // experimental in axe, so off unless asked: a control's name must contain its visible label (2.5.3)
        rules: { 'label-content-name-mismatch': { enabled: true } },
        resultTypes: ['violations'],
      });
      const isKnown = (rule: string, target: string[]) =>
        known.some(
          (k) => k.rule === rule && target.length === 1 && document.querySelector(target[0] ?? '')?.closest(k.within),
        );
      const out: { rule: string; impact: string; targets: string[]; summary: string }[] = [];
      for (const v of result.violations) {
        const nodes = v.nodes.filter(
          (n) => ['serious', 'critical'].includes(n.impact ?? v.impact ?? '') && !isKnown(v.id, n.target),
        );
        if (nodes.length === 0) continue;
        out.push({
          rule: v.id,
          impact: v.impact ?? 'serious',
          targets: nodes.map((n) => n.target.join(' ')),
          summary: nodes[0]?.failureSummary ?? '',
        });
      }
      return out;
    },
    { tags: WCAG21_AA_TAGS, known: exceptions.map(({ rule, within }) => ({ rule, within })) },
  );
}
