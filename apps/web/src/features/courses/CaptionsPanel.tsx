import {
  Button,
  FileInput,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { ApiAnswer } from '../../api/call-types';
import { apiPost, errorText, toFormErrors } from '../../api/client';
import { apiUpload } from '../../api/upload';
import { confirmAction } from '../../ui/confirm';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { UploadProgress } from '../../ui/UploadProgress';

export type CaptionTrack = ApiAnswer<'get-topic-details'>['success']['caption_tracks'][number];

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * The caption tracks of one topic's video on its edit screen: the list (language, label, size) with
 * Delete, and the upload of a WebVTT file with a language tag and the label the player shows. A
 * file of a language already there replaces that track.
 */
export function CaptionsPanel({ slug, tracks }: { slug: string; tracks: CaptionTrack[] }) {
  const client = useQueryClient();
  const [language, setLanguage] = useState('');
  const [label, setLabel] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);

  const refresh = () => client.invalidateQueries({ queryKey: ['get-topic-details'] });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setOther(null);
    setProgress(0);
    try {
      await apiUpload('upload-topic-captions', { slug, language, label, ...(file ? { file } : {}) }, setProgress);
      notifications.show({ color: 'green', message: `Captions saved: ${label}.` });
      setLanguage('');
      setLabel('');
      setFile(null);
      await refresh();
    } catch (err) {
      const mapped = toFormErrors(err);
      setErrors(mapped.fields);
      setOther(mapped.other_error ?? (mapped.fields.slug ? mapped.fields.slug : null));
    } finally {
      setProgress(null);
    }
  };

  const remove = (track: CaptionTrack) =>
    confirmAction({
      title: 'Delete captions',
      message: `Delete the ${track.label} captions of this video?`,
      danger: true,
      onConfirm: async () => {
        try {
          await apiPost('delete-topic-captions', { slug, language: track.language });
          notifications.show({ color: 'green', message: `Captions deleted: ${track.label}.` });
          await refresh();
        } catch (err) {
          notifications.show({ color: 'red', message: errorText(err) });
        }
      },
    });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="captions-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="captions-heading">
          Captions
        </Title>
        {tracks.length === 0 ? (
          <Text c="dimmed" size="sm">
            This video has no captions yet. Learners who cannot hear it need them: upload a WebVTT (.vtt) file.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={300} tabIndex={0} aria-label="Caption tracks (scrolls sideways)">
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Label</Table.Th>
                  <Table.Th>Language</Table.Th>
                  <Table.Th>Size</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tracks.map((t) => (
                  <Table.Tr key={t.language}>
                    <Table.Td>{t.label}</Table.Td>
                    <Table.Td>{t.language}</Table.Td>
                    <Table.Td>{kb(t.bytes)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${t.label} captions`}
                        onClick={() => remove(t)}
                      >
                        Delete
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Upload captions">
          <Stack gap="sm">
            <ErrorAlert message={other} />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput
                label="Label"
                description="What the player's captions menu shows, e.g. English"
                required
                maxLength={60}
                value={label}
                error={errors.label}
                onChange={(e) => setLabel(e.currentTarget.value)}
              />
              <TextInput
                label="Language"
                description="A language tag: en, hi, ta, pt-BR…"
                required
                maxLength={20}
                value={language}
                error={errors.language}
                onChange={(e) => setLanguage(e.currentTarget.value)}
              />
            </SimpleGrid>
            <FileInput
              label="Captions file"
              description="WebVTT (.vtt), at most 512 KB. A file in a language already listed replaces it."
              required
              accept=".vtt,text/vtt"
              clearable
              leftSection={<IconUpload size={16} aria-hidden />}
              value={file}
              error={errors.file}
              onChange={setFile}
            />
            {progress !== null ? <UploadProgress value={progress} doneText="Saving the captions…" /> : null}
            <Group justify="flex-end">
              <Button type="submit" loading={progress !== null}>
                Upload captions
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
