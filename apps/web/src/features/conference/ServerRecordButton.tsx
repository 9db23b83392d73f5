import { Button, Tooltip } from '@mantine/core';
import { IconPlayerRecordFilled, IconPlayerStopFilled } from '@tabler/icons-react';

interface ServerRecordButtonProps {
  recording: boolean;
  onChange: (on: boolean) => void;
}

/**
 * The moderator's recording control in a room on the SFU: Janus records the room on the server,
 * which turns it into the topic's recording when it stops or the meeting ends, so nothing depends
 * on this browser staying open (the mesh keeps the browser recorder, recordings/RecordButton.tsx).
 */
export function ServerRecordButton({ recording, onChange }: ServerRecordButtonProps) {
  if (recording)
    return (
      <Button
        size="sm"
        color="red"
        leftSection={<IconPlayerStopFilled size={16} aria-hidden />}
        onClick={() => onChange(false)}
      >
        Stop recording
      </Button>
    );
  return (
    <Tooltip label="Record this meeting on the server; it plays under the topic's recording once the meeting ends">
      <Button
        size="sm"
        variant="light"
        color="red"
        leftSection={<IconPlayerRecordFilled size={16} aria-hidden />}
        onClick={() => onChange(true)}
      >
        Start recording
      </Button>
    </Tooltip>
  );
}
