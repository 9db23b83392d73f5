import type { CatalogueCertification, CatalogueCourse } from '@trainlab/contract';
import type { Deps } from '../../platform/deps';
import { cachedHome } from './home-cache';

/**
 * The landing as plain HTML inside <noscript>, put into the app's shell by the server: a visitor
 * without JavaScript (or a crawler) reads the same headline, the trending courses and the
 * certifications with working links. Browsers that run the app never render it, so it moves nothing
 * on the page (no layout shift) and needs no style or script of its own.
 */
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const inr = (rupees: number) =>
  `₹${rupees.toLocaleString('en-IN', { minimumFractionDigits: Number.isInteger(rupees) ? 0 : 2, maximumFractionDigits: 2 })}`;

export function landingNoscript(home: { courses: CatalogueCourse[]; certifications: CatalogueCertification[] }) {
  const courses = home.courses.map(
    (c) =>
      `<li><a href="/course-details/${encodeURIComponent(c.slug)}">${escapeHtml(c.name)}</a> — ${inr(c.amount)}${
        c.offered_by ? `, offered by ${escapeHtml(c.offered_by)}` : ''
      }</li>`,
  );
  const certifications = home.certifications.map(
    (c) =>
      `<li><a href="/certification-details/${Buffer.from(String(c.id)).toString('base64')}">${escapeHtml(c.name)}</a></li>`,
  );
  return [
    '<noscript><main>',
    '<h1>Trainings, courses and cloud labs in one place</h1>',
    '<p>TrainLab brings live instructor-led trainings, recorded courses, assessments and browser-based virtual machines together for learners, learning providers and organizations.</p>',
    '<p>Signing in, the cart and the labs need JavaScript turned on.</p>',
    '<p><a href="/register">Get started</a> · <a href="/courses">Browse courses</a> · <a href="/certifications">Certifications</a> · <a href="/login">Login</a></p>',
    `<section><h2>Trending Courses</h2>${courses.length ? `<ul>${courses.join('')}</ul>` : '<p>New courses are published regularly. Check back soon.</p>'}</section>`,
    `<section><h2>Certifications</h2>${certifications.length ? `<ul>${certifications.join('')}</ul>` : '<p>Certification tracks will appear here.</p>'}</section>`,
    '</main></noscript>',
  ].join('');
}

/** The landing's routes: the app's shell with the landing's HTML for those who do not run it. */
export const LANDING_PATHS = new Set(['/', '/training-home']);

/**
 * The page for each value of the cached trending lists, built once: the lists change at most every
 * 10 s (cachedHome), and formatting a dozen prices in Indian notation on every visit cost more than
 * the whole rest of the request.
 */
const pages = new WeakMap<object, Map<Buffer, string>>();

export async function landingShell(deps: Deps, shell: Buffer): Promise<string> {
  let home: Awaited<ReturnType<typeof cachedHome>>;
  try {
    home = await cachedHome(deps);
  } catch {
    // the database did not answer: the app still loads and shows its own error state
    return shell.toString('utf8');
  }
  let byShell = pages.get(home);
  if (!byShell) {
    byShell = new Map();
    pages.set(home, byShell);
  }
  let page = byShell.get(shell);
  if (page === undefined) {
    page = shell.toString('utf8').replace('</body>', `${landingNoscript(home)}</body>`);
    byShell.set(shell, page);
  }
  return page;
}
