// Runs of chained edges of one kind in a cycle, merged into one edge each (session order is transitive: T3 → T9 [so]).

/**
 * The cycle with each maximal run of consecutive `inRun` edges that chain (one's `to` is the next
 * one's `from`) replaced by `merge(first, last)`. It starts at an edge that continues no run (the
 * first, unless a run wraps around the end); a cycle made only of such edges comes back as it is.
 */
export function mergeRuns<E extends { from: number; to: number }>(cycle: readonly E[], inRun: (e: E) => boolean, merge: (first: E, last: E) => E): E[] {
  const n = cycle.length;
  const continues = (i: number): boolean => {
    const a = cycle[(i + n - 1) % n];
    return n > 1 && inRun(a) && inRun(cycle[i]) && a.to === cycle[i].from;
  };
  let start = 0;
  while (start < n && continues(start)) start++;
  if (start === n) return [...cycle];
  const out: E[] = [];
  let first = cycle[start];
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    if (k > 0 && continues(i)) {
      out[out.length - 1] = merge(first, cycle[i]);
    } else {
      first = cycle[i];
      out.push(cycle[i]);
    }
  }
  return out;
}
