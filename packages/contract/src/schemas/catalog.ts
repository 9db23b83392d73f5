import { z } from 'zod';
import { blankAsAbsent, requiredText } from '../validation.js';
import { certification } from './master-data.js';
import { listFields, pagedList } from './paging.js';

/**
 * The public catalogue (spec 01 §2 public site): trending courses and certifications, their search
 * and their own pages. Money on the wire is rupees (`amount`, `price`) beside the exact integer paise.
 */

/** Certification type filter of /certifications (spec 02 §9): default AWS. */
export const CERTIFICATION_TYPE_FILTERS = ['AWS', 'Google', 'Microsoft', 'All'] as const;

const blank = blankAsAbsent;
const rupees = () => z.preprocess(blank, z.coerce.number().min(0).max(100_000_000).optional());

export const catalogueCourse = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  /** rupees */
  amount: z.number(),
  amount_paise: z.number().int(),
  /** the provider or organization that offers it */
  offered_by: z.string().nullable(),
});
export type CatalogueCourse = z.infer<typeof catalogueCourse>;
export type CatalogueCertification = z.infer<typeof certification>;

/** `list` is what the spec's clients read (the courses, certifications beside it); `courses` is the same list. */
export const homeTrainingsResponse = z.object({
  list: z.array(catalogueCourse),
  courses: z.array(catalogueCourse),
  certifications: z.array(certification),
});

/** One module of a catalogue course as its public page shows it (titles and length, never the videos). */
export const catalogueModule = z.object({
  id: z.number(),
  name: z.string(),
  topics: z.array(z.object({ name: z.string(), duration_seconds: z.number().int().nullable() })),
});
export const catalogueCourseRequest = z.object({ slug: requiredText(191) });
/** The public course page: the card's fields, its modules, and whether the caller already has it. */
export const catalogueCourseDetails = catalogueCourse.extend({
  modules: z.array(catalogueModule),
  /** the signed-in caller already has the course (bought or assigned); false for a visitor */
  owned: z.boolean(),
});
export type CatalogueCourseDetails = z.infer<typeof catalogueCourseDetails>;

export const COURSE_SORTS = ['name', 'amount', 'created_at'] as const;
export const searchCoursesRequest = z.object({
  ...listFields(COURSE_SORTS),
  min_price: rupees(),
  max_price: rupees(),
});
export const coursePage = pagedList(catalogueCourse);

export const CERTIFICATION_SORTS = ['name', 'cost_inr', 'level'] as const;
export const searchCertificationsRequest = z.object({
  ...listFields(CERTIFICATION_SORTS),
  certification_type: z.preprocess(blank, z.enum(CERTIFICATION_TYPE_FILTERS).default('AWS')),
  level: z.preprocess(blank, z.string().trim().max(50).optional()),
  min_price: rupees(),
  max_price: rupees(),
});
export const certificationPage = pagedList(certification);
