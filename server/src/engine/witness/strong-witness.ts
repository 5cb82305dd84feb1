// Explains a strong-level violation on its minimal sub-history: a forced cycle, or per-order failures.

import { opSpan, txnSpan, writesKey, type ReadsFrom } from '../model/reads-from.ts';
import { forEachRealTimeEdge } from '../strong/real-time.ts';
import { BOTTOM, type History } from '../model/history.ts';
import { CheckContext } from '../weak/level-check.ts';
import { levelRow, type Level } from '../levels/levels.ts';
import type { Restricted } from '../model/restrict.ts';
import { enumerateOrders } from '../strong/strong-check.ts';
import { EdgeList } from '../model/edges.ts';
import { verifyOrder } from '../strong/verify-order.ts';
import { sessionPredecessors } from '../model/happens-before.ts';
import { orderFailureText } from './order-failure.ts';
import { Explainer, type Witness, type WitnessEdge } from './witness.ts';

/** Sub-histories up to this size get every commit order explained; larger ones only a summary. */
const MAX_ORDER_TXNS = 8;
/** The forced-cycle derivation takes n³ per round (all-pairs paths): only on small sub-histories. */
const MAX_CYCLE_TXNS = 60;
/** Work bound of one forced-cycle derivation (reads × transactions and n³ per round). */
const CYCLE_STEPS = 50_000_000;
/** The whole history's cycle is looked for up to this many operations (litmus-sized histories). */
const MAX_WHOLE_OPS = 4_000;

/**
 * The witness of a strong-level violation, on the minimal sub-history: for SER a cycle of edges
 * every commit order must contain when propagation finds one (write skew: two anti-dependencies);
 * otherwise, for each way to order the transactions left, the read that fails.
 */
export function explainStrong(anomaly: string, h: History, rf: ReadsFrom, levelOf: (t: number) => Level, maxOrders: number): Witness {
  const explain = new Explainer(h, rf, null);
  const committed = h.txnCount - 1;
  const cycle = committed <= MAX_CYCLE_TXNS ? forcedCycle(h, rf, explain, levelOf) : null;
  const ctx = new CheckContext(h, rf);
  const failures: { text: string; readOp: number }[] = [];
  const seen = new Set<string>();
  let orders = 0;
  if (committed <= MAX_ORDER_TXNS) enumerateOrders(ctx, new EdgeList(), (order) => {
    orders++;
    const f = verifyOrder(h, rf, levelOf, order);
    if (f) {
      const id = `${f.readOp}:${f.t2}`;
      if (!seen.has(id)) {
        seen.add(id);
        failures.push({ readOp: f.readOp, text: orderFailureText(h, rf, explain, levelOf, order, f) });
      }
    }
    return orders >= maxOrders;
  });
  const first = cycle?.find((e) => e.readOp >= 0) ?? null;
  const readOp = first?.readOp ?? failures[0]?.readOp ?? -1;
  // Nothing explained: the part's first transaction (the earliest in the file's canonical order) marks it.
  const span = readOp >= 0 ? opSpan(h, readOp) : h.txnCount > 1 ? txnSpan(h, 1) : { start: 0, end: 0 };
  const txns = [];
  for (let t = 1; t < h.txnCount; t++) txns.push(explain.txn(t));
  const message = cycle
    ? cycleMessage(anomaly, txns, cycle)
    : failures.length > 0
      ? `no commit order of ${txns.join(', ')} satisfies ${anomaly}: ${failures.map((f) => f.text).join('; ')}`
      : `no commit order satisfies ${anomaly}; the smallest violating part found within the work budget has ${committed} transactions: ${txns.slice(0, 12).join(', ')}${committed > 12 ? ', …' : ''}`;
  return { anomaly, edges: cycle ?? [], message, span, explanation: failures.map((f) => f.text), readOps: [...new Set([readOp, ...failures.map((f) => f.readOp)])].filter((x) => x >= 0) };
}

/**
 * The forced cycle of the whole history when it is small enough (else null): the spec prefers,
 * among cycles, the one with the fewest so ∪ wr edges, then the shortest, and the smallest
 * violating part the minimiser keeps depends on the transactions' names (which part it tries
 * first), so its cycle may be a worse one than the whole history forces. Its message names the
 * cycle's transactions.
 */
