import { Alert, Box, Button, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { FRAME_WIDTH } from './frame-size';
import type { useLocalMedia } from './media';
import { VideoTile } from './VideoTile';

/** Before joining: our own preview, the choice of camera and microphone, and the join button. */
export function PreviewPanel({
  title,
  media,
  serverError,
  joining,
  onJoin,
}: {
  title: string;
  media: ReturnType<typeof useLocalMedia>;
  serverError: string | null;
  joining: boolean;
  onJoin: () => void;
}) {
  return (
    <Paper withBorder p="md" maw={FRAME_WIDTH} mx="auto">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Box h={300}>
          <VideoTile name="Preview" stream={media.stream} self />
        </Box>
        <Stack gap="sm">
          <Text fw={600}>Ready to join {title}?</Text>
          {serverError ? (
            <Alert color="red" role="alert">
              {serverError}
            </Alert>
          ) : null}
          {media.error ? (
            <Alert color="yellow" icon={<IconAlertTriangle size={16} />}>
              {media.error}
            </Alert>
          ) : null}
          <Select
            label="Camera"
            placeholder="Default camera"
            data={media.cameras}
            value={media.cameraId}
            onChange={media.setCameraId}
            allowDeselect={false}
          />
          <Select
            label="Microphone"
            placeholder="Default microphone"
            data={media.microphones}
            value={media.microphoneId}
            onChange={media.setMicrophoneId}
            allowDeselect={false}
          />
          <Button onClick={onJoin} loading={joining} mt="sm">
            Join meeting
          </Button>
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
