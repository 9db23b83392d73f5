import { z } from 'zod';
import { emailField, idField, mobileField, requiredText } from '../validation.js';
import { listFields, pagedList } from './paging.js';
import {
  ACCOUNT_NUMBER_FORMAT,
  aadharValid,
  BSR_FORMAT,
  GSTIN_FORMAT,
  gstinValid,
  IBAN_FORMAT,
  IFSC_FORMAT,
  MICR_FORMAT,
  PAN_FORMAT,
  STATE_CODE_FORMAT,
} from './trainer-formats.js';

export * from './trainer-formats.js';

/**
 * The trainer's own data (spec 02 §3 Trainer profile, Bank details, Trainer skill, Skill, Trainer
 * certificate, Trainer reference; §5 validation). Dates travel as 'YYYY-MM-DD'.
 */

export const TRAINER_MSG = {
  skillAdded: 'Skill added successfully!',
  profileUpdated: 'Profile updated successfully!',
  imageType: 'The file must be an image of type: png, jpg, jpeg.',
  skillTaken: 'This skill is already in your list.',
  skillNameTaken: 'The Name has already been taken.',
  skillInvalid: 'The selected skill id is invalid.',
  categoryInvalid: 'The selected category id is invalid.',
} as const;

/** Images of the profile and certificates: .png, .jpg, .jpeg, checked by content; at most 5 MB. */
export const TRAINER_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const TRAINER_IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;
export const EXPERIENCE_TYPES = ['Month', 'Year'] as const;
/** Rate per hour, in whole dollars (spec 02 §9: labelled in dollars per hour). */
export const RATE_MAX = 10_000;
/** Experience in a skill, in its unit (months or years). */
export const EXPERIENCE_MAX = 600;

const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const label = (f: string) => f.replace(/_/g, ' ');
const today = () => new Date().toISOString().slice(0, 10);
/** A real calendar day: '2025-02-30' is refused (Date.parse would roll it over). */
const isDay = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return DATE_ONLY.test(v) && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** An optional text field: blank reads as null. */
const optText = (max: number) =>
  z
    .preprocess(blank, z.string().trim().max(max).optional())
    .transform((v) => v ?? null)
    .optional()
    .transform((v) => v ?? null);

/** An optional upper-cased code with a format (and a check character, when `check` is given). */
const optCode = (field: string, format: RegExp, max = 40, check: (v: string) => boolean = () => true) =>
  z
    .preprocess(
      (v) => blank(typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : v),
      z
        .string()
        .max(max)
        .regex(format, { message: `The ${label(field)} format is invalid.`, abort: true })
        .refine(check, { message: `The ${label(field)} is not valid: check it for a mistyped character.` })
        .optional(),
    )
    .transform((v) => v ?? null);

/** A required upper-cased code with a format. */
const reqCode = (field: string, format: RegExp, max = 40) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : v),
    z
      .string({ error: () => `The ${label(field)} field is required.` })
      .min(1, { message: `The ${label(field)} field is required.`, abort: true })
      .max(max)
      .regex(format, { message: `The ${label(field)} format is invalid.` }),
  );

/** A day ('YYYY-MM-DD'), never after today when `notFuture`. */
const dayBase = (field: string, notFuture: boolean) =>
  z
    .string()
    .trim()
    .refine(isDay, { message: `The ${label(field)} is not a valid date.`, abort: true })
    .refine((v) => !notFuture || v <= today(), {
      message: `The ${label(field)} must be a date before or equal to today.`,
    });
const requiredDay = (field: string, notFuture: boolean) =>
  z.preprocess(
    blank,
    z.string({ error: () => `The ${label(field)} field is required.` }).pipe(dayBase(field, notFuture)),
  );
const optionalDay = (field: string, notFuture: boolean) =>
  z.preprocess(blank, dayBase(field, notFuture).optional()).transform((v) => v ?? null);

const optEmail = () => z.preprocess(blank, emailField().optional()).transform((v) => v ?? null);
const optMobile = () => z.preprocess(blank, mobileField().optional()).transform((v) => v ?? null);
const id = () => z.preprocess(blank, idField());

// ---------------------------------------------------------------- profile