export function wholeHistoryCycle(anomaly: string, h: History, rf: ReadsFrom, levelOf: (t: number) => Level): Witness | null {
  // Every transaction counts (aborted ones size the matrices too), and the operations.
  if (h.txnCount - 1 > MAX_CYCLE_TXNS || h.opCount > MAX_WHOLE_OPS) return null;
  const explain = new Explainer(h, rf, null);
  const cycle = forcedCycle(h, rf, explain, levelOf);
  if (!cycle) return null;
  const readOp = cycle.find((e) => e.readOp >= 0)?.readOp ?? -1;
  const txns = [...new Set(cycle.map((e) => e.from))].map((t) => explain.txn(t));
  return {
    anomaly, edges: cycle, span: readOp >= 0 ? opSpan(h, readOp) : cycle[0].span,
    message: cycleMessage(anomaly, txns, cycle),
    explanation: [], readOps: readOp >= 0 ? [readOp] : [],
  };
}

/** A forced cycle's message: the transactions, then why each order edge is forced. */
function cycleMessage(anomaly: string, txns: readonly string[], cycle: readonly WitnessEdge[]): string {
  return `no commit order can satisfy ${anomaly} for ${txns.join(', ')}: ${cycle.filter((e) => e.kind !== 'so' && e.kind !== 'wr').map((e) => e.because).join('; ')}`;
}

/** A cycle's cost as the spec ranks witnesses: so ∪ wr edges first, then length (lower is better). */
function cycleRank(edges: readonly WitnessEdge[]): [number, number] {
  return [edges.filter((e) => e.kind === 'so' || e.kind === 'wr').length, edges.length];
}

/** Whether cycle a ranks strictly before cycle b (fewer so ∪ wr edges, else shorter). */
export function ranksBefore(a: readonly WitnessEdge[], b: readonly WitnessEdge[]): boolean {
  const [ca, la] = cycleRank(a);
  const [cb, lb] = cycleRank(b);
  return ca !== cb ? ca < cb : la < lb;
}

/**
 * Edges forced in every valid commit order, propagated until they close a cycle (the witness) or
 * nothing changes (null). The base: so, wr, ⊥ first, rt into real-time readers. Then, for a read
 * of x in t3 from t1 and another writer t2 of x, by t3's level (strong-propagation.ts applies the
 * same rules to decide; these name each edge's read and premise):
 * - t2 visible to t3 in every order (SER: t2 commits before t3; PC and SI: before one of t3's
 *   so ∪ wr predecessors or one of them; PSI: in t3's causal past; SI and PSI: a writer of a key
 *   t3 writes that commits before it) ⇒ t2 commits before t1 (ww);
 * - t1 commits before t2 in every order (or t1 is ⊥) ⇒ t2 must not be visible: t3 commits before
 *   t2 (SER; SI and PSI when they write a common key), and for PC and SI every so ∪ wr
 *   predecessor of t3 commits before t2 (rw). Weak readers (mixed levels) add no edge here.
 */
