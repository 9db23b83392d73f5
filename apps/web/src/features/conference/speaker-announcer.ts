/** Below this level (0–1, from the peer connection's statistics) a peer counts as silent. */
export const SPEAKING_LEVEL = 0.05;
/** A new speaker is named once they have been the loudest this long (short interjections are not). */
export const SPEAKER_STEADY_MS = 1500;
/** And at most one speaker announcement in this long, so a lively exchange does not chatter. */
export const SPEAKER_GAP_MS = 10_000;

/**
 * Decides when "X is speaking." is worth saying: the loudest peer above the silence level, steady
 * for a while, not the one last named, and not too soon after the last announcement.
 */
export class SpeakerAnnouncer {
  private candidate: string | null = null;
  private since = 0;
  private announced: string | null = null;
  private lastAt = Number.NEGATIVE_INFINITY;

  /** One measurement (peer id → level) at `now` ms; answers the peer id to announce, if any. */
  sample(levels: Record<string, number>, now: number): string | null {
    let loudest: string | null = null;
    let max = SPEAKING_LEVEL;
    for (const [id, level] of Object.entries(levels)) {
      if (level > max) {
        max = level;
        loudest = id;
      }
    }
    if (loudest !== this.candidate) {
      this.candidate = loudest;
      this.since = now;
      return null;
    }
    if (loudest === null || loudest === this.announced) return null;
    if (now - this.since < SPEAKER_STEADY_MS || now - this.lastAt < SPEAKER_GAP_MS) return null;
    this.announced = loudest;
    this.lastAt = now;
    return loudest;
  }
}
