import { Alert, Box, Group, Paper, Stack } from '@mantine/core';
import type { ConferenceRoomKind } from '@trainlab/contract';
import { type ReactNode, useContext, useRef } from 'react';
import { AnnouncementsLog } from './AnnouncementsLog';
import { ConferenceToolbar } from './ConferenceToolbar';
import { FRAME_HEIGHT, FRAME_WIDTH } from './frame-size';
import { MeshGrid } from './MeshGrid';
import { useLocalMedia } from './media';
import { PreviewPanel } from './PreviewPanel';
import { RoomOutsideNotices } from './RoomOutsideNotices';
import { RoomRecordControl } from './RoomRecordControl';
import type { RtcClientLike } from './rtc-client';
import { RtcClientFactory } from './rtc-client-factory';
import { ServerRecordButton } from './ServerRecordButton';
import { SfuGrid } from './SfuGrid';
import { SidePanel } from './SidePanel';
import { useAnnouncer } from './use-announcer';
import { useMediaControls, useSendLocalTracks } from './use-media-controls';
import { useModeration } from './use-moderation';
import { useRoomAnnouncements } from './use-room-announcements';
import { useRoomConnection } from './use-room-connection';
import { useWhiteboardSync } from './use-whiteboard-sync';
import { VideoTile } from './VideoTile';
import { Whiteboard } from './Whiteboard';

// the room's pages import these from here
export { FRAME_HEIGHT, FRAME_WIDTH, GUEST_FRAME_HEIGHT } from './frame-size';
export { RtcClientFactory } from './rtc-client-factory';

interface ConferenceRoomProps {
  slug: string;
  title: string;
  wsUrl: string;
  iceServers?: Record<string, unknown>[];
  token?: string;
  ticket?: string;
  /** a guest's ticket is good once: asked again for each reconnect */
  freshTicket?: () => Promise<string>;
  guest?: boolean;
  frameHeight?: number;
  /** the meeting is over for us: 'left' (hang-up) or 'ended' (the moderator ended it for all) */
  onExit: (reason: 'left' | 'ended') => void;
  /** more moderator controls for the toolbar (e.g. recording) */
  toolbarExtra?: ReactNode;
  /**
   * a take call's meeting room: `slug` is the take call's; the whiteboard is shared live but not
   * saved and there is no recording (both belong to a training)
   */
  room?: ConferenceRoomKind;
}

/** The built-in meeting: preview with device choice, then the room (tiles, participants, chat, whiteboard). */
export function ConferenceRoom(props: ConferenceRoomProps) {
  const { slug, title, guest, frameHeight = FRAME_HEIGHT, onExit } = props;
  const factory = useContext(RtcClientFactory);
  const client = useRef<RtcClientLike | null>(null);
  const media = useLocalMedia();
  const { news, announce } = useAnnouncer();
  const controls = useMediaControls(client);
  const board = useWhiteboardSync({ slug, room: props.room, client });
  const conn = useRoomConnection({
    factory,
    client,
    announce,
    localStream: media.stream,
    signals: { onMuted: controls.mutedByHost, onWhiteboard: board.receive, onEnded: () => onExit('ended') },
  });
  useRoomAnnouncements({ client, inRoom: conn.phase === 'in', peers: conn.peers, announce, nameOf: conn.nameOf });
  useSendLocalTracks(client, media.stream, controls.audioOn, controls.videoOn);
  const moderation = useModeration({ client, announce, setServerRecording: conn.setServerRecording });
  const { phase, me, isModerator, peers, serverError } = conn;
  const recordable = isModerator && !guest && props.room !== 'take-call';

  const join = () =>
    conn.join({
      wsUrl: props.wsUrl,
      slug,
      room: props.room,
      token: props.token,
      ticket: props.ticket,
      freshTicket: props.freshTicket,
      iceServers: props.iceServers,
    });

  const leave = () => {
    client.current?.leave();
    controls.stopSharing();
    conn.setPhase('closed');
    onExit('left');
  };

  if (phase === 'preview' || phase === 'joining') {
    return (
      <PreviewPanel title={title} media={media} serverError={serverError} joining={phase === 'joining'} onJoin={join} />
    );
  }

  if (phase === 'waiting' || phase === 'already-open' || phase === 'closed') {
    return <RoomOutsideNotices phase={phase} guest={guest} onLeave={leave} onRetry={() => client.current?.rejoin()} />;
  }

  const selfTile = (
    <VideoTile
      name={me?.name ?? 'You'}
      stream={controls.sharing ?? media.stream}
      self
      moderator={isModerator}
      audioOff={!controls.audioOn}
      videoOff={!controls.videoOn && !controls.sharing}
    />
  );

  return (
    <Stack gap="sm" maw={FRAME_WIDTH} mx="auto" w="100%">
      <AnnouncementsLog news={news} />
      <ConferenceToolbar
        audioOn={controls.audioOn}
        videoOn={controls.videoOn}
        sharing={controls.sharing !== null}
        isModerator={isModerator}
        whiteboardOpen={board.open}
        handRaised={moderation.handRaised}
        onToggleHand={moderation.toggleHand}
        recording={conn.roomRecording || conn.serverRecording}
        onToggleAudio={controls.toggleAudio}
        onToggleVideo={controls.toggleVideo}
        onToggleShare={() => void controls.toggleShare()}
        onLeave={leave}
        onMuteAll={moderation.muteAll}
        onEndAll={moderation.endAll}
        onToggleWhiteboard={() => void board.toggle()}
        extra={
          props.toolbarExtra ??
          (recordable && conn.mediaMode === 'sfu' ? (
            <ServerRecordButton recording={conn.serverRecording} onChange={moderation.serverRecordingChange} />
          ) : recordable ? (
            <RoomRecordControl
              slug={slug}
              me={me}
              camera={media.stream}
              own={controls.sharing ?? media.stream}
              peers={peers}
              onRecordingChange={moderation.recordingChange}
            />
          ) : null)
        }
      />
      {serverError ? (
        <Alert color="red" withCloseButton onClose={() => conn.setServerError(null)} role="alert">
          {serverError}
        </Alert>
      ) : null}
      {conn.reconnecting !== null ? (
        <Alert color="yellow" role="status" data-testid="cf-reconnecting">
          The connection was lost. Reconnecting (attempt {conn.reconnecting})…
        </Alert>
      ) : null}
      <Group align="stretch" gap="sm" wrap="wrap" h={{ md: frameHeight }} data-testid="cf-frame">
        <Box style={{ flex: '1 1 520px', minWidth: 0 }} h={{ base: 'auto', md: '100%' }}>
          {board.open ? (
            <Whiteboard
              scene={board.board}
              readOnly={!isModerator}
              onChange={isModerator ? board.onChange : undefined}
              height={isModerator ? frameHeight : frameHeight - 30}
            />
          ) : conn.mediaMode === 'sfu' ? (
            <SfuGrid
              self={selfTile}
              peers={peers}
              feeds={conn.feeds}
              speaker={conn.speaker}
              talking={conn.talking}
              onSubscribe={conn.subscribe}
            />
          ) : (
            <MeshGrid self={selfTile} peers={peers} />
          )}
        </Box>
        <Paper withBorder p="xs" style={{ flex: '0 1 300px', minWidth: 260 }} h={{ base: 360, md: '100%' }}>
          <SidePanel
            me={me ? { ...me, hand: moderation.handRaised } : null}
            peers={peers}
            chat={conn.chat}
            onSend={(text) => client.current?.send({ type: 'chat', text })}
          />
        </Paper>
      </Group>
    </Stack>
  );
}
