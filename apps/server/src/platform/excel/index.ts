export {
  type ImportedRow,
  ImportRowsError,
  type ImportSource,
  importRows,
  isSpreadsheet,
  MAX_ROW_ERRORS,
  type RowError,
  streamImport,
} from './import-rows';
export { readUpload, registerMultipart, type Upload } from './multipart';
export { parseSheet, SheetReader, type SheetRow, UnreadableFileError } from './parse';
export { templateFor, XLSX_CONTENT_TYPE } from './template';
