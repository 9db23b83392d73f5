import { Badge, Box, Group, Text } from '@mantine/core';
import { IconMicrophoneOff, IconVideoOff } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';

interface VideoTileProps {
  name: string;
  stream: MediaStream | null;
  /** our own tile: muted playback, mirrored */
  self?: boolean;
  moderator?: boolean;
  audioOff?: boolean;
  videoOff?: boolean;
  height?: number | string;
  /** a shared screen (not a camera): named so, shown whole rather than cropped */
  screen?: boolean;
  /** talking now (SFU rooms): highlighted */
  speaking?: boolean;
}

/** One participant: the video with the name and the muted indicators. */
export function VideoTile({
  name,
  stream,
  self,
  moderator,
  audioOff,
  videoOff,
  height = '100%',
  screen,
  speaking,
}: VideoTileProps) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el && el.srcObject !== stream) {
      el.srcObject = stream;
      if (stream) void el.play?.()?.catch(() => {});
    }
  }, [stream]);
  return (
    <Box
      pos="relative"
      bg="dark.7"
      h={height}
      mih={120}
      style={{
        borderRadius: 8,
        overflow: 'hidden',
        outline: speaking ? '3px solid var(--mantine-color-yellow-5)' : undefined,
        outlineOffset: -3,
      }}
      data-testid={self ? 'cf-self-tile' : screen ? 'cf-screen-tile' : 'cf-peer-tile'}
      data-speaking={speaking || undefined}
      aria-label={screen ? `Screen shared by ${name}` : `Video of ${name}${speaking ? ', speaking' : ''}`}
      role="group"
    >
      <video
        ref={ref}
        autoPlay
        playsInline
        muted={self}
        style={{
          width: '100%',
          height: '100%',
          objectFit: screen ? 'contain' : 'cover',
          transform: self ? 'scaleX(-1)' : undefined,
          display: stream && !videoOff ? 'block' : 'none',
        }}
      />
      <Group pos="absolute" bottom={6} left={8} right={8} gap={6} justify="space-between" wrap="nowrap">
        <Text size="sm" c="white" fw={500} truncate style={{ textShadow: '0 1px 2px #000' }}>
          {name}
          {self ? ' (You)' : ''}
          {screen ? ' (screen)' : ''}
        </Text>
        <Group gap={4} wrap="nowrap">
          {speaking ? (
            <Badge size="xs" color="yellow.3" c="dark.9">
              Speaking
            </Badge>
          ) : null}
          {moderator ? (
            <Badge size="xs" color="teal.9">
              Host
            </Badge>
          ) : null}
          {audioOff ? <IconMicrophoneOff size={16} color="#ff8787" aria-label="Microphone off" /> : null}
          {videoOff ? <IconVideoOff size={16} color="#ff8787" aria-label="Camera off" /> : null}
        </Group>
      </Group>
    </Box>
  );
}