/** The text fields of /update-trainer-profile (multipart; profile_pic and address_proof are images). */
export const trainerProfileFields = z.object({
  first_name: requiredText(100),
  last_name: requiredText(100),
  email: emailField(),
  email2: optEmail(),
  email3: optEmail(),
  mobile_no: mobileField(),
  mobile_no2: optMobile(),
  mobile_no3: optMobile(),
  base_location: optText(191),
  address: optText(1000),
  dob: optionalDay('dob', true),
  aadhar_no: z
    .preprocess(
      (v) => blank(typeof v === 'string' ? v.replace(/\s+/g, '') : v),
      z.string().refine(aadharValid, { message: 'The aadhar no is not a valid Aadhar number.' }).optional(),
    )
    .transform((v) => v ?? null),
  pan_no: optCode('pan_no', PAN_FORMAT, 10),
  GSTIN_no: optCode('GSTIN_no', GSTIN_FORMAT, 15, gstinValid),
  state_code: optCode('state_code', STATE_CODE_FORMAT, 2),
  MSME_reg_no: optCode('MSME_reg_no', /^[A-Z0-9-]{1,30}$/, 30),
  type_of_enterprise: optText(191),
  category_of_service: optText(191),
  services_rendered: optText(1000),
  vat_no: optCode('vat_no', /^[A-Z0-9-]{1,30}$/, 30),
  experience_over_all: z
    .preprocess(blank, z.coerce.number().int().min(0).max(70).optional())
    .transform((v) => v ?? null),
});
export type TrainerProfileFields = z.output<typeof trainerProfileFields>;

/** Documents the multipart form; the use case reads and checks the parts. */
export const trainerProfileUploadRequest = z.object(
  Object.fromEntries(
    [...Object.keys(trainerProfileFields.shape), 'profile_pic', 'address_proof'].map((k) => [
      k,
      z.unknown().optional(),
    ]),
  ),
);

export const trainerProfile = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  email2: z.string().nullable(),
  email3: z.string().nullable(),
  mobile_no: z.string(),
  mobile_no2: z.string().nullable(),
  mobile_no3: z.string().nullable(),
  base_location: z.string().nullable(),
  address: z.string().nullable(),
  dob: z.string().nullable(),
  aadhar_no: z.string().nullable(),
  pan_no: z.string().nullable(),
  GSTIN_no: z.string().nullable(),
  state_code: z.string().nullable(),
  MSME_reg_no: z.string().nullable(),
  type_of_enterprise: z.string().nullable(),
  category_of_service: z.string().nullable(),
  services_rendered: z.string().nullable(),
  vat_no: z.string().nullable(),
  experience_over_all: z.number().nullable(),
  /** data: URLs of the thumbnails, null when none was uploaded */
  profile_pic: z.string().nullable(),
  address_proof: z.string().nullable(),
});
export const trainerProfileResponse = z.object({ success: trainerProfile });

// ---------------------------------------------------------------- bank details

export const bankFields = {
  bank_name: requiredText(191),
  bank_address: optText(500),
  bank_account_name: requiredText(191),
  account_number: reqCode('account_number', ACCOUNT_NUMBER_FORMAT, 34),
  account_type: requiredText(50),
  ifsc_code: reqCode('ifsc_code', IFSC_FORMAT, 11),
  micr_code: optCode('micr_code', MICR_FORMAT, 9),
  iban_code: optCode('iban_code', IBAN_FORMAT, 34),
  bsr_code: optCode('bsr_code', BSR_FORMAT, 7),
};
export const bankRequest = z.object(bankFields);
export const updateBankRequest = z.object({ ...bankFields, id: id() });
export const bankDetails = z.object({
  id: z.number(),
  bank_name: z.string(),
  bank_address: z.string().nullable(),
  bank_account_name: z.string(),
  /** whole for its trainer and the admin on /get-bank-details; masked (XXXX1234) in lists */
  account_number: z.string(),
  account_type: z.string(),
  ifsc_code: z.string(),
  micr_code: z.string().nullable(),
  iban_code: z.string().nullable(),
  bsr_code: z.string().nullable(),
});
export const BANK_SORT_KEYS = ['bank_name', 'created_at'] as const;
/** The admin names the trainer; a trainer always reads their own. */
export const bankListRequest = z.object({
  trainer_id: z.preprocess(blank, idField().optional()),
  ...listFields(BANK_SORT_KEYS),
});
export const bankPage = pagedList(bankDetails);
export const bankResponse = z.object({ success: bankDetails });
/** The admin's list of every trainer's bank accounts (numbers masked; /get-bank-details shows one whole). */
export const ADMIN_BANK_SORT_KEYS = ['trainer_name', 'bank_name', 'created_at'] as const;
export const adminBankListRequest = z.object(listFields(ADMIN_BANK_SORT_KEYS));
export const adminBankRow = bankDetails.extend({
  trainer_id: z.number(),
  trainer_name: z.string(),
  trainer_email: z.string(),
});
export const adminBankPage = pagedList(adminBankRow);
export const recordRequest = z.object({ id: id() });
export const writeResponse = z.object({ message: z.string(), id: z.number().optional() });

// ---------------------------------------------------------------- skills

