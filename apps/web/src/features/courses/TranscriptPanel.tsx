import { Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { ApiRequest } from '../../api/call-types';
import { apiPost, toFormErrors } from '../../api/client';
import { ErrorAlert } from '../../ui/ErrorAlert';
import type { CaptionTrack } from './CaptionsPanel';

/**
 * The transcript shown under a topic's video: typed or pasted, or taken from one of its caption
 * tracks (the cues' words without timings), then editable. Saving an empty one removes it.
 */
export function TranscriptPanel({
  slug,
  transcript,
  tracks,
}: {
  slug: string;
  transcript: string | null;
  tracks: CaptionTrack[];
}) {
  const client = useQueryClient();
  const [text, setText] = useState(transcript ?? '');
  const [from, setFrom] = useState<string | null>(tracks[0]?.language ?? null);
  const [busy, setBusy] = useState<'save' | 'derive' | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [other, setOther] = useState<string | null>(null);
  useEffect(() => setText(transcript ?? ''), [transcript]);

  const send = async (body: Omit<ApiRequest<'save-topic-transcript'>, 'slug'>, kind: 'save' | 'derive') => {
    setBusy(kind);
    setErrors({});
    setOther(null);
    try {
      const res = await apiPost('save-topic-transcript', {
        slug,
        ...body,
      });
      setText(res.transcript ?? '');
      notifications.show({ color: 'green', message: res.message });
      await client.invalidateQueries({ queryKey: ['get-topic-details'] });
    } catch (err) {
      const mapped = toFormErrors(err);
      setErrors(mapped.fields);
      setOther(mapped.other_error);
    } finally {
      setBusy(null);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send({ transcript: text }, 'save');
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="transcript-heading">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="transcript-heading">
            Transcript
          </Title>
          <Text size="sm" c="dimmed">
            Shown under the video for learners who prefer to read. Leave it empty for no transcript.
          </Text>
          <ErrorAlert message={other} />
          {tracks.length > 0 ? (
            <Group align="flex-end" gap="sm" wrap="wrap">
              <Select
                label="Captions to take it from"
                data={tracks.map((t) => ({ value: t.language, label: `${t.label} (${t.language})` }))}
                value={from}
                onChange={setFrom}
                allowDeselect={false}
                error={errors.from_language}
              />
              <Button
                variant="light"
                loading={busy === 'derive'}
                disabled={!from || busy !== null}
                onClick={() => void send({ from_language: from }, 'derive')}
              >
                Take from captions
              </Button>
            </Group>
          ) : null}
          <Textarea
            label="Transcript text"
            autosize
            minRows={4}
            maxRows={16}
            value={text}
            error={errors.transcript}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy === 'save'} disabled={busy === 'derive'}>
              Save transcript
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
