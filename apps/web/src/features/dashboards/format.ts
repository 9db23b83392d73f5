/**
 * Figures of the dashboards' charts as people read them. Money arrives as integer paise and is turned
 * into rupees here, at the edge, and nowhere else; months arrive as 'YYYY-MM' (UTC).
 */

const groups = new Intl.NumberFormat('en-IN');

/** 49900 → '₹499', 7550 → '₹75.50' (paise shown only when there are any). */
export function formatPaise(paise: number): string {
  const sign = paise < 0 ? '−' : '';
  const abs = Math.abs(Math.round(paise));
  const rupees = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}₹${groups.format(rupees)}${rest ? `.${String(rest).padStart(2, '0')}` : ''}`;
}

/** The axis of a revenue chart: whole rupees, thousands and lakhs shortened (₹1.5L, ₹12K). */
export function formatPaiseShort(paise: number): string {
  const rupees = paise / 100;
  const abs = Math.abs(rupees);
  if (abs >= 100_000) return `₹${trim(rupees / 100_000)}L`;
  if (abs >= 1_000) return `₹${trim(rupees / 1_000)}K`;
  return `₹${trim(rupees)}`;
}
const trim = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1).replace(/\.0$/, ''));

const [yearMonthShort, yearMonthLong] = [
  new Intl.DateTimeFormat('en-GB', { month: 'short', year: '2-digit', timeZone: 'UTC' }),
  new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
];
const monthDate = (key: string) => new Date(`${key}-01T00:00:00.000Z`);
/** '2026-03' → 'Mar 26' (an axis tick) */
export const monthShort = (key: string) => yearMonthShort.format(monthDate(key));
/** '2026-03' → 'March 2026' (a table row, a summary) */
export const monthLong = (key: string) => yearMonthLong.format(monthDate(key));

export const percent = (n: number | null) => (n === null ? 'No attempts' : `${n}%`);

/** A long training name cut for an axis tick; the table shows it whole. */
export const shortName = (name: string, max = 14) => (name.length > max ? `${name.slice(0, max - 1)}…` : name);
