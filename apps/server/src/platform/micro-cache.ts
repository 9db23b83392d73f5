/**
 * One value shared by every caller for a few seconds, computed once however many ask at the same
 * time. For public answers that are the same for everyone and may be a little behind (the landing's
 * trending lists): a busy landing runs their query once per interval, not once per visitor.
 */
export function microCache<T>(ttlMs: number, compute: () => Promise<T>, now: () => number = () => Date.now()) {
  let value: { at: number; result: Promise<T> } | null = null;
  return (): Promise<T> => {
    if (value && now() - value.at < ttlMs) return value.result;
    const entry = { at: now(), result: compute() };
    value = entry;
    // a failure is not kept: the next caller tries again
    entry.result.catch(() => {
      if (value === entry) value = null;
    });
    return entry.result;
  };
}
