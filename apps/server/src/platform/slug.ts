import { randomBytes } from 'node:crypto';

/** URL-safe, stable, unique enough without a round trip: readable stem plus a random suffix. */
export function makeSlug(...parts: string[]): string {
  const stem = parts
    .join(' ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${stem || 'item'}-${randomBytes(4).toString('hex')}`;
}
