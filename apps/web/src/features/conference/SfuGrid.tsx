import { Box, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { type GridTile, gridPage, type SfuFeed, tilesPerPage, type WantedStream, wantedStreams } from './grid-paging';
import type { RemotePeer } from './rtc-client';
import { VideoTile } from './VideoTile';

interface SfuGridProps {
  /** our own tile, first on every page */
  self: ReactNode;
  peers: RemotePeer[];
  feeds: SfuFeed[];
  /** the participant who spoke last (pulled onto the page) */
  speaker: string | null;
  /** the participants talking now (highlighted) */
  talking: ReadonlySet<string>;
  /** the whole set of streams this page shows (sent to the server when it changes) */
  onSubscribe: (streams: WantedStream[]) => void;
}

/**
 * The video grid of a room on the SFU: one page of tiles at a time (9 on a wide screen, 4 on a
 * phone), the moderators' camera and screen on every page, the active speaker pulled onto the page
 * shown. Only the streams shown are received (grid-paging.ts).
 */
export function SfuGrid({ self, peers, feeds, speaker, talking, onSubscribe }: SfuGridProps) {
  const { width } = useViewportSize();
  const perPage = tilesPerPage(width || 1280);
  const [page, setPage] = useState(0);
  const people = useMemo(() => peers.map((p) => ({ id: p.id, isModerator: p.isModerator })), [peers]);
  const grid = useMemo(
    () => gridPage({ people, feeds, speaker, page, perPage }),
    [people, feeds, speaker, page, perPage],
  );
  // fewer pages than the one shown (people left): the last page there is
  useEffect(() => {
    if (grid.page !== page) setPage(grid.page);
  }, [grid.page, page]);

  const wanted = useMemo(() => wantedStreams(grid, feeds), [grid, feeds]);
  const subscribeRef = useRef(onSubscribe);
  subscribeRef.current = onSubscribe;
  useEffect(() => {
    subscribeRef.current(wanted);
  }, [wanted]);

  const byId = useMemo(() => new Map(peers.map((p) => [p.id, p])), [peers]);
  const shown = [...grid.pinned, ...grid.tiles];
  const shownIds = new Set(shown.map((t) => t.peer));
  // voices received for someone not shown (when the server forwards every voice): heard, not seen
  const unseen = peers.filter((p) => !shownIds.has(p.id) && p.stream?.getAudioTracks().length);
  const cols = perPage >= 9 ? 3 : perPage >= 6 ? 3 : 2;

  const renderTile = (t: GridTile) => {
    const p = byId.get(t.peer);
    if (!p) return null;
    const screen = t.source === 'screen';
    return (
      <Box
        key={`${t.peer}:${t.source}`}
        style={t.spotlight && cols > 1 ? { gridColumn: `span ${Math.min(2, cols)}` } : undefined}
        data-spotlight={t.spotlight || undefined}
      >
        <VideoTile
          name={p.name}
          stream={(screen ? p.screen : p.stream) ?? null}
          moderator={p.isModerator}
          screen={screen}
          speaking={!screen && talking.has(t.peer)}
        />
      </Box>
    );
  };

  return (
    <Stack gap="xs" h="100%">
      {grid.pages > 1 ? (
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconChevronLeft size={14} aria-hidden />}
            disabled={grid.page === 0}
            onClick={() => setPage(grid.page - 1)}
          >
            Previous page
          </Button>
          <Text size="sm" role="status" aria-live="polite" data-testid="cf-grid-page">
            Page {grid.page + 1} of {grid.pages}
          </Text>
          <Button
            size="xs"
            variant="default"
            rightSection={<IconChevronRight size={14} aria-hidden />}
            disabled={grid.page >= grid.pages - 1}
            onClick={() => setPage(grid.page + 1)}
          >
            Next page
          </Button>
        </Group>
      ) : null}
      <SimpleGrid
        cols={{ base: Math.min(2, cols), sm: cols }}
        spacing="xs"
        style={{ gridAutoRows: 'minmax(140px, 1fr)', flex: 1 }}
        aria-label="Participants' videos"
        role="region"
      >
        {self}
        {shown.map(renderTile)}
      </SimpleGrid>
      {unseen.map((p) => (
        <HiddenAudio key={p.id} stream={p.stream} />
      ))}
    </Stack>
  );
}

/** Plays a participant's voice whose tile is on another page. */
function HiddenAudio({ stream }: { stream: MediaStream | null }) {
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el && el.srcObject !== stream) {
      el.srcObject = stream;
      if (stream) void el.play?.()?.catch(() => {});
    }
  }, [stream]);
  // biome-ignore lint/a11y/useMediaCaption: a live voice; the meeting has no captions to offer
  return <audio ref={ref} autoPlay hidden />;
}
