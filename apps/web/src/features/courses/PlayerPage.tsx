import {
  Accordion,
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconArrowRight,
  IconChevronDown,
  IconChevronUp,
  IconCircleCheck,
  IconPlayerPlay,
} from '@tabler/icons-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import type { ApiAnswer } from '../../api/call-types';
import { ApiError, apiPost, errorText } from '../../api/client';
import { useApiQuery } from '../../api/use-api';
import { useRouteTitle } from '../../app/route-title';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { LoadingLines } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { formatDuration } from './shared';

/** A topic of a module of the course played: its video (captions, transcript) and the learner's progress. */
type PlayTopic = ApiAnswer<'play-course-data'>['data'][number]['topics'][number];
type ProgressAnswer = ApiAnswer<'course-progress'>;

/**
 * Keys of the focused player, as in the common web players: Space or K play and pause, the arrows
 * step 5 seconds, M mutes, C turns the captions on and off. The browser's own controls stay
 * reachable with Tab as well.
 */
export function playerKey(video: HTMLVideoElement, key: string): boolean {
  switch (key.toLowerCase()) {
    case ' ':
    case 'k':
      if (video.paused) void video.play().catch(() => undefined);
      else video.pause();
      return true;
    case 'arrowleft':
      video.currentTime = Math.max(0, video.currentTime - 5);
      return true;
    case 'arrowright':
      video.currentTime = Math.min(video.duration || Number.POSITIVE_INFINITY, video.currentTime + 5);
      return true;
    case 'm':
      video.muted = !video.muted;
      return true;
    case 'c': {
      // captions off, or back on in the language last chosen (the browser's menu picks another)
      const tracks = Array.from(video.textTracks);
      if (tracks.length === 0) return false;
      const showing = tracks.find((t) => t.mode === 'showing');
      if (showing) {
        video.dataset.lastTrack = String(tracks.indexOf(showing));
        for (const t of tracks) t.mode = 'hidden';
      } else {
        const last = tracks[Number(video.dataset.lastTrack ?? 0)] ?? tracks[0];
        if (last) last.mode = 'showing';
      }
      return true;
    }
    default:
      return false;
  }
}

/** How often the player reports watched time (seconds of wall-clock time). */
const REPORT_EVERY_MS = 5000;

/**
 * The video of one topic: HLS through hls.js (loaded only here), or natively where the browser plays
 * HLS itself. Resumes at the last position and reports the seconds actually played.
 */
