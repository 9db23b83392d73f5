import multipart from '@fastify/multipart';
import { IMPORT_MAX_FILE_BYTES, MSG, nulCharacterErrors } from '@trainlab/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../errors';

/**
 * multipart/form-data for upload calls: one file of at most 5 MB, a few small text fields.
 * Registered once on the root instance; calls read the parts themselves with `readUpload`.
 */
export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: {
      fileSize: IMPORT_MAX_FILE_BYTES,
      files: 1,
      fields: 20,
      parts: 25,
      fieldSize: 64 * 1024,
      headerPairs: 100,
    },
  });
}

export interface Upload {
  /** the part named `file` (null when absent or empty) */
  file: Buffer | null;
  filename: string;
  /** the text fields sent beside it */
  fields: Record<string, string>;
}

/** What each request uploaded (its file's name and text fields), for the audit row of an import. */
const uploads = new WeakMap<FastifyRequest, Omit<Upload, 'file'>>();

export function uploadOf(request: FastifyRequest): Omit<Upload, 'file'> | undefined {
  return uploads.get(request);
}

/** Kept for the audit row by every reader of a form with a file. */
export function rememberUpload(request: FastifyRequest, upload: Omit<Upload, 'file'>): void {
  uploads.set(request, upload);
}

const fileError = (message: string) => new ValidationError({ file: [message] });

/**
 * Reads a multipart upload. A JSON body or a form without a `file` part gives `file: null`
 * (the import answers 'The file field is required.'). Too large a file, a second file or a broken
 * form is a 422 on `file`.
 */
export async function readUpload(request: FastifyRequest, maxBytes = IMPORT_MAX_FILE_BYTES): Promise<Upload> {
  const upload: Upload = { file: null, filename: '', fields: {} };
  if (!request.isMultipart()) return upload;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || upload.file) {
          part.file.resume();
          continue;
        }
        const data = await part.toBuffer();
        upload.file = data.length > 0 ? data : null;
        upload.filename = part.filename ?? '';
      } else if (typeof part.value === 'string' || typeof part.value === 'number' || typeof part.value === 'boolean') {
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw fileError(`The file must not be greater than ${Math.floor(maxBytes / 1024)} kilobytes.`);
    }
    if (code === 'FST_FILES_LIMIT') throw fileError('Only one file may be uploaded.');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw fileError('The form has too many fields.');
    throw fileError(MSG.fileUnreadable);
  }
  const nul = nulCharacterErrors(upload.fields);
  if (nul) throw new ValidationError(nul);
  rememberUpload(request, { filename: upload.filename, fields: upload.fields });
  return upload;
}
