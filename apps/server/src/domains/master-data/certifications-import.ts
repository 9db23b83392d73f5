import { certificationImportRow, IMPORT_TEMPLATES, MSG } from '@trainlab/contract';
import type { FastifyRequest } from 'fastify';
import { certificationMasters, certifications } from '../../db/schema';
import { insertChunked } from '../../platform/db/insert-chunked';
import type { Deps } from '../../platform/deps';
import { ImportRowsError, importRows, type RowError, readUpload } from '../../platform/excel';
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
 * Every row is checked before anything is written; the rows are written in one transaction.
 */
export async function importCertifications(deps: Deps, request: FastifyRequest, timeoutMs?: number) {
  const upload = await readUpload(request, deps.config.IMPORT_MAX_FILE_BYTES);
  const rows = await importRows({
    maxRows: deps.config.IMPORT_MAX_ROWS,
    file: upload.file,
    filename: upload.filename,
    schema: certificationImportRow,
    columns: IMPORT_TEMPLATES.certification.columns,
    timeoutMs,
  });

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

  const errors: RowError[] = [];
  const values = rows.map(({ row, data }) => {
    const ids = {} as Record<MasterField, number | null>;
    for (const field of MASTER_FIELD_NAMES) {
      const id = resolve(field, data[field]);
      if (id === undefined) errors.push({ row, attribute: field, errors: [invalidChoice(field)] });
      ids[field] = id ?? null;
    }
    return certificationValues({ ...data, ...ids });
  });
  if (errors.length > 0) throw new ImportRowsError(errors);

  await deps.db.transaction((tx) => insertChunked(tx, certifications, values));
  return { message: MSG.recordAdded, count: values.length };
}