function TopicVideo({ topic, onProgress }: { topic: PlayTopic; onProgress: (p: ProgressAnswer) => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const keysId = useId();
  const pending = useRef(0);
  const lastTime = useRef<number | null>(null);

  /** stopped: the learner paused or the video ended, so its position is saved even with nothing new played */
  const report = useCallback(
    async (stopped = false) => {
      const video = ref.current;
      if (!video) return;
      // at the end the last fraction counts too (the server still caps it by wall-clock time)
      const watched = video.ended ? Math.ceil(pending.current) : Math.floor(pending.current);
      if (watched < 1 && !video.ended && !stopped) return;
      pending.current -= watched;
      try {
        const res = await apiPost('course-progress', {
          slug: topic.slug,
          watched,
          position: Math.floor(video.ended ? (topic.duration ?? video.currentTime) : video.currentTime),
        });
        onProgress(res);
      } catch {
        /* the next report carries on; progress is never lost beyond one interval */
      }
    },
    [topic.slug, topic.duration, onProgress],
  );

  useEffect(() => {
    const video = ref.current;
    if (!video || !topic.url) return;
    let destroyed = false;
    let hls: { destroy(): void } | null = null;
    const resumeAt =
      topic.last_position > 0 && topic.duration && topic.last_position < topic.duration - 1 ? topic.last_position : 0;
    const onMeta = () => {
      if (resumeAt) video.currentTime = resumeAt;
    };
    video.addEventListener('loadedmetadata', onMeta, { once: true });
    if (video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = topic.url;
    } else {
      void import('hls.js').then(({ default: Hls }) => {
        if (destroyed) return;
        if (!Hls.isSupported()) {
          setError('This browser cannot play the video.');
          return;
        }
        const h = new Hls({ startLevel: -1 });
        h.on(Hls.Events.ERROR, (_e, data) => {
          if (data.fatal) setError('The video could not be loaded. Reload the page to try again.');
        });
        h.loadSource(topic.url!);
        h.attachMedia(video);
        hls = h;
      });
    }
    return () => {
      destroyed = true;
      video.removeEventListener('loadedmetadata', onMeta);
      hls?.destroy();
    };
  }, [topic.url, topic.last_position, topic.duration]);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    // only time actually played counts: small forward steps of currentTime while playing
    const onTime = () => {
      const now = video.currentTime;
      const before = lastTime.current;
      lastTime.current = now;
      if (before === null || video.paused || video.seeking) return;
      const step = now - before;
      if (step > 0 && step < 1.5) pending.current += step;
    };
    const onSeek = () => {
      lastTime.current = video.currentTime;
    };
    // a pause right after a periodic report still saves where it stopped (the resume point)
    const onStop = () => void report(true);
    video.addEventListener('timeupdate', onTime);
    video.addEventListener('seeked', onSeek);
    video.addEventListener('pause', onStop);
    video.addEventListener('ended', onStop);
    const timer = window.setInterval(() => {
      if (!video.paused) void report();
    }, REPORT_EVERY_MS);
    return () => {
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('seeked', onSeek);
      video.removeEventListener('pause', onStop);
      video.removeEventListener('ended', onStop);
      window.clearInterval(timer);
      void report();
    };
  }, [report]);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    // on the element itself, before the browser's own controls see the key (Space would toggle twice)
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.type === 'keydown' ? playerKey(video, e.key) : e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    for (const type of ['keydown', 'keyup', 'keypress']) video.addEventListener(type, onKey as EventListener, true);
    return () => {
      for (const type of ['keydown', 'keyup', 'keypress'])
        video.removeEventListener(type, onKey as EventListener, true);
    };
  }, []);

  if (topic.video_status === 'processing') {
    return <Alert color="blue">The video is being processed. It will be playable in a few minutes.</Alert>;
  }
  if (topic.video_status === 'failed') {
    return <Alert color="red">The video could not be processed: {topic.video_error}</Alert>;
  }
  return (
    <Stack gap="xs">
      {error ? <ErrorAlert message={error} /> : null}
      {/* biome-ignore lint/a11y/useMediaCaption: the captions track is there when the provider uploaded a WebVTT file */}
      <video
        ref={ref}
        controls
        playsInline
        preload="metadata"
        poster={topic.poster ?? undefined}
        aria-label={`Video: ${topic.name}`}
        aria-describedby={keysId}
        style={{ width: '100%', maxHeight: '70vh', background: '#000', borderRadius: 8 }}
        data-testid="course-video"
      >
        {topic.captions.map((c, i) => (
          <track key={c.language} kind="captions" src={c.url} srcLang={c.language} label={c.label} default={i === 0} />
        ))}
      </video>
      <Text id={keysId} size="xs" c="dimmed">
        Keys on the video: Space plays and pauses, arrows step 5 seconds, M mutes
        {topic.captions.length ? ', C turns captions on and off.' : '. This video has no captions yet.'}
      </Text>
      {topic.transcript ? <Transcript text={topic.transcript} name={topic.name} /> : null}
    </Stack>
  );
}

/**
 * The transcript under the video, folded by default: a button that says whether it is open
 * (aria-expanded) and a named region that scrolls and can be focused to scroll by keyboard.
 */
