import { describe, expect, it } from 'vitest';
import {
  gridPage,
  type SfuFeed,
  streamsKey,
  tilesPerPage,
  wantedStreams,
} from '../src/features/conference/grid-paging';

const learners = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `l${i + 1}`, isModerator: false }));
const host = { id: 'h1', isModerator: true };
const cameras = (ids: string[], moderator = false): SfuFeed[] =>
  ids.map((peer) => ({ peer, source: 'camera', moderator }));

describe('the SFU grid pages', () => {
  it('shows 9 tiles at 1280 px, 6 on a tablet and 4 at 360 px', () => {
    expect(tilesPerPage(1280)).toBe(9);
    expect(tilesPerPage(900)).toBe(6);
    expect(tilesPerPage(360)).toBe(4);
  });

  it('keeps the moderator’s camera on every page and pages the learners around it', () => {
    const people = [host, ...learners(20)];
    const feeds = [...cameras(['h1'], true), ...cameras(people.slice(1).map((p) => p.id))];
    // 9 places: ourselves, the host, and 7 learners a page → 3 pages for 20 learners
    const first = gridPage({ people, feeds, speaker: null, page: 0, perPage: 9 });
    expect(first.pages).toBe(3);
    expect(first.pinned).toEqual([{ peer: 'h1', source: 'camera', pinned: true, pulled: false, spotlight: true }]);
    expect(first.tiles.map((t) => t.peer)).toEqual(['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7']);
    const last = gridPage({ people, feeds, speaker: null, page: 2, perPage: 9 });
    expect(last.pinned.map((t) => t.peer)).toEqual(['h1']);
    expect(last.tiles.map((t) => t.peer)).toEqual(['l15', 'l16', 'l17', 'l18', 'l19', 'l20']);
    // a page past the end (people left) is the last page there is
    expect(gridPage({ people, feeds, speaker: null, page: 7, perPage: 9 }).page).toBe(2);
  });

  it('puts a moderator’s screen share first, in the spotlight, beside the camera', () => {
    const people = [host, ...learners(3)];
    const feeds: SfuFeed[] = [...cameras(['h1'], true), { peer: 'h1', source: 'screen', moderator: true }];
    const grid = gridPage({ people, feeds, speaker: null, page: 0, perPage: 4 });
    expect(grid.pinned.map((t) => `${t.peer}:${t.source}:${t.spotlight}`)).toEqual([
      'h1:screen:true',
      'h1:camera:false',
    ]);
    // 4 places: ourselves, the screen, the camera → one learner a page
    expect(grid.tiles.map((t) => t.peer)).toEqual(['l1']);
    expect(grid.pages).toBe(3);
  });

  it('pulls the active speaker onto the page shown, in its last place', () => {
    const people = [host, ...learners(12)];
    const feeds = cameras(people.map((p) => p.id));
    const grid = gridPage({ people, feeds, speaker: 'l11', page: 0, perPage: 4 });
    expect(grid.tiles.map((t) => `${t.peer}${t.pulled ? '*' : ''}`)).toEqual(['l1', 'l11*']);
    // already on the page: nothing moves
    expect(gridPage({ people, feeds, speaker: 'l2', page: 0, perPage: 4 }).tiles.map((t) => t.peer)).toEqual([
      'l1',
      'l2',
    ]);
    // a speaking moderator is pinned anyway; someone who left is not pulled
    expect(gridPage({ people, feeds, speaker: 'h1', page: 0, perPage: 4 }).tiles.map((t) => t.peer)).toEqual([
      'l1',
      'l2',
    ]);
    expect(gridPage({ people, feeds, speaker: 'gone', page: 0, perPage: 4 }).tiles.map((t) => t.peer)).toEqual([
      'l1',
      'l2',
    ]);
  });
});

describe('the streams a page asks for', () => {
  it('asks only the published streams shown: the spotlight in full, small tiles the smallest layer', () => {
    const people = [host, ...learners(20)];
    // l3 publishes nothing (no camera): its tile shows, nothing is asked for it
    const feeds = [
      ...cameras(['h1'], true),
      ...cameras(
        people
          .slice(1)
          .map((p) => p.id)
          .filter((id) => id !== 'l3'),
      ),
    ];
    const grid = gridPage({ people, feeds, speaker: 'l20', page: 0, perPage: 9 });
    expect(wantedStreams(grid, feeds)).toEqual([
      { feed: 'h1', source: 'camera', substream: 2 },
      { feed: 'l1', source: 'camera', substream: 0 },
      { feed: 'l2', source: 'camera', substream: 0 },
      { feed: 'l4', source: 'camera', substream: 0 },
      { feed: 'l5', source: 'camera', substream: 0 },
      { feed: 'l6', source: 'camera', substream: 0 },
      { feed: 'l20', source: 'camera', substream: 0 },
    ]);
  });

  it('asks the middle layer when only one or two others are shown, and no layer of a screen', () => {
    const people = [host, ...learners(1)];
    const feeds: SfuFeed[] = [
      ...cameras(['h1'], true),
      { peer: 'h1', source: 'screen', moderator: true },
      ...cameras(['l1']),
    ];
    const grid = gridPage({ people, feeds, speaker: null, page: 0, perPage: 9 });
    expect(wantedStreams(grid, feeds)).toEqual([
      { feed: 'h1', source: 'screen' },
      { feed: 'h1', source: 'camera', substream: 0 },
      { feed: 'l1', source: 'camera', substream: 0 },
    ]);
    const two = gridPage({ people: learners(2), feeds: cameras(['l1', 'l2']), speaker: null, page: 0, perPage: 9 });
    expect(wantedStreams(two, cameras(['l1', 'l2'])).map((s) => s.substream)).toEqual([1, 1]);
  });

  it('keys a set by its streams, not by their order or layers', () => {
    expect(
      streamsKey([
        { feed: 'b', source: 'camera', substream: 0 },
        { feed: 'a', source: 'screen' },
      ]),
    ).toBe(
      streamsKey([
        { feed: 'a', source: 'screen' },
        { feed: 'b', source: 'camera', substream: 2 },
      ]),
    );
  });
});
