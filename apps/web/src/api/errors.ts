import { MSG } from '@trainlab/contract';

/** One row of an Excel import rejected by the server (api-conventions: 422 with `errors`). */
export interface RowError {
  row: number;
  attribute: string;
  errors: string[];
}

/** What a form shows for a failed call: a message under each field, and/or one at the top. */
export interface FormErrors {
  fields: Record<string, string>;
  other_error: string | null;
  rows: RowError[];
}

function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  return null;
}

function isRowErrors(value: unknown): value is RowError[] {
  return Array.isArray(value) && value.every((v) => v && typeof v === 'object' && 'row' in v);
}

/**
 * The error catalogue of spec 01 §8, in one place: every screen shows failed calls through this.
 * `status` 0 stands for a request that never got an answer (network down).
 */
export function mapApiError(status: number, body: unknown): FormErrors {
  const result: FormErrors = { fields: {}, other_error: null, rows: [] };
  switch (status) {
    case 422: {
      if (body && typeof body === 'object') {
        for (const [field, value] of Object.entries(body)) {
          if (field === 'errors' && isRowErrors(value)) {
            result.rows = value;
            continue;
          }
          const first = Array.isArray(value) ? value.find((v) => typeof v === 'string') : value;
          if (typeof first !== 'string') continue;
          if (field === 'other_error' || field === 'message') result.other_error = first;
          else result.fields[field] = first;
        }
      }
      if (!Object.keys(result.fields).length && !result.rows.length && !result.other_error) {
        result.other_error = MSG.givenDataInvalid;
      }
      return result;
    }
    case 405:
      result.other_error = MSG.methodNotAllowed;
      return result;
    case 500:
      result.other_error = MSG.internalError;
      return result;
    case 403:
      result.other_error = messageOf(body) ?? MSG.forbidden;
      return result;
    case 401:
      result.other_error = MSG.unauthenticated;
      return result;
    case 429:
      result.other_error = messageOf(body) ?? MSG.tooManyAttempts;
      return result;
    default:
      result.other_error = MSG.somethingWentWrong;
      return result;
  }
}

/** 'Row {row} {attribute} {errors}' as the import dialogs show it. */
export function formatRowError(row: RowError): string {
  return `Row ${row.row} ${row.attribute} ${row.errors.join(' ')}`;
}
