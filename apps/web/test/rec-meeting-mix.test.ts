import { describe, expect, it } from 'vitest';
import { fitInto, gridFor } from '../src/features/recordings/meeting-mix';

describe('the recording grid', () => {
  it('lays n participants out in the fewest rows of near-square columns', () => {
    expect([1, 2, 3, 4, 5, 9, 10].map((n) => gridFor(n))).toEqual([
      { cols: 1, rows: 1 },
      { cols: 2, rows: 1 },
      { cols: 2, rows: 2 },
      { cols: 2, rows: 2 },
      { cols: 3, rows: 2 },
      { cols: 3, rows: 3 },
      { cols: 4, rows: 3 },
    ]);
    expect(gridFor(0)).toEqual({ cols: 1, rows: 1 });
  });

  it('fits a picture whole and centred into its tile', () => {
    // a 4:3 camera in a 16:9 tile: full height, bars left and right
    expect(fitInto(640, 480, { x: 0, y: 0, w: 640, h: 360 })).toEqual({ x: 80, y: 0, w: 480, h: 360 });
    // a 16:9 screen in a square tile: full width, bars above and below
    expect(fitInto(1600, 900, { x: 10, y: 10, w: 320, h: 320 })).toEqual({ x: 10, y: 80, w: 320, h: 180 });
    // no picture yet: the whole tile
    expect(fitInto(0, 0, { x: 1, y: 2, w: 3, h: 4 })).toEqual({ x: 1, y: 2, w: 3, h: 4 });
  });
});
