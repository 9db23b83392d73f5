import { randomBytes } from 'node:crypto';
import { TRAINER_IMAGE_MAX_BYTES, TRAINER_MSG } from '@trainlab/contract';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../platform/errors';
import type { FileStore } from '../../platform/ports/files';

/**
 * Trainer pictures (profile picture, address proof, certificate images): .png, .jpg or .jpeg by
 * name AND by content (sharp reads the header), at most TRAINER_IMAGE_MAX_BYTES; a 240 px JPEG
 * thumbnail is kept beside the original so lists embed it without fetching the full image.
 */

export interface ImageForm {
  fields: Record<string, string>;
  /** image parts by field name (only the names asked for) */
  images: Record<string, Buffer>;
  /**
   * an image field's error (not .png/.jpg/.jpeg by name or content): the caller adds the other
   * fields' errors and answers them all in one 422, so a form is not corrected one error per submit
   */
  errors: Record<string, string[]>;
}

/** sharp (libvips) loads with the first picture, not at start. */
const sharpLib = async () => (await import('sharp')).default;

const NAME = /\.(png|jpe?g)$/i;
const THUMB_PX = 240;

/**
 * Reads a multipart form with up to `imageFields.length` images; a JSON body gives no images. A
 * picture of the wrong type is reported in `errors`; only a body that cannot be read whole (too
 * large, cut off) throws at once.
 */
export async function readImageForm(request: FastifyRequest, imageFields: readonly string[]): Promise<ImageForm> {
  const form: ImageForm = { fields: {}, images: {}, errors: {} };
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(body)) {
      if (typeof v === 'string' || typeof v === 'number') form.fields[k] = String(v);
    }
    return form;
  }
  const errors = form.errors;
  try {
    for await (const part of request.parts({
      limits: { fileSize: TRAINER_IMAGE_MAX_BYTES, files: imageFields.length, fields: 40, parts: 45 },
    })) {
      if (part.type === 'file') {
        if (!imageFields.includes(part.fieldname) || form.images[part.fieldname]) {
          part.file.resume();
          continue;
        }
        const data = await part.toBuffer();
        if (data.length === 0) continue;
        if (!NAME.test(part.filename ?? '')) errors[part.fieldname] = [TRAINER_MSG.imageType];
        else form.images[part.fieldname] = data;
      } else if (typeof part.value === 'string' || typeof part.value === 'number') {
        form.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    const field = imageFields[0]!;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ValidationError({
        [field]: [
          `The ${field.replace(/_/g, ' ')} must not be greater than ${TRAINER_IMAGE_MAX_BYTES / 1024} kilobytes.`,
        ],
      });
    }
    throw new ValidationError({ [field]: [TRAINER_MSG.imageType] });
  }
  for (const [field, data] of Object.entries(form.images)) {
    if (!(await isImage(data))) {
      errors[field] = [TRAINER_MSG.imageType];
      delete form.images[field];
    }
  }
  return form;
}

async function isImage(data: Buffer): Promise<boolean> {
  const sharp = await sharpLib();
  try {
    const meta = await sharp(data).metadata();
    return (meta.format === 'png' || meta.format === 'jpeg') && !!meta.width && !!meta.height;
  } catch {
    return false;
  }
}

/** Stores the original and its thumbnail under `prefix`; answers both keys. */
export async function storeImage(
  files: FileStore,
  prefix: string,
  data: Buffer,
): Promise<{ key: string; thumbKey: string }> {
  const id = randomBytes(8).toString('hex');
  const sharp = await sharpLib();
  const meta = await sharp(data).metadata();
  const key = `${prefix}/${id}.${meta.format === 'png' ? 'png' : 'jpg'}`;
  const thumbKey = `${prefix}/${id}-thumb.jpg`;
  const thumb = await sharp(data)
    .rotate()
    .resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 75 })
    .toBuffer();
  await files.put(key, data);
  await files.put(thumbKey, thumb);
  return { key, thumbKey };
}

/** The thumbnail as a data: URL, or null when there is none (or it went missing). */
export async function thumbDataUrl(files: FileStore, key: string | null): Promise<string | null> {
  if (!key) return null;
  try {
    const chunks: Buffer[] = [];
    for await (const c of await files.read(key)) chunks.push(c as Buffer);
    return `data:image/jpeg;base64,${Buffer.concat(chunks).toString('base64')}`;
  } catch {
    return null;
  }
}

export async function deleteImages(files: FileStore, ...keys: (string | null | undefined)[]): Promise<void> {
  for (const k of keys) if (k) await files.delete(k);
}