function forcedCycle(h: History, rf: ReadsFrom, explain: Explainer, levelOf: (t: number) => Level): WitnessEdge[] | null {
  const n = h.txnCount;
  type E = { from: number; to: number; edge: WitnessEdge; causal: boolean };
  const edges: E[] = [];
  // One stored edge per ordered pair: a transaction that reads one writer 100,000 times is one wr
  // edge, so the graph has at most n² edges whatever the operations. A pair with a so or wr edge
  // and an rt edge keeps the rt one (cycles rank by their so ∪ wr edges), and its causal link
  // still counts for happens-before (causalPairs).
  const known = new Map<number, number>();
  const causalSeen = new Set<number>();
  const causalPairs: { from: number; to: number }[] = [];
  const add = (from: number, to: number, edge: WitnessEdge, causal = false): void => {
    const k = from * n + to;
    if (causal && !causalSeen.has(k)) {
      causalSeen.add(k);
      causalPairs.push({ from, to });
    }
    const i = known.get(k);
    if (i === undefined) {
      known.set(k, edges.length);
      edges.push({ from, to, edge, causal });
    } else if (edges[i].causal && !causal) edges[i] = { from, to, edge, causal };
  };
  const soPrev = sessionPredecessors(h);
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (let t = 1; t < n; t++) {
    if (soPrev[t] < 0) continue;
    // Session order is transitive: an edge from every earlier transaction of the session, so that a
    // cycle along a session counts one so edge, as the spec ranks them (n is small here).
    for (let u = soPrev[t]; u >= 0; u = soPrev[u]) add(u, t, explain.edge({ from: u, to: t, kind: 0, a: -1, b: -1 }), true);
    preds[t].push(soPrev[t]);
  }
  // SSER: real time orders the commit order into real-time transactions.
  forEachRealTimeEdge(h, (t) => levelRow(levelOf(t)).realTime, (t1, t2) => add(t1, t2, realTimeEdge(h, explain, t1, t2)));
  const reads: { op: number; t3: number; t1: number; x: number }[] = [];
  // Reads of one key from one writer by one transaction derive the same edges (but at RC, where
  // which read came first matters): the first stands for them all (per transaction, by writer and key).
  const readSeen = new Set<number>();
  for (let t = 1; t < n; t++) {
    if (h.txnAborted[t] === 1) continue;
    add(BOTTOM, t, explain.edge({ from: BOTTOM, to: t, kind: 3, a: -1, b: -1 }), true);
    const rc = levelOf(t) === 'RC';
    readSeen.clear();
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const t1 = rf.wrSource[o];
      if (t1 < 0) continue;
      const id = t1 * h.keyCount + h.opKey[o];
      if (!rc && readSeen.has(id)) continue;
      readSeen.add(id);
      reads.push({ op: o, t3: t, t1, x: h.opKey[o] });
      if (t1 !== BOTTOM) {
        // (Its sentence is built only for the pair's first read.)
        if (!causalSeen.has(t1 * n + t)) add(t1, t, explain.edge({ from: t1, to: t, kind: 1, a: o, b: -1 }), true);
        if (!preds[t].includes(t1)) preds[t].push(t1);
      }
    }
  }
  // The base edges alone may close a cycle (a session whose times run backwards, for SSER).
  const base = bestCycle(n, edges, false);
  if (base) return base;
  // so ∪ wr (and ⊥ first): only base edges are causal, so their closure is taken once.
  const causalClosure = closure(n, causalPairs);
  const causalReach = (a: number, b: number): boolean => causalClosure[a * n + b] === 1;
  let reachable = closure(n, edges);
  const reach = (a: number, b: number): boolean => reachable[a * n + b] === 1;
  // Work steps (reads × transactions and n³ per round), not time: past the bound, no cycle (the
  // witness then explains orders instead), the same on every machine.
  let steps = 0;
  const commonKey = (a: number, b: number): number => {
    for (let j = rf.writeKeyStart[a]; j < rf.writeKeyStart[a + 1]; j++) if (writesKey(rf, b, rf.writeKeys[j])) return rf.writeKeys[j];
    return -1;
  };
  // In rounds: each derives every edge it can from the graph as the round found it (acyclic, so each
  // edge's reason is a real one), and adds them at its end. The first round that closes a cycle
  // gives the witness: among all its cycles the one with the fewest so ∪ wr edges, then the
  // shortest (semantics: the anomaly at the weakest level), whatever the transactions are named.
  for (;;) {
    steps += reads.length * n + n * n * n;
    if (steps > CYCLE_STEPS) return null;
    const fresh: E[] = [];
    const add = (from: number, to: number, edge: WitnessEdge): void => {
      if (known.has(from * n + to)) return;
      known.set(from * n + to, edges.length + fresh.length);
      fresh.push({ from, to, edge, causal: false });
    };
    for (const r of reads) {
      // (An RC reader's look for an earlier read scans its transaction: counted, and the bound
      // checked per read, so a transaction of thousands of RC reads cannot run away in one round.)
      if (steps > CYCLE_STEPS) return null;
      const row = levelRow(levelOf(r.t3));
      const vis = row.visibility;
      const prefix = vis.prefix && !vis.total;
      const causal = vis.transitive && !vis.total && !vis.prefix;
      // Weak readers (mixed levels) force only their rule's edge: RC a writer read earlier, RA one
      // read from or earlier in the session, CC one in the causal past.
      const weak = row.strength === 'weak' ? row.rule : null;
      for (let t2 = 1; t2 < n; t2++) {
        if (t2 === r.t1 || t2 === r.t3 || h.txnAborted[t2] === 1 || !writesKey(rf, t2, r.x)) continue;
        if (reach(t2, r.t1)) continue;
        const x = explain.key(r.x);
        const T3 = explain.txn(r.t3);
        const T2 = explain.txn(t2);
        const after = r.t1 === BOTTOM || reach(r.t1, t2);
        const conflict = vis.noConflict ? commonKey(t2, r.t3) : -1;
        // Why t2 is visible to t3 in every order, if it is.
        let seen: string | null = null;
        if (weak === 'RC') {
          steps += r.op - h.txnOpStart[r.t3];
          const q = earlierReadFrom(h, rf, r.op, t2);
          if (q >= 0) seen = `${T3} (at ${levelOf(r.t3)}) ${explain.readPhrase(q)} before it ${explain.readPhrase(r.op)}`;
        } else if (weak === 'RA') {
          if (sessionBefore(h, t2, r.t3)) seen = `${T2} precedes ${T3} in its session, and ${T3} (at RA) ${explain.readPhrase(r.op)}`;
          else if (preds[r.t3].includes(t2)) seen = `${T3} (at RA) read from ${T2} and ${explain.readPhrase(r.op)}`;
        } else if (weak === 'CC') {
          if (causalReach(t2, r.t3)) seen = `${T2} happens before ${T3}, which (at CC) ${explain.readPhrase(r.op)}`;
        } else if (vis.total && reach(t2, r.t3)) seen = `${T2} commits before ${T3}, which ${explain.readPhrase(r.op)}`;
        else if (prefix) {
          const u = preds[r.t3].find((p) => p === t2 || reach(t2, p));
          if (u !== undefined) seen = `${T3} sees ${T2} (${u === t2 ? `${T3} follows it or read from it` : `${T2} commits before ${explain.txn(u)}, which ${T3} follows or read from`}) and ${explain.readPhrase(r.op)}`;
        } else if (weak === null && causal && causalReach(t2, r.t3)) seen = `${T2} happens before ${T3}, which ${explain.readPhrase(r.op)}`;
        if (seen === null && conflict >= 0 && reach(t2, r.t3)) seen = `${T2} commits before ${T3} and both write ${explain.key(conflict)}, so ${T3} sees ${T2}, and ${T3} ${explain.readPhrase(r.op)}`;
        // A premise that t1 commits before t2 is kept on the cycle: the anti-dependency edges first
        // (their cycle runs through why t2 is visible), the ww edge when nothing else applies.
        const u = after && prefix && !preds[r.t3].includes(t2) ? preds[r.t3].find((p) => !reach(p, t2)) : undefined;
        if (after && (vis.total || conflict >= 0) && !reach(r.t3, t2)) {
          const why = vis.total ? '' : ` and both write ${explain.key(conflict)}, so ${T2} committing first would be in ${T3}'s snapshot`;
          add(r.t3, t2, { from: r.t3, to: t2, kind: 'rw', key: r.x, readOp: r.op, span: opSpan(h, r.op),
            because: `${T3} must commit before ${T2}: ${T3} ${explain.readPhrase(r.op)}, which ${T2} overwrites (anti-dependency)${why}` });
        } else if (u !== undefined) {
          add(u, t2, { from: u, to: t2, kind: 'co', bySnapshot: true, key: r.x, readOp: r.op, span: opSpan(h, r.op),
            because: `${explain.txn(u)} must commit before ${T2}: ${T3} ${explain.readPhrase(r.op)}, which ${T2} overwrites, so ${T2} is not in ${T3}'s snapshot, which holds ${explain.txn(u)} (${T3} follows it or read from it)` });
        } else if (seen !== null) {
          add(t2, r.t1, { from: t2, to: r.t1, kind: 'ww', key: r.x, readOp: r.op, span: opSpan(h, r.op),
            because: `${T2} must commit before ${explain.txn(r.t1)}: ${seen}, and ${T2} also writes ${x}` });
        }
      }
    }
    if (fresh.length === 0) return null;
    for (const e of fresh) edges.push(e); // no spread: a derivation round may add more edges than the stack holds arguments
    const cycle = bestCycle(n, edges, true);
    if (cycle) return cycle;
    reachable = closure(n, edges);
  }
}

