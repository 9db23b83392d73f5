import { notifications } from '@mantine/notifications';
import { type ConferenceRoomKind, MSG, type PeerInfo } from '@trainlab/contract';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { SfuFeed, WantedStream } from './grid-paging';
import type { ChatLine, CreateRtcClient, MediaMode, RemotePeer, RtcClientLike } from './rtc-client';

export type RoomPhase = 'preview' | 'joining' | 'in' | 'waiting' | 'already-open' | 'closed';

declare global {
  interface Window {
    /** for journeys: the live client's statistics and our own tracks */
    __cfConference?: { getStats: RtcClientLike['getStats']; localTracks: () => { kind: string; enabled: boolean }[] };
  }
}

/** What the room's other parts do with the server's messages (read at the time, so they may change). */
export interface RoomSignals {
  onMuted: (kind: 'audio' | 'video') => void;
  onWhiteboard: (scene: Record<string, unknown>) => void;
  onEnded: () => void;
}

export interface JoinTarget {
  wsUrl: string;
  slug: string;
  room?: ConferenceRoomKind;
  token?: string;
  ticket?: string;
  freshTicket?: () => Promise<string>;
  iceServers?: Record<string, unknown>[];
}

/**
 * The room's signalling: one RTC client for as long as the factory lives, and what it tells us
 * (who we are, the peers, chat, feeds, recording, errors, reconnects) as state.
 */
export function useRoomConnection({
  factory,
  client,
  announce,
  localStream,
  signals,
}: {
  factory: CreateRtcClient;
  client: RefObject<RtcClientLike | null>;
  announce: (text: string) => void;
  localStream: MediaStream | null;
  signals: RoomSignals;
}) {
  const [phase, setPhase] = useState<RoomPhase>('preview');
  const [me, setMe] = useState<PeerInfo | null>(null);
  const [isModerator, setIsModerator] = useState(false);
  const [peers, setPeers] = useState<RemotePeer[]>([]);
  const [chat, setChat] = useState<ChatLine[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  /** another moderator's recording (our own shows in the record button) */
  const [roomRecording, setRoomRecording] = useState(false);
  /** SFU rooms: the room's published streams, who spoke last and who is talking now */
  const [mediaMode, setMediaMode] = useState<MediaMode>('mesh');
  const [feeds, setFeeds] = useState<SfuFeed[]>([]);
  const [speaker, setSpeaker] = useState<string | null>(null);
  const [talking, setTalking] = useState<ReadonlySet<string>>(new Set());
  /** SFU rooms: our own server recording (the server records; no browser recorder) */
  const [serverRecording, setServerRecording] = useState(false);
  const [reconnecting, setReconnecting] = useState<number | null>(null);
  const meRef = useRef<PeerInfo | null>(null);
  meRef.current = me;
  const peersRef = useRef<RemotePeer[]>([]);
  peersRef.current = peers;
  const nameOf = useCallback((id: string) => peersRef.current.find((p) => p.id === id)?.name ?? 'Someone', []);
  // the client outlives renders: it reaches the other parts and our stream through refs
  const signalsRef = useRef(signals);
  signalsRef.current = signals;
  const streamRef = useRef<MediaStream | null>(null);
  streamRef.current = localStream;

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
        signalsRef.current.onMuted(kind);
        notifications.show({
          message: kind === 'audio' ? 'The host muted your microphone.' : 'The host turned your camera off.',
        });
      },
      onEnded: () => {
        notifications.show({ message: 'The meeting has been ended by the host.' });
        setPhase('closed');
        signalsRef.current.onEnded();
      },
      onWhiteboard: (scene) => signalsRef.current.onWhiteboard(scene),
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
    // announce and nameOf are stable, and so is the client ref: the client lives as long as the factory
  }, [factory, announce, nameOf, client]);

  const join = (target: JoinTarget) => {
    setPhase('joining');
    setServerError(null);
    client.current?.setLocalStream(localStream);
    client.current?.join(target);
  };

  const subscribe = useCallback((streams: WantedStream[]) => client.current?.subscribe?.(streams), [client]);

  return {
    phase,
    setPhase,
    me,
    isModerator,
    peers,
    chat,
    serverError,
    setServerError,
    roomRecording,
    mediaMode,
    feeds,
    speaker,
    talking,
    serverRecording,
    setServerRecording,
    reconnecting,
    nameOf,
    join,
    subscribe,
  };
}
