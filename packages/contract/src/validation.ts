import { z } from 'zod';
import { MSG } from './messages.js';

/**
 * Field-level validation in the shape clients of the old product expect: a 422 body with one key
 * per field and a list of messages, worded like the original server ("The first name field is
 * required."). Schemas stay plain zod; wording is decided here, once.
 */
export type FieldErrors = Record<string, string[]>;

const label = (field: string) => field.replace(/_/g, ' ');

function messageFor(issue: z.core.$ZodIssue, field: string, value: unknown): string {
  const name = label(field);
  // A message written into the schema (refine, custom) is used as is.
  if (issue.code === 'custom') return issue.message;
  if (issue.message && !issue.message.startsWith('Invalid') && !issue.message.startsWith('Too ')) {
    return issue.message;
  }
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined || value === null || value === '') return `The ${name} field is required.`;
      if (issue.expected === 'number' || issue.expected === 'int') return `The ${name} must be a number.`;
      if (issue.expected === 'array') return `The ${name} must be an array.`;
      if (issue.expected === 'boolean') return `The ${name} field must be true or false.`;
      return `The ${name} must be a string.`;
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? `The ${name} field is required.`
          : `The ${name} must be at least ${issue.minimum} characters.`;
      }
      if (issue.origin === 'array') {
        return Number(issue.minimum) <= 1
          ? `The ${name} field is required.`
          : `The ${name} must have at least ${issue.minimum} items.`;
      }
      return `The ${name} must be at least ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `The ${name} must not be greater than ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `The ${name} must not have more than ${issue.maximum} items.`;
      return `The ${name} must not be greater than ${issue.maximum}.`;
    case 'invalid_format':
      if (issue.format === 'email') return `The ${name} must be a valid email address.`;
      if (issue.format === 'url') return `The ${name} must be a valid URL.`;
      if (issue.format === 'datetime' || issue.format === 'date') return `The ${name} is not a valid date.`;
      return `The ${name} format is invalid.`;
    case 'invalid_value':
    case 'invalid_union':
      return `The selected ${name} is invalid.`;
    default:
      return `The ${name} is invalid.`;
  }
}

/** A NUL character anywhere in a string of `value` (PostgreSQL text cannot hold one). */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 8) return false;
  return Object.values(value).some((v) => holdsNul(v, depth + 1));
}

/**
 * 422 errors for the fields of `input` whose text holds a NUL character, or null when none does.
 * PostgreSQL cannot store the character, so such input is refused before it reaches a query.
 */
export function nulCharacterErrors(input: unknown): FieldErrors | null {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return holdsNul(input) ? { other_error: [MSG.givenDataInvalid] } : null;
  }
  const bag: FieldErrors = {};
  for (const [field, value] of Object.entries(input)) {
    if (holdsNul(value)) bag[field] = [`The ${label(field)} format is invalid.`];
  }
  return Object.keys(bag).length ? bag : null;
}

/** `input` is the body that was validated: a missing field reads as "required", not "wrong type". */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[], input?: unknown): FieldErrors {
  const bag: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'other_error';
    const list = bag[field] ?? [];
    const value = input && typeof input === 'object' ? (input as Record<string, unknown>)[field] : undefined;
    const message = messageFor(issue, field, value);
    if (!list.includes(message)) list.push(message);
    bag[field] = list;
  }
  return bag;
}

/** A required text field: missing, null and blank all read as "required" (as the old server did). */
/** A blank field (null, or only spaces) is an absent one: filters and forms send '' for "any". */
export const blankAsAbsent = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

export const requiredText = (max = 255) => z.string().trim().min(1, { abort: true }).max(max);
export const optionalText = (max = 2000) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));
/**
 * An http(s) address a server can fetch: one the WHATWG URL parser reads (as every fetch does), so a
 * malformed host such as `127.0.0.1%2509` is a field error and not a failure of the call that uses it.
 */
export function isWebUrl(value: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
export const emailField = () =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(191)
    .pipe(z.email())
    .transform((v) => v.toLowerCase());
export const mobileField = () =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .regex(/^\+?[0-9 ()-]{6,20}$/, { message: 'The mobile no must be a valid phone number.' });
/** Accepts 1/0, "1"/"0" and true/false, as the old clients send any of them. */
export const flag = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')])
    .transform((v) => v === true || v === 1 || v === '1');
/** Numeric ids arrive as numbers or numeric strings. */
export const idField = () => z.coerce.number().int().positive();

/**
 * Cross-field rules run even when another field already failed, so the client sees every error at
 * once (as the old server answered). The input may be partly invalid: rules must guard for that.
 */
export const ALWAYS = { when: () => true } as const;
