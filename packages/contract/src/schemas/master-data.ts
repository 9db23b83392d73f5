import { z } from 'zod';
import { LEVELS } from '../lookups.js';
import { ALWAYS, idField, isWebUrl, optionalText, requiredText } from '../validation.js';
import { listFields } from './paging.js';

export * from './imports.js';

/** Admin master data (spec 02 §2 'Admin master data', §3, §9). */
export const CERTIFICATION_MASTER_TYPES = [
  'Exam',
  'RolesType',
  'CertificationType',
  'CertificationRoles',
  'Product',
] as const;
export type CertificationMasterType = (typeof CERTIFICATION_MASTER_TYPES)[number];
/** Levels of the certification forms (spec 02 §9; 'Advance' as spelt there). */
export const CERTIFICATION_LEVELS = ['Beginner', 'Intermediate', 'Advance'] as const;
/** Training courses use the lookup list of levels. */
export const TRAINING_COURSE_LEVELS = LEVELS;
export const DURATION_TYPES = ['Hours', 'Days', 'Weeks', 'Month', 'Year'] as const;
/** Service options; the first is labelled 'TRAINING (Per Hours)' on screen (spec 02 §9). */
export const SERVICE_OPTIONS = [
  'TRAINING (Per Day)',
  'POST-ASSESSMENT (Per Test)',
  'PRE-ASSESSMENT (Per Test)',
] as const;
export const SERVICE_OPTION_LABELS: Record<(typeof SERVICE_OPTIONS)[number], string> = {
  'TRAINING (Per Day)': 'TRAINING (Per Hours)',
  'POST-ASSESSMENT (Per Test)': 'POST-ASSESSMENT (Per Test)',
  'PRE-ASSESSMENT (Per Test)': 'PRE-ASSESSMENT (Per Test)',
};

// ---------------------------------------------------------------------------------------------
// field helpers (forms send strings; blank means "not given")

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** A required choice: missing or blank reads "required", anything else outside the list "The selected x is invalid." */
export const requiredChoice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.string().trim().min(1, { abort: true }).pipe(z.enum(values));

/** A required amount (price, cost): a number, string or numeric text, at least 0. */
export const amountField = (max = 1_000_000_000) => z.preprocess(blank, z.coerce.number().min(0).max(max));
/** An optional amount that defaults to 0 (recommended_experiance). */
export const optionalAmountField = (max = 1_000_000) =>
  z.preprocess(blank, z.coerce.number().min(0).max(max).optional()).transform((v) => v ?? 0);
/** A required duration: a number above 0. */
export const durationField = (field = 'duration') =>
  z.preprocess(
    blank,
    z.coerce
      .number()
      .gt(0, { message: `The ${field} must be greater than 0.` })
      .max(100_000),
  );
/** An optional numeric id: blank reads as null. */
export const optionalId = () => z.preprocess(blank, idField().optional()).transform((v) => v ?? null);
export const requiredId = () => z.preprocess(blank, idField());

const optionalUrl = (field: string) =>
  optionalText(2000).refine((v) => v === null || isWebUrl(v), {
    message: `The ${field} must be a valid URL.`,
  });

const optionalDate = (field: string) =>
  z
    .preprocess(
      blank,
      z
        .string()
        .trim()
        .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), {
          message: `The ${field} is not a valid date.`,
        })
        .optional(),
    )
    .transform((v) => v ?? null);