/** A read of t3 before op o that read from t (RC's premise), or -1. */
function earlierReadFrom(h: History, rf: ReadsFrom, o: number, t: number): number {
  for (let q = h.txnOpStart[h.opTxn[o]]; q < o; q++) if (rf.wrSource[q] === t) return q;
  return -1;
}

/** Whether a comes before b in one session. */
function sessionBefore(h: History, a: number, b: number): boolean {
  return a !== BOTTOM && h.txnSession[a] === h.txnSession[b] && h.txnIndexInSession[a] < h.txnIndexInSession[b];
}

/** "T1 must commit before T2: T1 finished (at 130) before T2 started (at 140)". */
export function realTimeEdge(h: History, explain: Explainer, t1: number, t2: number): WitnessEdge {
  const a = explain.txn(t1);
  const b = explain.txn(t2);
  return {
    from: t1, to: t2, kind: 'co', key: -1, readOp: -1, span: txnSpan(h, t2),
    because: `${a} must commit before ${b}: ${a} finished (at ${h.txnTimeEnd?.[t1]}) before ${b} started (at ${h.txnTimeStart?.[t2]})`,
  };
}

/** Reachability over the edge list as an n × n matrix (1: a path of one edge or more): a search from each node over an adjacency matrix (n³ at most, whatever the edges). */
function closure(n: number, edges: readonly { from: number; to: number }[]): Uint8Array {
  const adj = new Uint8Array(n * n);
  for (const e of edges) adj[e.from * n + e.to] = 1;
  const m = new Uint8Array(n * n);
  const stack = new Int32Array(n);
  for (let a = 0; a < n; a++) {
    let top = 0;
    for (let v = 0; v < n; v++) {
      if (adj[a * n + v] === 1 && m[a * n + v] === 0) {
        m[a * n + v] = 1;
        stack[top++] = v;
      }
    }
    while (top > 0) {
      const v = stack[--top];
      for (let w = 0; w < n; w++) {
        if (adj[v * n + w] === 1 && m[a * n + w] === 0) {
          m[a * n + w] = 1;
          stack[top++] = w;
        }
      }
    }
  }
  return m;
}

