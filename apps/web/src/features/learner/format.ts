import dayjs from 'dayjs';

/** '21 Nov 2026, 09:30 AM' for an ISO date-time; '—' when there is none. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const d = dayjs(value);
  return d.isValid() ? d.format('DD MMM YYYY, hh:mm A') : value;
}

/** '21 Nov 2026' for an ISO date; '—' when there is none. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const d = dayjs(value);
  return d.isValid() ? d.format('DD MMM YYYY') : value;
}

/** The learner-side conference window of a training. */
export const conferencePath = (slug: string) => `/conference/${encodeURIComponent(slug)}`;
export const trainingDetailsPath = (slug: string) => `/user/training-details/${encodeURIComponent(slug)}`;
export const certificatePath = (slug: string) => `/certificate/${encodeURIComponent(slug)}`;
export const verifyPath = (ref: string) => `/certificate/verify/${encodeURIComponent(ref)}`;
