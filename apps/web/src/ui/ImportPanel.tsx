import { Button, FileInput, Group, List, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import type { UploadFields } from '../api/call-types';
import { errorText, toFormErrors } from '../api/client';
import type { RowError } from '../api/errors';
import { apiDownload, apiUpload } from '../api/upload';
import { ErrorAlert } from './ErrorAlert';
import { UploadProgress } from './UploadProgress';

/** The Excel imports of the product (each takes a `file`, some also the training's slug). */
type ImportPath =
  | 'upload-certification-master'
  | 'upload-question-bank'
  | 'upload-training-syllabus'
  | 'lp/import-training-user'
  | 'vm-assign-to-user';

interface ImportPanelProps<P extends ImportPath> {
  title?: string;
  /** the upload call, e.g. 'upload-certification-master' */
  path: P;
  /** other multipart fields sent with the file (e.g. the training slug) */
  fields?: Omit<UploadFields<P>, 'file'>;
  /** the template type of `/download-template` */
  templateType: string;
  onImported?: (result: unknown) => void;
}

const ACCEPT = '.xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The one Excel import of the product: template, file check, upload progress, row errors dialog. */
export function ImportPanel<P extends ImportPath>({
  title = 'Bulk import',
  path,
  fields,
  templateType,
  onImported,
}: ImportPanelProps<P>) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [otherError, setOtherError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [rows, setRows] = useState<RowError[]>([]);

  const submit = async () => {
    setOtherError(null);
    setFileError(null);
    if (!file) return setFileError('The file field is required.');
    if (!/\.(xlsx?|XLSX?)$/.test(file.name)) return setFileError('The file must be a file of type: xls, xlsx.');
    setProgress(0);
    try {
      // the props have checked `fields` against the call; every import answers its message
      const result = await apiUpload<ImportPath>(path, { ...fields, file } as UploadFields<ImportPath>, setProgress);
      notifications.show({ color: 'green', message: result?.message ?? 'Record Added Successfully!' });
      setFile(null);
      onImported?.(result);
    } catch (error) {
      const mapped = toFormErrors(error);
      if (mapped.rows.length) setRows(mapped.rows);
      else if (mapped.fields.file) setFileError(mapped.fields.file);
      else setOtherError(mapped.other_error ?? Object.values(mapped.fields)[0] ?? null);
    } finally {
      setProgress(null);
    }
  };

  const downloadTemplate = async () => {
    try {
      await apiDownload('download-template', { type: templateType }, `${templateType}-template.xlsx`);
    } catch (error) {
      setOtherError(errorText(error));
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {title}
          </Title>
          <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={downloadTemplate}>
            Download template
          </Button>
        </Group>
        <ErrorAlert message={otherError} />
        <FileInput
          label="Excel file (.xls, .xlsx)"
          placeholder="Choose a file"
          accept={ACCEPT}
          value={file}
          onChange={(f) => {
            setFile(f);
            setFileError(null);
          }}
          error={fileError}
          leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
          clearable
        />
        {progress !== null ? <UploadProgress value={progress} doneText="Checking the file…" /> : null}
        <Group>
          <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={submit} loading={progress !== null}>
            Import
          </Button>
        </Group>
      </Stack>
      <Modal opened={rows.length > 0} onClose={() => setRows([])} title="Errors" size="lg">
        <Text size="sm" mb="sm">
          Nothing was imported. Fix these rows and upload the file again.
        </Text>
        <List spacing={4} size="sm">
          {rows.map((r) => (
            <List.Item key={`${r.row}-${r.attribute}`}>{`Row ${r.row} ${r.attribute} ${r.errors.join(' ')}`}</List.Item>
          ))}
        </List>
      </Modal>
    </Paper>
  );
}
