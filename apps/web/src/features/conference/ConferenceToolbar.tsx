import { ActionIcon, Badge, Button, Group, Tooltip } from '@mantine/core';
import {
  IconChalkboard,
  IconHandStop,
  IconMicrophone,
  IconMicrophoneOff,
  IconPhoneOff,
  IconScreenShare,
  IconScreenShareOff,
  IconVideo,
  IconVideoOff,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface ConferenceToolbarProps {
  audioOn: boolean;
  videoOn: boolean;
  sharing: boolean;
  isModerator: boolean;
  whiteboardOpen: boolean;
  handRaised: boolean;
  /** a moderator is recording the meeting (shown to everyone) */
  recording?: boolean;
  onToggleAudio: () => void;
  onToggleVideo: () => void;
  onToggleShare: () => void;
  onLeave: () => void;
  onMuteAll: (kind: 'audio' | 'video') => void;
  onEndAll: () => void;
  onToggleWhiteboard: () => void;
  onToggleHand: () => void;
  /** further controls (e.g. recording) placed with the moderator's buttons */
  extra?: ReactNode;
}

/** The controls of the meeting: own devices, screen sharing, hang-up and the moderator's buttons. */
export function ConferenceToolbar(p: ConferenceToolbarProps) {
  return (
    <Group justify="space-between" gap="xs" wrap="wrap" role="toolbar" aria-label="Meeting controls">
      <Group gap="xs" wrap="wrap">
        <Tooltip label={p.audioOn ? 'Turn microphone off' : 'Turn microphone on'}>
          <ActionIcon
            size="lg"
            variant={p.audioOn ? 'default' : 'filled'}
            color={p.audioOn ? undefined : 'red'}
            aria-label={p.audioOn ? 'Turn microphone off' : 'Turn microphone on'}
            onClick={p.onToggleAudio}
          >
            {p.audioOn ? <IconMicrophone size={18} /> : <IconMicrophoneOff size={18} />}
          </ActionIcon>
        </Tooltip>
        <Tooltip label={p.videoOn ? 'Turn camera off' : 'Turn camera on'}>
          <ActionIcon
            size="lg"
            variant={p.videoOn ? 'default' : 'filled'}
            color={p.videoOn ? undefined : 'red'}
            aria-label={p.videoOn ? 'Turn camera off' : 'Turn camera on'}
            onClick={p.onToggleVideo}
          >
            {p.videoOn ? <IconVideo size={18} /> : <IconVideoOff size={18} />}
          </ActionIcon>
        </Tooltip>
        <Tooltip label={p.sharing ? 'Stop sharing the screen' : 'Share the screen'}>
          <ActionIcon
            size="lg"
            variant={p.sharing ? 'filled' : 'default'}
            aria-label={p.sharing ? 'Stop sharing the screen' : 'Share the screen'}
            onClick={p.onToggleShare}
          >
            {p.sharing ? <IconScreenShareOff size={18} /> : <IconScreenShare size={18} />}
          </ActionIcon>
        </Tooltip>
        <Button
          variant={p.handRaised ? 'filled' : 'default'}
          color={p.handRaised ? 'orange.9' : undefined}
          leftSection={<IconHandStop size={16} aria-hidden />}
          onClick={p.onToggleHand}
        >
          {p.handRaised ? 'Lower hand' : 'Raise hand'}
        </Button>
        <Button color="red" leftSection={<IconPhoneOff size={16} />} onClick={p.onLeave}>
          Leave
        </Button>
        {p.recording ? (
          <Badge color="red.9" variant="filled">
            Recording
          </Badge>
        ) : null}
      </Group>
      {p.isModerator ? (
        <Group gap="xs" wrap="wrap">
          <Button size="sm" variant="light" onClick={() => p.onMuteAll('audio')}>
            Mute everyone's audio
          </Button>
          <Button size="sm" variant="light" onClick={() => p.onMuteAll('video')}>
            Mute everyone's video
          </Button>
          <Button
            size="sm"
            variant={p.whiteboardOpen ? 'filled' : 'light'}
            leftSection={<IconChalkboard size={16} />}
            onClick={p.onToggleWhiteboard}
          >
            Whiteboard
          </Button>
          {p.extra}
          <Button size="sm" color="red" variant="outline" onClick={p.onEndAll}>
            End meeting for all
          </Button>
        </Group>
      ) : (
        p.extra
      )}
    </Group>
  );
}
