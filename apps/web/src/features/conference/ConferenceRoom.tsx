import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Modal,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconHandStop, IconHourglass } from '@tabler/icons-react';
import { type ConferenceRoomKind, MSG, type PeerInfo } from '@trainlab/contract';
import {
  createContext,
  type FormEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { apiPost } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import type { MixSource } from '../recording/meeting-mix';
import { RecordButton } from '../recording/RecordButton';
import { ConferenceToolbar } from './ConferenceToolbar';
import type { SfuFeed, WantedStream } from './grid-paging';
import { useLocalMedia } from './media';
import {
  type ChatLine,
  type CreateRtcClient,
  createRtcClient,
  type MediaMode,
  type RemotePeer,
  type RtcClientLike,
} from './rtc-client';
import { ServerRecordButton } from './ServerRecordButton';
import { SfuGrid } from './SfuGrid';
import { SpeakerAnnouncer } from './speaker-announcer';
import { useAnnouncer } from './use-announcer';
import { usePeerAnnouncements } from './use-peer-announcements';
import { VideoTile } from './VideoTile';
import { Whiteboard } from './Whiteboard';
import {
  type BoardScene,
  EMPTY_SCENE,
  forSaving,
  liveElements,
  mergeScenes,
  sceneTooLarge,
  toBoardScene,
} from './whiteboard-scene';

/** Which RTC client the room uses (tests may provide another). */
export const RtcClientFactory = createContext<CreateRtcClient>(createRtcClient);

export const FRAME_WIDTH = 1100;
export const FRAME_HEIGHT = 580;
export const GUEST_FRAME_HEIGHT = 540;
const SEND_EVERY_MS = 250;
const SAVE_AFTER_MS = 1500;
/** How often the peers' audio levels are read for the speaker announcement. */
const SPEAKER_POLL_MS = 500;

type Phase = 'preview' | 'joining' | 'in' | 'waiting' | 'already-open' | 'closed';

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

declare global {
  interface Window {
    /** for journeys: the live client's statistics and our own tracks */
    __cfConference?: { getStats: RtcClientLike['getStats']; localTracks: () => { kind: string; enabled: boolean }[] };
  }
}

/** The built-in meeting: preview with device choice, then the room (tiles, participants, chat, whiteboard). */
export function ConferenceRoom(props: ConferenceRoomProps) {
  const { slug, title, guest, frameHeight = FRAME_HEIGHT, onExit } = props;
  const factory = useContext(RtcClientFactory);
  const media = useLocalMedia();
  const [phase, setPhase] = useState<Phase>('preview');
  const [me, setMe] = useState<PeerInfo | null>(null);
  const [isModerator, setIsModerator] = useState(false);
  const [peers, setPeers] = useState<RemotePeer[]>([]);
  const [chat, setChat] = useState<ChatLine[]>([]);
  const [audioOn, setAudioOn] = useState(true);
  const [videoOn, setVideoOn] = useState(true);
  const [sharing, setSharing] = useState<MediaStream | null>(null);
  const [boardOpen, setBoardOpen] = useState(false);
  const [board, setBoard] = useState<BoardScene>(EMPTY_SCENE);
  const [serverError, setServerError] = useState<string | null>(null);
  const [handRaised, setHandRaised] = useState(false);
  /** another moderator's recording (our own shows in the record button) */
  const [roomRecording, setRoomRecording] = useState(false);
  /** SFU rooms: the room's published streams, who spoke last and who is talking now */
  const [mediaMode, setMediaMode] = useState<MediaMode>('mesh');
  const [feeds, setFeeds] = useState<SfuFeed[]>([]);
  const [speaker, setSpeaker] = useState<string | null>(null);
  const [talking, setTalking] = useState<ReadonlySet<string>>(new Set());
  /** SFU rooms: our own server recording (the server records; no browser recorder) */
  const [serverRecording, setServerRecording] = useState(false);
  const { news, announce } = useAnnouncer();
  const [reconnecting, setReconnecting] = useState<number | null>(null);
  const client = useRef<RtcClientLike | null>(null);
  const meRef = useRef<PeerInfo | null>(null);
  meRef.current = me;
  const peersRef = useRef<RemotePeer[]>([]);
  peersRef.current = peers;
  const nameOf = useCallback((id: string) => peersRef.current.find((p) => p.id === id)?.name ?? 'Someone', []);
  const exitRef = useRef(onExit);
  exitRef.current = onExit;

  const streamRef = useRef<MediaStream | null>(null);
  streamRef.current = media.stream;

  useEffect(() => {
    const c = factory({
      onJoined: (you, _peers, moderator, media = 'mesh') => {
        setReconnecting(null);
        setMe(you);
        setIsModerator(moderator);
        setMediaMode(media);
        setPhase('in');
      },
      onPeers: (list) => {
        setPeers(list);
        // whoever spoke last and has left is no longer pulled onto the page
        setSpeaker((s) => (s && list.some((p) => p.id === s) ? s : null));
      },
      onFeeds: setFeeds,
      onTalking: (peer, on) => {
        if (on) setSpeaker(peer);
        setTalking((set) => {
          const next = new Set(set);
          if (on) next.add(peer);
          else next.delete(peer);
          return next;
        });
      },
      onChat: (line) => {
        setChat((lines) => [...lines, line]);
        // read out whichever tab is open; our own lines we have just typed
        if (line.from !== meRef.current?.id) announce(`${line.name} says: ${line.text}`);
      },
      onHand: (from, raised) => {
        announce(raised ? `${nameOf(from)} raised a hand.` : `${nameOf(from)} lowered their hand.`);
      },
      onRecording: (on) => {
        setRoomRecording(on);
        // SFU rooms: the server records the room, whichever moderator turned it on or off
        setServerRecording(on);
        announce(on ? 'Recording started.' : 'Recording stopped.');
      },
      onMuted: (kind) => {
        if (kind === 'audio') setAudioOn(false);
        else setVideoOn(false);
        notifications.show({
          message: kind === 'audio' ? 'The host muted your microphone.' : 'The host turned your camera off.',
        });
      },
      onEnded: () => {
        notifications.show({ message: 'The meeting has been ended by the host.' });
        setPhase('closed');
        exitRef.current('ended');
      },
      onWhiteboard: (scene) => {
        // merged, not replaced: another moderator's strokes and ours both stay; late scenes undo nothing
        const next = mergeScenes(latestBoard.current, toBoardScene(scene));
        latestBoard.current = next;
        setBoard(next);
        setBoardOpen(true);
      },
      onServerError: (message) => {
        if (message === MSG.waitingForHost) setPhase('waiting');
        else if (message === MSG.trainingAlreadyOpen) setPhase('already-open');
        else {
          setServerError(message);
          setPhase((p) => (p === 'joining' ? 'preview' : p));
        }
      },
      onReconnecting: (attempt) => setReconnecting(attempt),
      onClosed: (code) => {
        setReconnecting(null);
        setPhase((p) =>
          p === 'already-open' || code === 4409 ? 'already-open' : p === 'in' || p === 'joining' ? 'closed' : p,
        );
      },
    });
    client.current = c;
    window.__cfConference = {
      getStats: () => c.getStats(),
      localTracks: () => (streamRef.current?.getTracks() ?? []).map((t) => ({ kind: t.kind, enabled: t.enabled })),
    };
    return () => {
      c.leave();
      client.current = null;
      window.__cfConference = undefined;
    };
    // announce and nameOf are stable: the client lives as long as the factory
  }, [factory, announce, nameOf]);

  // who is speaking, from the peers' audio levels, announced sparingly (speaker-announcer.ts)
  useEffect(() => {
    if (phase !== 'in') return;
    const speaker = new SpeakerAnnouncer();
    let busy = false;
    const timer = setInterval(() => {
      const c = client.current;
      if (busy || !c?.audioLevels) return;
      busy = true;
      void c
        .audioLevels()
        .then((levels) => {
          const id = speaker.sample(levels, Date.now());
          if (id) announce(`${nameOf(id)} is speaking.`);
        })
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, SPEAKER_POLL_MS);
    return () => clearInterval(timer);
  }, [phase, announce, nameOf]);

  const toggleHand = () => {
    const raised = !handRaised;
    setHandRaised(raised);
    client.current?.send({ type: 'hand', raised });
    announce(raised ? 'Your hand is raised.' : 'Your hand is lowered.');
  };

  // media opened after joining, or another camera or microphone: the peers get the new tracks
  useEffect(() => {
    client.current?.setLocalStream(media.stream);
  }, [media.stream]);

  // keep our own tracks as the buttons say (also after a device change)
  useEffect(() => {
    for (const t of media.stream?.getAudioTracks() ?? []) t.enabled = audioOn;
    for (const t of media.stream?.getVideoTracks() ?? []) t.enabled = videoOn;
  }, [media.stream, audioOn, videoOn]);

  const join = () => {
    setPhase('joining');
    setServerError(null);
    client.current?.setLocalStream(media.stream);
    client.current?.join({
      wsUrl: props.wsUrl,
      slug,
      room: props.room,
      token: props.token,
      ticket: props.ticket,
      freshTicket: props.freshTicket,
      iceServers: props.iceServers,
    });
  };

  const leave = () => {
    client.current?.leave();
    for (const t of sharing?.getTracks() ?? []) t.stop();
    setPhase('closed');
    exitRef.current('left');
  };

  const toggleShare = async () => {
    if (sharing) {
      for (const t of sharing.getTracks()) t.stop();
      setSharing(null);
      await client.current?.replaceVideoTrack(null);
      return;
    }
    try {
      const screen = await navigator.mediaDevices.getDisplayMedia({ video: true });
      const track = screen.getVideoTracks()[0] ?? null;
      if (track)
        track.onended = () => {
          setSharing(null);
          void client.current?.replaceVideoTrack(null);
        };
      setSharing(screen);
      await client.current?.replaceVideoTrack(track);
    } catch {
      notifications.show({ color: 'red', message: 'The screen could not be shared.' });
    }
  };

  // whiteboard: live (throttled) to the room, saved (debounced) with the training. The board reports
  // only real changes of the drawing (Excalidraw's onChange also fires on pointer moves and scrolls).
  const lastSent = useRef(0);
  const sendTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestBoard = useRef<BoardScene>(board);
  const warnedTooLarge = useRef(false);
  const onBoardChange = (scene: BoardScene) => {
    setBoard(scene);
    latestBoard.current = scene;
    if (sceneTooLarge(scene)) {
      // the server refuses it: say so once instead of failing on every stroke
      if (!warnedTooLarge.current) {
        warnedTooLarge.current = true;
        notifications.show({
          color: 'red',
          message: 'The whiteboard is too large to share or save (512 KB). Remove some drawings.',
        });
      }
      return;
    }
    warnedTooLarge.current = false;
    const send = () => {
      lastSent.current = Date.now();
      sendTimer.current = null;
      client.current?.send({ type: 'whiteboard', scene: { ...latestBoard.current } });
    };
    const wait = SEND_EVERY_MS - (Date.now() - lastSent.current);
    if (wait <= 0) send();
    else if (!sendTimer.current) sendTimer.current = setTimeout(send, wait);
    if (saveTimer.current) clearTimeout(saveTimer.current);
    if (props.room === 'take-call') return;
    saveTimer.current = setTimeout(() => {
      void apiPost('save-whiteboard', { slug, scene: forSaving(latestBoard.current) }).catch(() => {
        notifications.show({ color: 'red', message: 'The whiteboard could not be saved.' });
      });
    }, SAVE_AFTER_MS);
  };
  useEffect(
    () => () => {
      if (sendTimer.current) clearTimeout(sendTimer.current);
      if (saveTimer.current) clearTimeout(saveTimer.current);
    },
    [],
  );

  const openBoard = async () => {
    if (boardOpen) {
      setBoardOpen(false);
      return;
    }
    setBoardOpen(true);
    if (props.room === 'take-call') return;
    try {
      const saved = await apiPost<{ success: { scene: Record<string, unknown> | null } }>('get-whiteboard', { slug });
      const stored = toBoardScene(saved.success.scene);
      // the saved board, unless something was drawn (or received) meanwhile
      if (liveElements(stored).length > 0 && latestBoard.current.elements.length === 0) {
        latestBoard.current = stored;
        setBoard((b) => (b.elements.length === 0 ? stored : b));
      }
    } catch {
      // a fresh board
    }
  };

  const tiles = useMemo(() => peers, [peers]);
  const subscribe = useCallback((streams: WantedStream[]) => client.current?.subscribe?.(streams), []);
  const selfTile = (
    <VideoTile
      name={me?.name ?? 'You'}
      stream={sharing ?? media.stream}
      self
      moderator={isModerator}
      audioOff={!audioOn}
      videoOff={!videoOn && !sharing}
    />
  );
  const peerNews = usePeerAnnouncements(peers);
  useEffect(() => {
    if (peerNews) announce(peerNews);
  }, [peerNews, announce]);
  // what a recording captures: ourselves (the shared screen while sharing) and every participant
  const recordSources = useMemo<MixSource[]>(
    () => [
      { id: me?.id ?? 'me', name: me?.name ?? 'You', stream: sharing ?? media.stream },
      ...peers.map((p) => ({ id: p.id, name: p.name, stream: p.stream })),
    ],
    [me, sharing, media.stream, peers],
  );

  if (phase === 'preview' || phase === 'joining') {
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
            <Button onClick={join} loading={phase === 'joining'} mt="sm">
              Join meeting
            </Button>
          </Stack>
        </SimpleGrid>
      </Paper>
    );
  }

  if (phase === 'waiting' || phase === 'already-open' || phase === 'closed') {
    return (
      <>
        <WaitingModal
          opened={phase === 'waiting'}
          retryLabel={guest ? 'Try Again' : 'Join Again'}
          onClose={leave}
          onRetry={() => client.current?.rejoin()}
        />
        <Modal opened={phase === 'already-open'} onClose={leave} title="Training already open" centered>
          <Stack>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <IconAlertTriangle size={22} aria-hidden />
              <Text>{MSG.trainingAlreadyOpen}</Text>
            </Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={leave}>
                Close
              </Button>
            </Group>
          </Stack>
        </Modal>
        {phase === 'closed' ? <Text c="dimmed">You have left the meeting.</Text> : null}
      </>
    );
  }

  return (
    <Stack gap="sm" maw={FRAME_WIDTH} mx="auto" w="100%">
      <VisuallyHidden role="log" aria-live="polite" aria-label="Meeting announcements" data-testid="cf-announcements">
        {news.map((n) => (
          <p key={n.id}>{n.text}</p>
        ))}
      </VisuallyHidden>
      <ConferenceToolbar
        audioOn={audioOn}
        videoOn={videoOn}
        sharing={sharing !== null}
        isModerator={isModerator}
        whiteboardOpen={boardOpen}
        handRaised={handRaised}
        onToggleHand={toggleHand}
        recording={roomRecording || serverRecording}
        onToggleAudio={() => setAudioOn((v) => !v)}
        onToggleVideo={() => setVideoOn((v) => !v)}
        onToggleShare={() => void toggleShare()}
        onLeave={leave}
        onMuteAll={(kind) => {
          client.current?.send({ type: 'mute-all', kind });
          notifications.show({
            message: kind === 'audio' ? "Everyone's audio is muted." : "Everyone's video is muted.",
          });
        }}
        onEndAll={() =>
          confirmAction({
            title: 'End meeting for all',
            message: 'Are you sure want to end the meeting for all?',
            danger: true,
            onConfirm: () => client.current?.send({ type: 'end-all' }),
          })
        }
        onToggleWhiteboard={() => void openBoard()}
        extra={
          props.toolbarExtra ??
          (isModerator && !guest && props.room !== 'take-call' && mediaMode === 'sfu' ? (
            <ServerRecordButton
              recording={serverRecording}
              onChange={(on) => {
                setServerRecording(on);
                client.current?.send({ type: 'recording', on });
                announce(on ? 'Recording started on the server.' : 'Recording stopped.');
              }}
            />
          ) : isModerator && !guest && props.room !== 'take-call' ? (
            <RecordButton
              slug={slug}
              stream={streamRef.current}
              sources={recordSources}
              onRecordingChange={(on) => {
                client.current?.send({ type: 'recording', on });
                announce(on ? 'Recording started.' : 'Recording stopped.');
              }}
            />
          ) : null)
        }
      />
      {serverError ? (
        <Alert color="red" withCloseButton onClose={() => setServerError(null)} role="alert">
          {serverError}
        </Alert>
      ) : null}
      {reconnecting !== null ? (
        <Alert color="yellow" role="status" data-testid="cf-reconnecting">
          The connection was lost. Reconnecting (attempt {reconnecting})…
        </Alert>
      ) : null}
      <Group align="stretch" gap="sm" wrap="wrap" h={{ md: frameHeight }} data-testid="cf-frame">
        <Box style={{ flex: '1 1 520px', minWidth: 0 }} h={{ base: 'auto', md: '100%' }}>
          {boardOpen ? (
            <Whiteboard
              scene={board}
              readOnly={!isModerator}
              onChange={isModerator ? onBoardChange : undefined}
              height={isModerator ? frameHeight : frameHeight - 30}
            />
          ) : mediaMode === 'sfu' ? (
            <SfuGrid
              self={selfTile}
              peers={peers}
              feeds={feeds}
              speaker={speaker}
              talking={talking}
              onSubscribe={subscribe}
            />
          ) : (
            <SimpleGrid
              cols={{ base: 1, sm: tiles.length === 0 ? 1 : 2, lg: tiles.length > 3 ? 3 : tiles.length === 0 ? 1 : 2 }}
              spacing="xs"
              h="100%"
              style={{ gridAutoRows: 'minmax(160px, 1fr)' }}
            >
              {selfTile}
              {tiles.map((p) => (
                <VideoTile key={p.id} name={p.name} stream={p.stream} moderator={p.isModerator} />
              ))}
            </SimpleGrid>
          )}
        </Box>
        <Paper withBorder p="xs" style={{ flex: '0 1 300px', minWidth: 260 }} h={{ base: 360, md: '100%' }}>
          <SidePanel
            me={me ? { ...me, hand: handRaised } : null}
            peers={peers}
            chat={chat}
            onSend={(text) => client.current?.send({ type: 'chat', text })}
          />
        </Paper>
      </Group>
    </Stack>
  );
}

function SidePanel({
  me,
  peers,
  chat,
  onSend,
}: {
  me: PeerInfo | null;
  peers: RemotePeer[];
  chat: ChatLine[];
  onSend: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    onSend(t);
    setText('');
  };
  const everyone = me ? [me, ...peers] : peers;
  return (
    <Tabs defaultValue="people" h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Tabs.List grow>
        <Tabs.Tab value="people">Participants ({everyone.length})</Tabs.Tab>
        <Tabs.Tab value="chat">Chat{chat.length ? ` (${chat.length})` : ''}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="people" pt="xs" style={{ flex: 1, minHeight: 0 }}>
        <ScrollArea h="100%">
          <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Participants">
            {everyone.map((p) => (
              <Group key={p.id} component="li" gap={6} justify="space-between" wrap="nowrap">
                <Text size="sm" truncate>
                  {p.name}
                  {p.id === me?.id ? ' (You)' : ''}
                </Text>
                <Group gap={4} wrap="nowrap">
                  {p.hand ? (
                    <Badge size="xs" color="orange.9" leftSection={<IconHandStop size={12} aria-hidden />}>
                      Hand raised
                    </Badge>
                  ) : null}
                  {p.isModerator ? (
                    <Badge size="xs" color="teal.9">
                      Host
                    </Badge>
                  ) : p.guest ? (
                    <Badge size="xs" variant="outline">
                      Guest
                    </Badge>
                  ) : null}
                </Group>
              </Group>
            ))}
          </Stack>
        </ScrollArea>
      </Tabs.Panel>
      <Tabs.Panel value="chat" pt="xs" style={{ flex: 1, minHeight: 0 }}>
        <Stack gap="xs" h="100%">
          <ScrollArea style={{ flex: 1 }} mih={200}>
            {/* read out through the room's announcements, whichever tab is open */}
            <Stack gap={4} aria-label="Chat messages">
              {chat.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No messages yet.
                </Text>
              ) : null}
              {chat.map((line) => (
                <Text key={`${line.at}-${line.from}-${line.text}`} size="sm">
                  <Text span fw={600}>
                    {line.name}:
                  </Text>{' '}
                  {line.text}
                </Text>
              ))}
            </Stack>
          </ScrollArea>
          <form onSubmit={submit}>
            <Group gap={4} wrap="nowrap">
              <TextInput
                aria-label="Chat message"
                placeholder="Type a message"
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                maxLength={2000}
                style={{ flex: 1 }}
              />
              <Button type="submit" size="sm">
                Send
              </Button>
            </Group>
          </form>
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}

export function WaitingModal({
  opened,
  retryLabel,
  onClose,
  onRetry,
  retrying,
}: {
  opened: boolean;
  retryLabel: string;
  onClose: () => void;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Training not started" centered>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconHourglass size={22} aria-hidden />
          <Text>{MSG.waitingForHost}</Text>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={onRetry} loading={retrying}>
            {retryLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