export const skill = z.object({ id: z.number(), name: z.string(), category_id: z.number() });
export const skillsRequest = z.object({ category_id: z.preprocess(blank, idField().optional()) });
export const skillList = z.object({ list: z.array(skill) });
export const createSkillRequest = z.object({ name: requiredText(100), category_id: id() });
export const skillCategory = z.object({ id: z.number(), name: z.string(), slug: z.string() });
export const skillCategoryList = z.object({ list: z.array(skillCategory) });

const skillFields = {
  category_id: id(),
  skill_id: id(),
  experience: z.preprocess(blank, z.coerce.number().int().min(0).max(EXPERIENCE_MAX)),
  type: z.preprocess(
    blank,
    z.enum(EXPERIENCE_TYPES, {
      error: (i) => (i.input === undefined ? 'The type field is required.' : 'The selected type is invalid.'),
    }),
  ),
  rate_per_hours: z.preprocess(blank, z.coerce.number().int().min(1).max(RATE_MAX)),
};
export const trainerSkillRequest = z.object(skillFields);
export const updateTrainerSkillRequest = z.object({ ...skillFields, id: id() });
export const trainerSkill = z.object({
  /** the trainer skill's id (also sent as id) */
  tsid: z.number(),
  id: z.number(),
  category_id: z.number(),
  skill_id: z.number(),
  cname: z.string(),
  sname: z.string(),
  experience: z.number(),
  type: z.enum(EXPERIENCE_TYPES),
  rate_per_hours: z.number(),
});
export const TRAINER_SKILL_SORT_KEYS = ['cname', 'sname', 'experience', 'rate_per_hours'] as const;
export const trainerSkillListRequest = z.object(listFields(TRAINER_SKILL_SORT_KEYS));
export const trainerSkillPage = pagedList(trainerSkill);
export const trainerSkillResponse = z.object({ success: trainerSkill });

// ---------------------------------------------------------------- certificates

export const certificateFields = z.object({
  skill_id: id(),
  certificate_name: requiredText(191),
  verify_link: z
    .preprocess(
      blank,
      z
        .string()
        .trim()
        .max(500)
        .pipe(z.url({ protocol: /^https?$/ }))
        .optional(),
    )
    .transform((v) => v ?? null),
  certify_date: requiredDay('certify_date', true),
  id: z.preprocess(blank, idField().optional()),
});
export const certificateUploadRequest = z.object({
  certificate_image: z.unknown().optional().describe('The certificate image (.png, .jpg, .jpeg); required on add.'),
  certificate_name: z.unknown().optional(),
  verify_link: z.unknown().optional(),
  skill_id: z.unknown().optional(),
  certify_date: z.unknown().optional(),
  id: z.unknown().optional().describe('Update only.'),
});
export const trainerCertificate = z.object({
  id: z.number(),
  skill_id: z.number(),
  /** the skill's name */
  name: z.string(),
  certificate_name: z.string(),
  /** data: URL of the thumbnail */
  certificate_image: z.string().nullable(),
  verify_link: z.string().nullable(),
  certify_date: z.string(),
});
export const CERTIFICATE_SORT_KEYS = ['certificate_name', 'certify_date', 'name'] as const;
export const certificateListRequest = z.object(listFields(CERTIFICATE_SORT_KEYS));
export const certificatePage = pagedList(trainerCertificate);
export const certificateResponse = z.object({ success: trainerCertificate });

// ---------------------------------------------------------------- references

const referenceFields = {
  skill_id: id(),
  company_name: requiredText(191),
  company_description: requiredText(2000),
  training_conducted_date: requiredDay('training_conducted_date', true),
};
export const referenceRequest = z.object(referenceFields);
export const updateReferenceRequest = z.object({ ...referenceFields, id: id() });
export const trainerReference = z.object({
  id: z.number(),
  skill_id: z.number(),
  name: z.string(),
  company_name: z.string(),
  company_description: z.string(),
  training_conducted_date: z.string(),
});
export const REFERENCE_SORT_KEYS = ['company_name', 'training_conducted_date', 'name'] as const;
export const referenceListRequest = z.object(listFields(REFERENCE_SORT_KEYS));
export const referencePage = pagedList(trainerReference);
export const referenceResponse = z.object({ success: trainerReference });

// ---------------------------------------------------------------- dashboard

export const trainerDashboardResponse = z.object({
  open_take_calls: z.array(
    z.object({ take_call_id: z.number(), name: z.string(), title: z.string(), start: z.string(), end: z.string() }),
  ),
  open_take_call_count: z.number(),
  assigned_trainings: z.array(
    z.object({
      name: z.string(),
      slug: z.string(),
      start_date: z.string(),
      end_date: z.string(),
      /** the next planned syllabus topic, if any */
      next_session: z.object({ session_topic: z.string(), start_time: z.string() }).nullable(),
    }),
  ),
  /** 0..100: share of the profile checklist that is filled */
  profile_completeness: z.number(),
  profile_missing: z.array(z.string()),
});
