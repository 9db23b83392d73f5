import { certificationImportRow, IMPORT_TEMPLATES, MSG } from '@trainlab/contract';
import type { FastifyRequest } from 'fastify';
import { certificationMasters, certifications } from '../../db/schema';
import { insertChunked } from '../../platform/db/insert-chunked';
import type { Deps } from '../../platform/deps';
import { readUpload, streamImport } from '../../platform/excel';
import {
  certificationValues,
  invalidChoice,
  MASTER_FIELD_NAMES,
  MASTER_FIELDS,
  type MasterField,
} from './certifications-repo';

/**
 * /upload-certification-master: certifications from Excel. Master items are named in the sheet
 * (matched case-insensitively within their type; a numeric id of the right type also works).
 * The rows are checked and written batch by batch in one transaction: all rows or none.
 */
export async function importCertifications(deps: Deps, request: FastifyRequest, timeoutMs?: number) {
  const upload = await readUpload(request, deps.config.IMPORT_MAX_FILE_BYTES);
  // the master lists are short: read once, before the file
  const masters = await deps.db
    .select({ id: certificationMasters.id, type: certificationMasters.type, name: certificationMasters.name })
    .from(certificationMasters);
  const byName = new Map(masters.map((m) => [`${m.type}\u0000${m.name.toLowerCase()}`, m.id]));
  const byId = new Map(masters.map((m) => [m.id, m.type]));
  const resolve = (field: MasterField, value: string): number | undefined => {
    const type = MASTER_FIELDS[field];
    const named = byName.get(`${type}\u0000${value.toLowerCase()}`);
    if (named !== undefined) return named;
    const id = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    return byId.get(id) === type ? id : undefined;
  };

  const count = await streamImport(
    {
      maxRows: deps.config.IMPORT_MAX_ROWS,
      file: upload.file,
      filename: upload.filename,
      schema: certificationImportRow,
      columns: IMPORT_TEMPLATES.certification.columns,
      timeoutMs,
    },
    (rows) =>
      deps.db.transaction(async (tx) => {
        for await (const batch of rows) {
          const values = batch.map(({ row, data }) => {
            const ids = {} as Record<MasterField, number | null>;
            for (const field of MASTER_FIELD_NAMES) {
              const id = resolve(field, data[field]);
              if (id === undefined) rows.reject(row, field, invalidChoice(field));
              ids[field] = id ?? null;
            }
            return certificationValues({ ...data, ...ids });
          });
          if (!rows.failed) await insertChunked(tx, certifications, values);
        }
        return rows.count;
      }),
  );
  return { message: MSG.recordAdded, count };
}
