import { createHash } from 'node:crypto';

/** A small deterministic generator (mulberry32) seeded from a text. */
function generator(seedText: string): () => number {
  let a = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export interface DrawCounts {
  Beginner: number;
  Intermediate: number;
  Advanced: number;
}

/**
 * One learner's questions of an automatic test: `counts[level]` distinct questions per level taken
 * from `pool` (ids per level, in id order), then put in the learner's own order. The same seed and
 * learner always give the same draw; another learner gets another draw.
 */
export function drawFor(
  seed: string,
  userId: number,
  pool: Record<keyof DrawCounts, number[]>,
  counts: DrawCounts,
): number[] {
  const next = generator(`${seed}:${userId}`);
  const picked: number[] = [];
  for (const level of ['Beginner', 'Intermediate', 'Advanced'] as const) {
    const ids = [...pool[level]].sort((x, y) => x - y);
    picked.push(...shuffle(ids, next).slice(0, counts[level]));
  }
  return shuffle(picked, next);
}
