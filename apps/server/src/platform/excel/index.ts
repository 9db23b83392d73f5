export {
  type ImportedRow,
  ImportRowsError,
  importRows,
  isSpreadsheet,
  MAX_ROW_ERRORS,
  type RowError,
} from './import-rows';
export { readUpload, registerMultipart, type Upload } from './multipart';
export { parseSheet, UnreadableFileError } from './parse';
export { templateFor, XLSX_CONTENT_TYPE } from './template';
