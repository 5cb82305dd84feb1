// Real-time precedence for SSER: T1 rt T2 (T1 ended before T2 started) as commit-order edges into real-time levels.

import type { History } from '../model/history.ts';

/**
 * Calls add(t1, t2) for a transitive reduction of the rt edges the commit order must extend:
 * t1 rt t2 (END1 < START2) between committed transactions with times, where `into(t2)` (t2 runs at
 * a level with `realTime`, levels.ts). Edge t1 → t2 is left out when some real-time transaction t3
 * lies between them (t1 rt t3 rt t2: both edges are kept or implied). Sorting by end time makes
 * the kept predecessors of t2 one contiguous run of enders, found by two binary searches, so the
 * edges number about (transactions × concurrency), not the n² pairs. Returns the edges added.
 * An `unknown` transaction has no known completion (its END is when the client gave up, and it may
 * take effect later, as Jepsen's :info): no rt edge leaves it, as in list-append histories; it is
 * still a target (it was invoked at START).
 */
export function forEachRealTimeEdge(h: History, into: (t: number) => boolean, add: (t1: number, t2: number) => void): number {
  const ts = h.txnTimeStart;
  const times = h.txnTimeEnd;
  if (!ts || !times) return 0;
  const unknown = h.txnUnknown;
  const te = unknown ? times.map((end, t) => (unknown[t] === 1 ? Infinity : end)) : times;
  const timed: number[] = [];
  let anyTarget = false;
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnAborted[t] === 1 || Number.isNaN(ts[t])) continue;
    timed.push(t);
    if (into(t)) anyTarget = true;
  }
  if (!anyTarget) return 0;
  const enders = Int32Array.from(timed.filter((t) => te[t] !== Infinity)).sort((a, b) => te[a] - te[b] || a - b);
  const m = enders.length;
  // bound[i]: the least end of a real-time transaction starting after enders[i] ends (Infinity if none).
  // Non-decreasing in i, since later enders leave fewer such transactions.
  const starters = Int32Array.from(timed.filter(into)).sort((a, b) => ts[a] - ts[b] || a - b);
  const minEndFrom = new Float64Array(starters.length + 1).fill(Infinity);
  for (let j = starters.length - 1; j >= 0; j--) minEndFrom[j] = Math.min(minEndFrom[j + 1], te[starters[j]]);
  const bound = new Float64Array(m);
  for (let i = 0, j = 0; i < m; i++) {
    while (j < starters.length && ts[starters[j]] <= te[enders[i]]) j++;
    bound[i] = minEndFrom[j];
  }
  let count = 0;
  for (const t2 of starters) {
    const s2 = ts[t2];
    // enders[0 .. hi) end before s2; from lo on, no real-time transaction lies between them and t2.
    const hi = firstFailing(m, (i) => te[enders[i]] < s2);
    const lo = firstFailing(hi, (i) => bound[i] < s2);
    for (let i = lo; i < hi; i++) {
      add(enders[i], t2);
      count++;
    }
  }
  return count;
}

/** The first i in [0, n) where `holds` (true on a prefix, then false) is false; n if none. */
function firstFailing(n: number, holds: (i: number) => boolean): number {
  let a = 0;
  let b = n;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (holds(mid)) a = mid + 1;
    else b = mid;
  }
  return a;
}