export const masterWriteResponse = z.object({
  message: z.string(),
  id: z.number().optional(),
  slug: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------
// categories

export const category = z.object({ id: z.number(), name: z.string(), slug: z.string() });
export const createCategoryRequest = z.object({ name: requiredText(150) });
/** `slug` is accepted because the old form sends it; the record is found by id and its slug never changes. */
export const updateCategoryRequest = z.object({ id: requiredId(), name: requiredText(150), slug: optionalText(200) });

// ---------------------------------------------------------------------------------------------
// certification master

const textPresent = (v: unknown) => typeof v === 'string' && v.trim() !== '';

export const certificationMasterItem = z.object({
  id: z.number(),
  type: z.enum(CERTIFICATION_MASTER_TYPES),
  name: z.string(),
  description: z.string().nullable(),
  overview: z.string().nullable(),
});
export const certificationMasterListRequest = z.object({
  type: z.preprocess(blank, z.enum(CERTIFICATION_MASTER_TYPES).optional()),
});
/** Name always; Exam also needs overview and description; RolesType needs description (spec 02 §5). */
export const createCertificationMasterRequest = z
  .object({
    type: requiredChoice(CERTIFICATION_MASTER_TYPES),
    name: requiredText(255),
    description: optionalText(10_000),
    overview: optionalText(10_000),
  })
  .refine((b) => !(b.type === 'Exam' || b.type === 'RolesType') || textPresent(b.description), {
    message: 'The description field is required.',
    path: ['description'],
    ...ALWAYS,
  })
  .refine((b) => b.type !== 'Exam' || textPresent(b.overview), {
    message: 'The overview field is required.',
    path: ['overview'],
    ...ALWAYS,
  });

// ---------------------------------------------------------------------------------------------
// certifications

/** Fields shared by the form and the Excel import (which names master items instead of ids). */
const certificationCommon = {
  name: requiredText(255),
  level: requiredChoice(CERTIFICATION_LEVELS),
  exam_link: optionalUrl('exam link'),
  product_link: optionalUrl('product link'),
  duration: optionalText(100),
  certification_description: requiredText(20_000),
  certification_prerequisites: optionalText(20_000),
  certification_details: optionalText(20_000),
  remark: optionalText(2000),
  cost_doller: amountField(),
  cost_inr: amountField(),
  recommended_experiance: optionalAmountField(100),
};

/**
 * The create/update form: certification_type, product, role, exam and certification_role are ids
 * of certification master items of type CertificationType, Product, RolesType, Exam and
 * CertificationRoles.
 */
export const certificationRequest = z.object({
  ...certificationCommon,
  certification_type: requiredId(),
  product: requiredId(),
  role: requiredId(),
  exam: requiredId(),
  certification_role: requiredId(),
});
export const updateCertificationRequest = certificationRequest.extend({ id: requiredId() });

/** One row of the certification Excel import: master items are named, not numbered. */
export const certificationImportRow = z.object({
  ...certificationCommon,
  certification_type: requiredText(255),
  product: requiredText(255),
  role: requiredText(255),
  exam: requiredText(255),
  certification_role: requiredText(255),
});

export const certification = z.object({
  id: z.number(),
  name: z.string(),
  level: z.string(),
  /** the CertificationType master name (AWS, Google, Microsoft, ...) */
  certification_type: z.string().nullable(),
  certification_type_id: z.number(),
  product: z.number(),
  product_name: z.string().nullable(),
  product_link: z.string().nullable(),
  role: z.number().nullable(),
  role_name: z.string().nullable(),
  exam: z.number().nullable(),
  exam_name: z.string().nullable(),
  exam_link: z.string().nullable(),
  duration: z.string().nullable(),
  /** the CertificationRoles master name */
  certification_role: z.string().nullable(),
  certification_role_id: z.number().nullable(),
  certification_description: z.string().nullable(),
  certification_prerequisites: z.string().nullable(),
  certification_details: z.string().nullable(),
  remark: z.string().nullable(),
  cost_doller: z.number(),
  cost_inr: z.number(),
  recommended_experience: z.number(),
  is_set: z.number(),
});
export const CERTIFICATION_SORT_KEYS = ['name', 'level', 'created_at'] as const;
/** The admin's certification list: paged and sorted; the search keeps its 200 characters for old clients. */
export const certificationListRequest = z.object({
  ...listFields(CERTIFICATION_SORT_KEYS),
  search: optionalText(200),
});
export const recordIdRequest = z.object({ id: requiredId() });
export const certificationResponse = z.object({ success: certification });

// ---------------------------------------------------------------------------------------------
// training courses, modules, topics

export const trainingTopic = z.object({ id: z.number(), name: z.string() });
export const trainingModule = z.object({
  id: z.number(),
  name: z.string(),
  course: z.number(),
  price: z.number(),
  duration: z.number(),
  topics: z.array(trainingTopic),
});
export const trainingCourse = z.object({
  id: z.number(),
  name: z.string(),
  category: z.number(),
  category_name: z.string(),
  level: z.string(),
  duration: z.number(),
  duration_type: z.string(),
  price: z.number(),
});
export const trainingCourseWithModules = trainingCourse.extend({ modules: z.array(trainingModule) });

export const createTrainingCourseRequest = z.object({
  name: requiredText(255),
  category: requiredId(),
  level: requiredChoice(TRAINING_COURSE_LEVELS),
  duration: durationField(),
  duration_type: requiredChoice(DURATION_TYPES),
  price: amountField(),
});
export const courseIdRequest = z.object({ course_id: requiredId() });
export const moduleIdRequest = z.object({ module_id: requiredId() });
export const topicIdRequest = z.object({ topic_id: requiredId() });
export const createTrainingModuleRequest = z.object({
  name: requiredText(255),
  course: requiredId(),
  price: amountField(),
  duration: durationField(),
});
export const createTrainingTopicRequest = z.object({
  course: requiredId(),
  module: requiredId(),
  topics: z.array(requiredText(255)).min(1).max(200),
});

// ---------------------------------------------------------------------------------------------
// services

export const service = z.object({
  id: z.number(),
  service: z.enum(SERVICE_OPTIONS),
  price: z.number(),
  valid_date: z.string().nullable(),
});
export const createServiceRequest = z.object({
  service: requiredChoice(SERVICE_OPTIONS),
  price: amountField(),
  valid_date: optionalDate('valid date'),
});
export const updateServiceRequest = createServiceRequest.extend({ id: requiredId() });
export const servicePrice = z.object({ service: z.enum(SERVICE_OPTIONS), price: z.number() });

// ---------------------------------------------------------------------------------------------
// VM pricing

export const vmPrice = z.object({
  id: z.number(),
  /** RAM in GB */
  memory: z.number(),
  virtual_cpu: z.number(),
  /** cloud price per hour */
  cl_linux_price: z.number(),
  cl_windows_price: z.number(),
  /** platform price per hour */
  linux: z.number(),
  windows: z.number(),
});
/** Pricing rows beside the monthly storage prices (per GB). */
export const pricingResponse = z.object({
  list: z.array(vmPrice),
  storage_price: z.number(),
  cl_storage_price: z.number(),
});
export const updateVmPricingRequest = z.object({
  id: requiredId(),
  linux: amountField(1_000_000),
  windows: amountField(1_000_000),
  storage: amountField(1_000_000),
  cl_linux: amountField(1_000_000),
  cl_windows: amountField(1_000_000),
  cl_storage: amountField(1_000_000),
});
