import { Button, Group, Progress, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerRecordFilled, IconPlayerStopFilled } from '@tabler/icons-react';
import { useEffect, useReducer, useRef, useState } from 'react';
import { apiPost, errorText } from '../../api/client';
import { apiUpload } from '../../api/upload';
import { type MeetingMix, type MixSource, mixMeeting } from './meeting-mix';
import { formatBytes, formatElapsed, formatLabel, pickMime, type RecordMode } from './recorder-format';
import { type Uploader, UploadQueue } from './upload-queue';

export interface RecordButtonProps {
  /** the training being recorded */
  slug: string;
  /** the syllabus topic the recording belongs to (default: the training's latest topic) */
  topicId?: number;
  /** the media to record when no `sources` are given; the button is disabled without media */
  stream: MediaStream | null;
  /** the meeting's participants: when given, everyone's audio (and pictures, in a grid) is recorded */
  sources?: MixSource[];
  /** builds the mix of `sources` (default mixMeeting); tests inject their own */
  mix?: (mode: RecordMode, sources: MixSource[]) => MeetingMix;
  /** MediaRecorder timeslice: a chunk is produced and uploaded every this many ms */
  timesliceMs?: number;
  /** multipart upload (default apiUpload); tests inject their own */
  upload?: Uploader;
  /** told when capturing starts and stops (the meeting tells the room, which announces it) */
  onRecordingChange?: (on: boolean) => void;
}

type Phase = 'idle' | 'starting' | 'recording' | 'finishing';

const defaultUpload: Uploader = (path, fields) => apiUpload(path, fields);

/**
 * The moderator's recording control for the conference toolbar: 'Audio only' (the spec's default:
 * audio with video muted) or 'Full video'; records with MediaRecorder in timeslices, uploads the
 * chunks in order in the background with a progress bar, and on Stop finishes the recording, which
 * becomes the topic's recording (/recording/{id}).
 */
export function RecordButton({
  slug,
  topicId,
  stream,
  sources,
  mix = mixMeeting,
  timesliceMs = 3000,
  upload = defaultUpload,
  onRecordingChange,
}: RecordButtonProps) {
  const [mode, setMode] = useState<RecordMode>('audio');
  const [phase, setPhase] = useState<Phase>('idle');
  const [mime, setMime] = useState('');
  const [elapsed, setElapsed] = useState(0);
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  const recorder = useRef<MediaRecorder | null>(null);
  const queue = useRef<UploadQueue | null>(null);
  const recordingId = useRef<number | null>(null);
  const mixed = useRef<MeetingMix | null>(null);

  const supported = typeof MediaRecorder !== 'undefined';
  const hasMedia = !!stream || !!sources?.some((s) => s.stream);

  useEffect(() => {
    if (phase !== 'recording') return;
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [phase]);

  // participants who come or go while recording join or leave the mix
  useEffect(() => {
    if (sources) mixed.current?.update(sources);
  }, [sources]);

  // leaving the page stops the recorder; what was uploaded stays on the server, unfinished
  useEffect(
    () => () => {
      if (recorder.current && recorder.current.state !== 'inactive') recorder.current.stop();
      mixed.current?.stop();
    },
    [],
  );

  const fail = (message: string) => {
    notifications.show({ color: 'red', title: 'Recording', message });
  };

  async function start() {
    if (!hasMedia || !supported) return;
    const meeting = sources ? mix(mode, sources) : null;
    const source = meeting?.stream ?? stream;
    const tracks = source ? (mode === 'audio' ? source.getAudioTracks() : source.getTracks()) : [];
    if (tracks.length === 0) {
      meeting?.stop();
      fail(mode === 'audio' ? 'There is no microphone to record.' : 'There is no media to record.');
      return;
    }
    mixed.current = meeting;
    const chosen = pickMime(mode, MediaRecorder);
    setPhase('starting');
    try {
      const res = await apiPost('recording-start', {
        slug,
        ...(topicId ? { topic_id: topicId } : {}),
        mime: chosen,
      });
      recordingId.current = res.id;
      const q = new UploadQueue(res.id, res.chunk_size, upload, refresh);
      queue.current = q;
      const rec = new MediaRecorder(new MediaStream(tracks), { mimeType: chosen });
      rec.ondataavailable = (e: BlobEvent) => q.push(e.data);
      recorder.current = rec;
      rec.start(timesliceMs);
      setMime(chosen);
      setElapsed(0);
      setPhase('recording');
      onRecordingChange?.(true);
    } catch (e) {
      stopMix();
      setPhase('idle');
      fail(errorText(e));
    }
  }

  function stopMix() {
    mixed.current?.stop();
    mixed.current = null;
  }

  async function stop() {
    const rec = recorder.current;
    const q = queue.current;
    const id = recordingId.current;
    if (!rec || !q || id === null) return;
    setPhase('finishing');
    if (rec.state !== 'inactive') {
      // the last chunk arrives (dataavailable) before 'stop'
      await new Promise<void>((resolve) => {
        rec.addEventListener('stop', () => resolve(), { once: true });
        rec.stop();
      });
    }
    stopMix();
    onRecordingChange?.(false);
    try {
      await q.flush();
      const res = await apiPost('recording-finish', { id });
      notifications.show({ color: 'green', message: res.message });
    } catch (e) {
      fail(errorText(e));
    } finally {
      recorder.current = null;
      queue.current = null;
      recordingId.current = null;
      setPhase('idle');
    }
  }

  const q = queue.current;
  const percent = q && q.recorded > 0 ? Math.round((q.uploaded / q.recorded) * 100) : 0;

  if (phase === 'recording' || phase === 'finishing') {
    return (
      <Group gap="xs" wrap="wrap" align="center">
        <Button
          color="red"
          size="sm"
          leftSection={<IconPlayerStopFilled size={16} aria-hidden />}
          onClick={stop}
          loading={phase === 'finishing'}
          aria-label="Stop recording"
        >
          Stop {formatElapsed(elapsed)}
        </Button>
        <Stack gap={2} w={170}>
          <Progress
            value={percent}
            size="sm"
            color={q?.error ? 'red' : 'blue'}
            aria-label="Recording upload progress"
            role="progressbar"
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
          />
          <Text size="xs" c={q?.error ? 'red' : 'dimmed'} aria-live="polite">
            {q?.error
              ? `Upload failed: ${errorText(q.error)}`
              : `${formatBytes(q?.uploaded ?? 0)} of ${formatBytes(q?.recorded ?? 0)} uploaded · ${formatLabel(mime)}`}
          </Text>
        </Stack>
      </Group>
    );
  }

  const disabledReason = !supported
    ? 'This browser cannot record (MediaRecorder is missing).'
    : !hasMedia
      ? 'Join the meeting with a microphone or camera to record.'
      : null;

  return (
    <Group gap="xs" wrap="wrap" align="center">
      <SegmentedControl
        size="xs"
        value={mode}
        onChange={(v) => setMode(v as RecordMode)}
        data={[
          { value: 'audio', label: 'Audio only' },
          { value: 'video', label: 'Full video' },
        ]}
        aria-label="What to record"
      />
      <Tooltip label={disabledReason ?? 'Record this meeting'}>
        <Button
          size="sm"
          variant="light"
          color="red"
          leftSection={<IconPlayerRecordFilled size={16} aria-hidden />}
          onClick={start}
          disabled={!!disabledReason}
          loading={phase === 'starting'}
          aria-label="Start recording"
        >
          Record
        </Button>
      </Tooltip>
    </Group>
  );
}