/**
 * The cycle of the edge list with the fewest causal (so ∪ wr, ⊥ first) edges, then the fewest
 * edges (small graphs only), or null: all-pairs cheapest paths where a causal edge costs more
 * than any path of other edges, then the cheapest edge plus its way back (ties: the first edge).
 */
function bestCycle(n: number, edges: readonly { from: number; to: number; edge: WitnessEdge; causal: boolean }[], fromLast: boolean): WitnessEdge[] | null {
  const heavy = edges.length + 1;
  const cost = (e: { causal: boolean }): number => (e.causal ? heavy : 1);
  const INF = Number.POSITIVE_INFINITY;
  const dist = new Float64Array(n * n).fill(INF);
  /** The first edge of a cheapest path from a to b. */
  const first = new Int32Array(n * n).fill(-1);
  edges.forEach((e, i) => {
    const k = e.from * n + e.to;
    if (e.from !== e.to && cost(e) < dist[k]) {
      dist[k] = cost(e);
      first[k] = i;
    }
  });
  for (let m = 0; m < n; m++) {
    for (let a = 0; a < n; a++) {
      const am = dist[a * n + m];
      if (am === INF) continue;
      for (let b = 0; b < n; b++) {
        const d = am + dist[m * n + b];
        if (d < dist[a * n + b]) {
          dist[a * n + b] = d;
          first[a * n + b] = first[a * n + m];
        }
      }
    }
  }
  let best = -1;
  let bestCost = INF;
  edges.forEach((e, i) => {
    const back = e.from === e.to ? 0 : dist[e.to * n + e.from];
    if (cost(e) + back < bestCost) {
      bestCost = cost(e) + back;
      best = i;
    }
  });
  if (best < 0) return null;
  const ids = [best];
  for (let v = edges[best].to; v !== edges[best].from;) {
    const next = first[v * n + edges[best].from];
    ids.push(next);
    v = edges[next].to;
  }
  // Told from the edge derived last (the one that closed the cycle), as the derivation found it;
  // a cycle of base edges from the first (session order before the real time that contradicts it).
  const start = ids.indexOf(ids.reduce((m, i) => (fromLast ? Math.max(m, i) : Math.min(m, i)))); // folded: a long cycle spread overflowed the stack
  return [...ids.slice(start), ...ids.slice(0, start)].map((i) => edges[i].edge);
}

/** A witness found on a sub-history, with transaction and operation ids of the history it came from. */
export function liftWitness(w: Witness, sub: Pick<Restricted, 'txnOrigin' | 'opOrigin'>): Witness {
  const op = (o: number): number => (o >= 0 ? sub.opOrigin[o] : o);
  return {
    ...w,
    edges: w.edges.map((e) => ({ ...e, from: sub.txnOrigin[e.from], to: sub.txnOrigin[e.to], readOp: op(e.readOp) })),
    ...(w.readOps ? { readOps: w.readOps.map(op) } : {}),
  };
}
