import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type * as XLSXTypes from 'xlsx';
import type { TestApp } from './helpers';

const XLSX = createRequire(import.meta.url)('xlsx') as typeof XLSXTypes;

export const day = 24 * 3600_000;
export const inDays = (n: number) => new Date(Date.now() + n * day).toISOString();

export const trainingBody = (over: Record<string, unknown> = {}) => ({
  name: 'Kubernetes Basics',
  start_date: inDays(2),
  end_date: inDays(5),
  total_training_day: 3,
  number_of_participants: 10,
  description: 'Pods, services and deployments.',
  requirements: ['A laptop', '  ', 'Docker installed'],
  ...over,
});

/** Creates a training as `token`; returns its id, slug and link. */
export async function makeTraining(t: TestApp, token: string, over: Record<string, unknown> = {}) {
  const res = await t.post('create-training', trainingBody(over), token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; slug: string; link: string; cost: number };
}

/** An .xlsx with these rows (the first one the header). */
export function book(rows: (string | number | null)[][]): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, sheet, 'Sheet1');
  // deflated, with shared strings, as Excel saves a workbook
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true, bookSST: true }) as Buffer;
}

export const person = (n: number | string, over: Record<string, unknown> = {}) => ({
  first_name: `Learner${n}`,
  last_name: 'Test',
  email: `learner${n}-${Math.random().toString(36).slice(2, 8)}@example.test`,
  mobile_no: '9876543210',
  ...over,
});
