import type { attemptResult, attemptView, myAssessment, QuestionItem, resultsResponse } from '@trainlab/contract';
import type { z } from 'zod';

export type Question = QuestionItem;
export type Attempt = z.infer<typeof attemptView>;
export type AttemptResult = z.infer<typeof attemptResult>;
export type MyAssessment = z.infer<typeof myAssessment>;
export type Results = z.infer<typeof resultsResponse>;

export const TYPE_LABEL: Record<number, string> = { 1: 'Pre-assessment', 2: 'Post-assessment' };

/** 1800 → '30:00', 65 → '01:05' */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** What the screen reader hears at the set points of the countdown (not every second). */
export function timeAnnouncement(seconds: number): string | null {
  const points: Record<number, string> = {
    600: '10 minutes left.',
    300: '5 minutes left.',
    60: '1 minute left.',
    30: '30 seconds left.',
    10: '10 seconds left.',
  };
  return points[seconds] ?? null;
}
