import { z } from 'zod';

/**
 * The dashboards' charts (issue 32 item 15): figures over time and per training, for the admin (the
 * whole platform) and for a manager (the caller's tenant). Months are calendar months in UTC, keyed
 * 'YYYY-MM'. A monthly series holds the last 12 months, oldest first, zeros included, or is empty
 * when nothing at all happened in those 12 months. Money is integer paise; the screen formats rupees.
 */
const count = z.number().int().nonnegative();
export const monthKey = z.string().regex(/^\d{4}-\d{2}$/);

export const enrolmentMonth = z.object({
  month: monthKey,
  /** learners enrolled in live trainings that month */
  trainings: count,
  /** learners enrolled in recorded courses that month (assigned or bought) */
  courses: count,
});

export const revenueMonth = z.object({
  month: monthKey,
  /** successful payments of that month, refunds taken off, in rupees (api-conventions) */
  amount: z.number(),
  /** the same in integer paise, exact */
  amount_paise: z.number().int(),
});

/** The latest trainings that have started (at most 10, oldest first). */
export const trainingAttendance = z.object({
  slug: z.string(),
  name: z.string(),
  start_date: z.string(),
  enrolled: count,
  /** enrolled learners who joined the training at least once */
  joined: count,
  /** minutes attended, all learners together */
  minutes: count,
});

/** Average score (percent, one decimal) of each learner's latest submitted attempt; null when none. */
export const assessmentGain = z.object({
  slug: z.string(),
  name: z.string(),
  start_date: z.string(),
  pre_percent: z.number().nullable(),
  post_percent: z.number().nullable(),
  pre_learners: count,
  post_learners: count,
});

export const dashboardChartsResponse = z.object({
  enrolments: z.array(enrolmentMonth),
  revenue: z.array(revenueMonth),
  attendance: z.array(trainingAttendance),
  assessment_gain: z.array(assessmentGain),
});

export type DashboardCharts = z.infer<typeof dashboardChartsResponse>;
export type EnrolmentMonth = z.infer<typeof enrolmentMonth>;
export type RevenueMonth = z.infer<typeof revenueMonth>;
export type TrainingAttendance = z.infer<typeof trainingAttendance>;
export type AssessmentGain = z.infer<typeof assessmentGain>;
