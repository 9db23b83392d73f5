/**
 * The paged video grid of a room on the selective forwarding unit (Janus): which tiles the page
 * shows and which streams it asks the server for. A browser decodes a bounded number of streams
 * however large the class (docs/decisions/0030-sfu-grid-paging.md):
 * - our own tile first (local, nothing to subscribe);
 * - every moderator's screen share and camera, on every page ("pinned");
 * - then one page of the other participants, in the order they joined;
 * - the active speaker, when on another page, takes the page's last place (highlighted).
 * Pure functions, so the rules are tested without a browser.
 */

import type { SfuFeed, SfuSource } from '@trainlab/contract';

export type { SfuFeed, SfuSource };
/** Simulcast layer: 0 the smallest (l), 2 the full picture (h). */
export type Substream = 0 | 1 | 2;

/** A stream the page wants (`sfu-subscribe`). */
export interface WantedStream {
  feed: string;
  source: SfuSource;
  substream?: Substream;
}

export interface GridPerson {
  id: string;
  isModerator: boolean;
}

export interface GridTile {
  /** the participant's id */
  peer: string;
  source: SfuSource;
  /** pinned: a moderator's camera or screen, shown on every page */
  pinned: boolean;
  /** the active speaker pulled onto this page from another one */
  pulled: boolean;
  /** shown large: a screen share, or the moderator's camera while nothing is shared */
  spotlight: boolean;
}

export interface GridInput {
  /** the other participants in join order (not ourselves) */
  people: GridPerson[];
  feeds: SfuFeed[];
  /** the participant speaking now (sfu-talking), if any */
  speaker: string | null;
  /** the page asked for, from 0 (clamped to the pages there are) */
  page: number;
  /** tiles per page, our own included */
  perPage: number;
}

export interface GridPage {
  pinned: GridTile[];
  tiles: GridTile[];
  /** the page shown, from 0 */
  page: number;
  pages: number;
}

/** Tiles per page by the width of the window: 3×3 on a wide screen, 2×3 on a tablet, 2×2 on a phone. */
export function tilesPerPage(width: number): number {
  if (width >= 1200) return 9;
  if (width >= 768) return 6;
  return 4;
}

/** The tiles of one page (see the module comment). */
export function gridPage({ people, feeds, speaker, page, perPage }: GridInput): GridPage {
  const has = (peer: string, source: SfuSource) => feeds.some((f) => f.peer === peer && f.source === source);
  const moderators = people.filter((p) => p.isModerator);
  const screens = moderators.filter((p) => has(p.id, 'screen'));
  const pinned: GridTile[] = [
    ...screens.map((p) => tile(p.id, 'screen', true, true)),
    ...moderators.map((p, i) => tile(p.id, 'camera', true, screens.length === 0 && i === 0)),
    // however many moderators: the page keeps a place for ourselves and one other
  ].slice(0, Math.max(1, perPage - 2));
  const others = people.filter((p) => !p.isModerator);
  // our own tile takes one place; at least one place is left for the others
  const room = Math.max(1, perPage - 1 - pinned.length);
  const pages = Math.max(1, Math.ceil(others.length / room));
  const current = Math.min(Math.max(0, page), pages - 1);
  const tiles = others.slice(current * room, (current + 1) * room).map((p) => tile(p.id, 'camera', false, false));
  const speakerIndex = speaker ? others.findIndex((p) => p.id === speaker) : -1;
  if (speaker && speakerIndex >= 0 && !tiles.some((t) => t.peer === speaker)) {
    const pulled = { ...tile(speaker, 'camera', false, false), pulled: true };
    if (tiles.length < room) tiles.push(pulled);
    else tiles[tiles.length - 1] = pulled;
  }
  return { pinned, tiles, page: current, pages };
}

function tile(peer: string, source: SfuSource, pinned: boolean, spotlight: boolean): GridTile {
  return { peer, source, pinned, pulled: false, spotlight };
}

/**
 * The streams to ask for: the shown tiles that are published. A spotlight asks the full picture,
 * tiles of a page of one or two ask the middle layer, and the small tiles of a fuller page the
 * smallest (a screen share has one layer only: no substream).
 */
export function wantedStreams(grid: GridPage, feeds: SfuFeed[]): WantedStream[] {
  const shown = [...grid.pinned, ...grid.tiles];
  const published = shown.filter((t) => feeds.some((f) => f.peer === t.peer && f.source === t.source));
  const small: Substream = shown.length + 1 <= 3 ? 1 : 0;
  return published.map((t) =>
    t.source === 'screen'
      ? { feed: t.peer, source: t.source }
      : { feed: t.peer, source: t.source, substream: t.spotlight ? 2 : small },
  );
}

/** A stable key of a wanted set, to send `sfu-subscribe` only when the set changes. */
export function streamsKey(streams: WantedStream[]): string {
  return streams
    .map((s) => `${s.feed}:${s.source}`)
    .sort()
    .join(',');
}
