import { FileInput, Group, Image, Stack, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { TRAINER_IMAGE_MAX_BYTES } from '@trainlab/contract';
import { useEffect, useState } from 'react';
import { IMAGE_ACCEPT } from './shared';

/**
 * A picture field that reads as one: an upload icon, "Choose a picture…" and a preview of the
 * chosen file (or of the stored one), where a bare FileInput looked like an empty text box.
 */
export function ImagePicker({
  label,
  value,
  onChange,
  error,
  current,
  required = false,
}: {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  error?: React.ReactNode;
  /** the stored picture's thumbnail (a data: URL), shown until another is chosen */
  current?: string | null;
  required?: boolean;
}) {
  const preview = useObjectUrl(value);
  // the chosen file's preview, else (nothing chosen) the stored picture
  const shown = value ? preview : (current ?? null);
  return (
    <Group align="flex-start" wrap="nowrap" gap="sm">
      <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
        <FileInput
          label={label}
          withAsterisk={required}
          description={`A .png, .jpg or .jpeg picture, up to ${TRAINER_IMAGE_MAX_BYTES / 1024 / 1024} MB.`}
          placeholder="Choose a picture…"
          leftSection={<IconPhotoUp size={18} aria-hidden />}
          leftSectionPointerEvents="none"
          // one line at 360 px too: a long name or the placeholder ends in … instead of growing the field
          styles={{ input: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } }}
          accept={IMAGE_ACCEPT}
          clearable
          value={value}
          onChange={onChange}
          error={error}
        />
      </Stack>
      {shown ? (
        <Image
          src={shown}
          alt={preview ? `Chosen ${label.toLowerCase()}` : `Current ${label.toLowerCase()}`}
          w={72}
          h={72}
          fit="cover"
          radius="md"
          mt={24}
        />
      ) : (
        <Text size="xs" c="dimmed" w={72} mt={28} ta="center">
          {value ? 'No preview' : 'No picture yet'}
        </Text>
      )}
    </Group>
  );
}

/** An object URL of the chosen file for its preview, revoked when the file changes or the field goes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    // only a picture previews (a PDF chosen by mistake would show a broken image)
    if (!file || !file.type.startsWith('image/') || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
