import { useMemo } from 'react';
import type { MixSource } from '../recordings/meeting-mix';
import { RecordButton } from '../recordings/RecordButton';
import type { RemotePeer } from './rtc-client';

/**
 * A mesh room's recording, made in the moderator's browser: it captures ourselves (the shared
 * screen while sharing) and every participant.
 */
export function RoomRecordControl({
  slug,
  me,
  camera,
  own,
  peers,
  onRecordingChange,
}: {
  slug: string;
  me: { id: string; name: string } | null;
  /** our camera and microphone */
  camera: MediaStream | null;
  /** what the others see of us: the shared screen while sharing, else the camera */
  own: MediaStream | null;
  peers: RemotePeer[];
  onRecordingChange: (on: boolean) => void;
}) {
  const sources = useMemo<MixSource[]>(
    () => [
      { id: me?.id ?? 'me', name: me?.name ?? 'You', stream: own },
      ...peers.map((p) => ({ id: p.id, name: p.name, stream: p.stream })),
    ],
    [me, own, peers],
  );
  return <RecordButton slug={slug} stream={camera} sources={sources} onRecordingChange={onRecordingChange} />;
}