function Transcript({ text, name }: { text: string; name: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Stack gap="xs">
      <Group>
        <Button
          variant="default"
          size="xs"
          aria-expanded={open}
          aria-controls={id}
          leftSection={open ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide transcript' : 'Show transcript'}
        </Button>
      </Group>
      <Box
        id={id}
        role="region"
        aria-label={`Transcript: ${name}`}
        hidden={!open}
        tabIndex={0}
        p="sm"
        mah={320}
        style={{
          overflowY: 'auto',
          whiteSpace: 'pre-wrap',
          border: '1px solid var(--mantine-color-gray-4)',
          borderRadius: 8,
        }}
      >
        <Text size="sm">{text}</Text>
      </Box>
    </Stack>
  );
}

/** /course/{slug}: the player, an accordion of modules and topics, previous and next. */
export function CoursePlayerPage() {
  const title = useRouteTitle();
  const { slug = '' } = useParams();
  const q = useApiQuery('play-course-data', { slug });
  const [progress, setProgress] = useState<Record<number, ProgressAnswer>>({});
  const [percentage, setPercentage] = useState<number | null>(null);
  const topics = useMemo(() => q.data?.data.flatMap((m) => m.topics) ?? [], [q.data]);
  const [currentId, setCurrentId] = useState<number | null>(null);

  // start at the first topic not yet complete
  useEffect(() => {
    if (currentId !== null || !topics.length) return;
    setCurrentId((topics.find((t) => !t.is_complete && t.video_status === 'ready') ?? topics[0])!.id);
  }, [topics, currentId]);

  const index = topics.findIndex((t) => t.id === currentId);
  const current = index >= 0 ? topics[index] : undefined;
  const onProgress = useCallback(
    (p: ProgressAnswer) => {
      if (!current) return;
      setProgress((all) => ({ ...all, [current.id]: p }));
      setPercentage(p.percentage);
    },
    [current],
  );

  if (q.isLoading) return <LoadingLines lines={6} />;
  if (q.error) {
    const message =
      q.error instanceof ApiError && q.error.status === 404 ? 'This course was not found.' : errorText(q.error);
    return (
      <Stack gap="md">
        <PageHeader title={title} />
        <ErrorAlert message={message} />
      </Stack>
    );
  }
  const data = q.data!;
  const done = (t: PlayTopic) => (progress[t.id]?.is_complete ?? t.is_complete) === 1;
  const pct = percentage ?? data.percentage;

  return (
    <Stack gap="md">
      <PageHeader title={data.course.name} description={`${pct}% completed`} />
      <Progress value={pct} aria-label="Course progress" />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Stack gap="sm" style={{ gridColumn: 'span 2' }}>
          {current ? (
            <>
              {/* a new mount once the video becomes ready, so the player binds to the element */}
              <TopicVideo key={`${current.id}-${current.video_status}`} topic={current} onProgress={onProgress} />
              <Group justify="space-between">
                <Button
                  variant="default"
                  leftSection={<IconArrowLeft size={16} aria-hidden />}
                  disabled={index <= 0}
                  onClick={() => setCurrentId(topics[index - 1]!.id)}
                >
                  Previous
                </Button>
                <Button
                  variant="default"
                  rightSection={<IconArrowRight size={16} aria-hidden />}
                  disabled={index >= topics.length - 1}
                  onClick={() => setCurrentId(topics[index + 1]!.id)}
                >
                  Next
                </Button>
              </Group>
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4">
                  {current.name}
                </Title>
                {current.description ? <Text mt="xs">{current.description}</Text> : null}
              </Paper>
            </>
          ) : (
            <Alert color="gray">This course has no topics yet.</Alert>
          )}
        </Stack>
        <Paper withBorder radius="md" p="xs" component="nav" aria-label="Modules and topics">
          <Accordion multiple defaultValue={data.data.map((m) => String(m.id))}>
            {data.data.map((m) => (
              <Accordion.Item key={m.id} value={String(m.id)}>
                <Accordion.Control>{m.name}</Accordion.Control>
                <Accordion.Panel>
                  <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                    {m.topics.map((t) => (
                      <li key={t.id}>
                        <UnstyledButton
                          onClick={() => setCurrentId(t.id)}
                          aria-current={t.id === currentId ? 'true' : undefined}
                          p="xs"
                          w="100%"
                          style={{
                            borderRadius: 6,
                            background: t.id === currentId ? 'var(--mantine-color-blue-light)' : undefined,
                          }}
                        >
                          <Group gap="xs" wrap="nowrap" justify="space-between">
                            <Group gap="xs" wrap="nowrap">
                              {done(t) ? (
                                <IconCircleCheck
                                  size={16}
                                  color="var(--mantine-color-green-6)"
                                  role="img"
                                  aria-label="Completed"
                                />
                              ) : (
                                <IconPlayerPlay size={16} aria-hidden />
                              )}
                              <Text size="sm">{t.name}</Text>
                            </Group>
                            {t.video_status === 'ready' ? (
                              <Text size="xs" c="dimmed">
                                {formatDuration(t.duration)}
                              </Text>
                            ) : (
                              <Badge size="xs" color={t.video_status === 'failed' ? 'red' : 'blue'} variant="light">
                                {t.video_status}
                              </Badge>
                            )}
                          </Group>
                        </UnstyledButton>
                      </li>
                    ))}
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
