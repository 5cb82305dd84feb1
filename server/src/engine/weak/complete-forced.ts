// Every co edge the RC/RA/CC axioms force inside the cyclic components: the witness search's graph (verdicts use the minimal set).

import { EdgeList, EK_CO, PREMISE_HB, PREMISE_SO } from '../model/edges.ts';
import type { ClockGroups } from '../model/happens-before.ts';
import type { History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import type { Rule } from '../levels/levels.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { maxTxnSize, ReadBuffer } from './saturation-context.ts';

/** The rule a committed transaction's reads obey (homogeneous: one for all; mixed: its tag's), or null: not checked. */
export type RuleOf = (t: number) => Rule | null;

/**
 * Premise tests allowed when completing: beyond them the witness is searched among the minimal
 * edges only. Measured: on the bench's 1M-operation permissive file the completion (2M tests)
 * and the merged graph cost 80 ms of a 370 ms RC check; 250,000 covers histories of tens of
 * thousands of operations, where a reader follows the witness edge by edge, and keeps large
 * files at the minimal set's cost.
 */
export const COMPLETION_BUDGET = 250_000;

/**
 * The saturations keep a minimal set of forced edges (an edge implied by a path of others is left
 * out), which decides acyclicity exactly. The spec's witness is the cycle of so ∪ wr ∪ co' with
 * the fewest so ∪ wr edges, co' being every forced edge: a left-out edge `C →co A` beside the path
 * `C →so B →co A` is a cycle with one so ∪ wr edge fewer. So the witness search adds them back,
 * only between transactions of one cyclic component (an edge implied by a path adds no cycle
 * between components) and within a budget; null when it runs out or CC's clocks are missing.
 * CC's premise (t2 happens before the reader) is decided after the walk, a group of sessions at a
 * time when the clock table does not fit (clocks: ClockGroups): the same edges, in the same order.
 * An edge t2 →co t1 where t2 already happens before t1 is kept too: the spec's co' is every forced
 * edge, so `T1 →co T2` beside `T1 →so T2` makes the cycle with one so ∪ wr edge fewer (a monotonic
 * read's witness is the two edges its two reads force). Leaving them out, as CC's saturation does,
 * made 2–3% of the witnesses on small random histories rank below the spec's best
 * (test/witness-minimality.test.ts checks them against every cycle).
 */
export function completeForced(h: History, rf: ReadsFrom, clocks: () => ClockGroups | null, ruleOf: RuleOf,
  comp: Int32Array, size: Int32Array, budget: number): EdgeList | null {
  const cyclic = (t: number): boolean => comp[t] >= 0 && size[comp[t]] > 1;
  // The committed writers of each key inside cyclic components, grouped by key (counting sort).
  const keyStart = new Int32Array(h.keyCount + 1);
  let work = 0;
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnAborted[t] === 1 || !cyclic(t)) continue;
    for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) keyStart[rf.writeKeys[j] + 1]++;
    work += rf.writeKeyStart[t + 1] - rf.writeKeyStart[t];
  }
  if (work > budget) return null;
  for (let x = 0; x < h.keyCount; x++) keyStart[x + 1] += keyStart[x];
  const fill = keyStart.slice(0, h.keyCount);
  const writers = new Int32Array(keyStart[h.keyCount]);
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnAborted[t] === 1 || !cyclic(t)) continue;
    for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) writers[fill[rf.writeKeys[j]]++] = t;
  }

  const out = new EdgeList();
  const reads = new ReadBuffer(maxTxnSize(h));
  const firstStamp = new Int32Array(h.txnCount).fill(-1);
  const firstRead = new Int32Array(h.txnCount); // per source, the index of t3's po-first read from it
  let groups: ClockGroups | null = null;
  // CC's candidate edges (added to out, decided after the walk): their index in out and their reader.
  const candidate = new Int32Vec(16);
  const candidateReader = new Int32Vec(16);
  for (let t3 = 1; t3 < h.txnCount; t3++) {
    if (h.txnAborted[t3] === 1) continue;
    const rule = ruleOf(t3);
    if (rule === null) continue;
    const m = reads.load(h, rf, t3);
    const { op, key, src } = reads;
    let any = false;
    for (let p = 0; p < m; p++) {
      if (firstStamp[src[p]] !== t3) {
        firstStamp[src[p]] = t3;
        firstRead[src[p]] = p;
      }
      any ||= cyclic(src[p]);
    }
    if (!any) continue;
    if (rule === 'CC' && groups === null) {
      groups = clocks();
      if (groups === null) return null;
    }
    for (let p = 0; p < m; p++) {
      const t1 = src[p];
      if (!cyclic(t1)) continue;
      const x = key[p];
      for (let i = keyStart[x]; i < keyStart[x + 1]; i++) {
        // Every writer visited counts, the other components' too: a hot key's writers spread over
        // many small components would otherwise be scanned once per read, uncounted (quadratic).
        if (++work > budget) return null;
        const t2 = writers[i];
        if (t2 === t1 || t2 === t3 || comp[t2] !== comp[t1]) continue;
        const read = firstStamp[t2] === t3 ? firstRead[t2] : -1;
        // The premise as the edge's justification: t3's read from t2 (RC, RA), or so / happens-before.
        if (rule === 'RC') {
          if (read >= 0 && read < p) out.add(t2, t1, EK_CO, op[p], op[read]);
        } else if (rule === 'RA') {
          if (read >= 0) out.add(t2, t1, EK_CO, op[p], op[read]);
          else if (h.txnSession[t2] === h.txnSession[t3] && h.txnIndexInSession[t2] < h.txnIndexInSession[t3]) out.add(t2, t1, EK_CO, op[p], PREMISE_SO);
        } else {
          candidate.push(out.length);
          candidateReader.push(t3);
          out.add(t2, t1, EK_CO, op[p], PREMISE_HB);
        }
      }
    }
  }
  if (work > budget) return null;
  return candidate.length === 0 || groups === null ? out : withHappensBefore(h, out, candidate, candidateReader, groups);
}

/**
 * out without the candidate edges t2 →co t1 (read by `reader`) where t2 does not happen before the
 * reader, the others in their order: the clocks of the groups of sessions that have a candidate's
 * writer only, one group at a time.
 */
function withHappensBefore(h: History, out: EdgeList, candidate: Int32Vec, reader: Int32Vec, groups: ClockGroups): EdgeList {
  const n = candidate.length;
  const from = out.from.data;
  const wanted = new Uint8Array(h.sessionCount);
  for (let i = 0; i < n; i++) wanted[h.txnSession[from[candidate.data[i]]]] = 1;
  const drop = new Uint8Array(out.length);
  for (let i = 0; i < n; i++) drop[candidate.data[i]] = 1;
  for (let first = 0; first < h.sessionCount; first += groups.group) {
    const end = Math.min(h.sessionCount, first + groups.group);
    if (!wanted.subarray(first, end).includes(1)) continue;
    const vc = groups.clocksOf(first, end);
    for (let i = 0; i < n; i++) {
      const e = candidate.data[i];
      const t2 = from[e];
      const s = h.txnSession[t2] - vc.first;
      if (s < 0 || s >= vc.k) continue;
      if (vc.clock[reader.data[i] * vc.k + s] >= h.txnIndexInSession[t2]) drop[e] = 0;
    }
  }
  const kept = new EdgeList();
  for (let e = 0; e < out.length; e++) {
    if (drop[e] === 0) kept.add(from[e], out.to.data[e], out.kind.data[e], out.a.data[e], out.b.data[e]);
  }
  return kept;
}
