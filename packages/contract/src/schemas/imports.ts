import { z } from 'zod';
import { QUESTION_IMPORT_COLUMNS } from './assessments.js';
import { SYLLABUS_IMPORT_COLUMNS, TRAINING_USER_IMPORT_COLUMNS } from './trainings.js';

/**
 * Excel imports (one pipeline for the whole product). Each import names the header row it expects
 * and a sample row; /download-template {type} builds the .xlsx template from this registry.
 * Later imports (training users, syllabus, question bank, VM assignment) add their entry here.
 */
export interface ImportTemplate {
  /** Header names, row 1 of the sheet, in this order. Matching ignores case, spaces and dashes. */
  columns: readonly string[];
  /** One example row written under the header. */
  sample: Readonly<Record<string, string | number>>;
}

export const CERTIFICATION_IMPORT_COLUMNS = [
  'name',
  'level',
  'certification_type',
  'product',
  'role',
  'exam',
  'certification_role',
  'exam_link',
  'product_link',
  'duration',
  'certification_description',
  'certification_prerequisites',
  'certification_details',
  'remark',
  'cost_doller',
  'cost_inr',
  'recommended_experiance',
] as const;

export const IMPORT_TEMPLATES = {
  certification: {
    columns: CERTIFICATION_IMPORT_COLUMNS,
    sample: {
      name: 'AWS Certified Solutions Architect - Associate',
      level: 'Intermediate',
      certification_type: 'AWS',
      product: 'Amazon Web Services',
      role: 'Architect',
      exam: 'SAA-C03',
      certification_role: 'Solutions Architect',
      exam_link: 'https://aws.amazon.com/certification/certified-solutions-architect-associate/',
      product_link: 'https://aws.amazon.com/',
      duration: '130 minutes',
      certification_description: 'Validates the ability to design solutions on AWS.',
      certification_prerequisites: 'One year of hands-on experience with AWS.',
      certification_details: '65 questions, multiple choice and multiple response.',
      remark: '',
      cost_doller: 150,
      cost_inr: 12500,
      recommended_experiance: 1,
    },
  },
  'training-user': {
    columns: TRAINING_USER_IMPORT_COLUMNS,
    sample: { firstname: 'Asha', lastname: 'Verma', email: 'asha.verma@example.com', mobileno: '9876543210' },
  },
  'training-syllabus': {
    columns: SYLLABUS_IMPORT_COLUMNS,
    sample: { topic_name: 'Introduction', start_time: '2026-11-21T09:30:00Z', end_time: '2026-11-21T11:00:00Z' },
  },
  'question-bank': {
    columns: QUESTION_IMPORT_COLUMNS,
    sample: {
      language_identified: 'English',
      question_category: 'Kubernetes',
      question_type: 'Multiple choice',
      question: 'Which object runs one or more containers?',
      option1: 'Service',
      option2: 'Pod',
      option3: 'Ingress',
      option4: 'ConfigMap',
      correct_option: 2,
      level: 'Beginner',
    },
  },
} as const satisfies Record<string, ImportTemplate>;

export type ImportTemplateType = keyof typeof IMPORT_TEMPLATES;
export const IMPORT_TEMPLATE_TYPES = Object.keys(IMPORT_TEMPLATES) as [ImportTemplateType, ...ImportTemplateType[]];

/** Limits shared by every import. */
export const IMPORT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;

/** Multipart body of an import: the file part is named `file` (other fields per import). */
export const uploadRequest = z.object({
  file: z.unknown().optional().describe('The .xls or .xlsx file (multipart/form-data part named "file").'),
});
export const importResponse = z.object({ message: z.string(), count: z.number() });
/** 422 body of a failed import: no row is imported when any row fails. */
export const importErrors = z.object({
  errors: z.array(z.object({ row: z.number(), attribute: z.string(), errors: z.array(z.string()) })),
});

export const downloadTemplateRequest = z.object({
  type: z.string().trim().min(1, { abort: true }).pipe(z.enum(IMPORT_TEMPLATE_TYPES)),
});
