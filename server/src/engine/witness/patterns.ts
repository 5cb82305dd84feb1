// Anomaly names in the user's words: witnesses classified by their shape (edge kinds, keys, readers), as data beside the levels table.

import { BOTTOM, OP_WRITE, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { levelRow, LEVELS, type Level } from '../levels/levels.ts';
import { anomalyRow, parseAnomaly } from '../listappend/anomaly-table.ts';
import type { Witness } from './witness.ts';

/** What the classifier looks at: computed once per witness from its edges and reads. */
export interface WitnessShape {
  /** Count of each edge kind in the cycle (rw with the snapshot co edges, bySnapshot; co without them). */
  rw: number;
  co: number;
  edges: number;
  /** All rw edges are about one key and every transaction of the cycle writes it. */
  rwSameKeyWritten: boolean;
  /** Every rw edge was forced by a read of a third transaction (a snapshot that holds its source but not its target), not by its source's own read. */
  rwBySnapshots: boolean;
  /** The weak rule of the reader behind the first co edge ('RC' | 'RA' | 'CC'), or null without co edges. */
  coRule: 'RC' | 'RA' | 'CC' | null;
  /** The reader behind the first co edge read something directly from that edge's source. */
  coDirect: boolean;
  /** No cycle: the readers the explanation names, at a level with a prefix snapshot (PC, SI) / no conflicts (PSI, SI). */
  noCycle: boolean;
  prefix: boolean;
  noConflict: boolean;
  /** Every reader the explanation names also writes the key it read. */
  readersWriteReadKey: boolean;
  /** The two transactions of a two-edge cycle, in order (names for the summary), else empty. */
  pair: string[];
  key: string;
}

export interface Pattern {
  /** The name users know, first in the message. */
  name: string;
  /** Its section in docs/anomalies.md. */
  anchor: string;
  matches: (s: WitnessShape) => boolean;
  /** One plain sentence, when the shape gives enough to say it. */
  summary: (s: WitnessShape) => string | null;
}

/** First match wins; a witness no row matches is "<LEVEL> violation". */
export const PATTERNS: readonly Pattern[] = [
  { name: 'Non-monotonic read', anchor: 'non-monotonic-read', matches: (s) => s.coRule === 'RC', summary: () => 'a read returns an older value than one read before it' },
  { name: 'Fractured read', anchor: 'fractured-read', matches: (s) => s.coRule === 'RA' || (s.coRule === 'CC' && s.coDirect), summary: () => 'a transaction sees some of another transaction\'s writes but not all' },
  { name: 'Causality violation', anchor: 'causality-violation', matches: (s) => s.coRule === 'CC', summary: () => 'a transaction misses a write that happens before what it sees' },
  { name: 'Long fork', anchor: 'long-fork', matches: (s) => (s.noCycle && s.prefix && !s.readersWriteReadKey) || (s.rw >= 2 && s.rwBySnapshots),
    summary: () => 'two readers see two independent writes in opposite orders' },
  { name: 'Lost update', anchor: 'lost-update', matches: (s) => (s.rw === 2 && s.edges === 2 && s.rwSameKeyWritten) || (s.noCycle && s.noConflict && s.readersWriteReadKey),
    summary: (s) => (s.pair.length === 2 ? `${s.pair[0]} and ${s.pair[1]} read the same version of ${s.key} and both overwrite it` : 'two transactions read the same version of a key and both overwrite it') },
  { name: 'Write skew', anchor: 'write-skew', matches: (s) => s.rw === 2 && s.edges === 2,
    summary: (s) => `${s.pair[0] ?? '?'} and ${s.pair[1] ?? '?'} each read what the other overwrites` },
  { name: 'Read skew', anchor: 'read-skew', matches: (s) => s.rw === 1, summary: () => 'a transaction reads a state that one overwrite in the cycle has already changed' },
  { name: 'Anti-dependency cycle (G2)', anchor: 'g2', matches: (s) => s.rw >= 2, summary: () => null },
];

/** The shape of w; levelOf gives each transaction's level (the one level, or the tags of a mixed history). */
export function shapeOf(h: History, rf: ReadsFrom, w: Witness, levelOf: (t: number) => Level): WitnessShape {
  const writes = (t: number, x: number): boolean => {
    if (t === BOTTOM) return true;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (h.opKind[o] === OP_WRITE && h.opKey[o] === x) return true;
    return false;
  };
  // A snapshot's co edge (bySnapshot) is an anti-dependency seen through a third reader: the names count it as rw.
  const rws = w.edges.filter((e) => e.kind === 'rw' || e.bySnapshot === true);
  const firstCo = w.edges.find((e) => e.kind === 'co' && e.bySnapshot !== true);
  let coRule: WitnessShape['coRule'] = null;
  let coDirect = false;
  if (firstCo && firstCo.readOp >= 0) {
    const reader = h.opTxn[firstCo.readOp];
    coRule = levelRow(levelOf(reader)).rule;
    for (let o = h.txnOpStart[reader]; o < h.txnOpStart[reader + 1]; o++) if (rf.observedTxn[o] === firstCo.from) coDirect = true;
  }
  const key = rws[0]?.key ?? -1;
  const readOps = w.edges.length === 0 ? w.readOps ?? [] : [];
  const readerLevels = readOps.map((o) => levelRow(levelOf(h.opTxn[o])).visibility);
  const name = (t: number): string => (t === BOTTOM ? 'the initial state' : h.names.txnName(t));
  return {
    rw: rws.length,
    co: w.edges.filter((e) => e.kind === 'co' && e.bySnapshot !== true).length,
    edges: w.edges.length,
    rwSameKeyWritten: rws.length > 0 && rws.every((e) => e.key === key && writes(e.from, key) && writes(e.to, key)),
    rwBySnapshots: rws.length > 0 && rws.every((e) => e.bySnapshot === true || (e.readOp >= 0 && h.opTxn[e.readOp] !== e.from)),
    coRule,
    coDirect,
    noCycle: w.edges.length === 0 && readOps.length > 0,
    prefix: readerLevels.length > 0 && readerLevels.every((v) => v.prefix),
    noConflict: readerLevels.length > 0 && readerLevels.every((v) => v.noConflict),
    readersWriteReadKey: readOps.length > 0 && readOps.every((o) => writes(h.opTxn[o], h.opKey[o])),
    pair: w.edges.length === 2 ? [name(w.edges[1]?.from ?? BOTTOM), name(w.edges[0]?.from ?? BOTTOM)].sort() : [],
    key: key >= 0 ? h.names.keyName(key) : '',
  };
}

/** The pattern w shows, or null (then it is a "<LEVEL> violation"). */
export function classifyWitness(h: History, rf: ReadsFrom, w: Witness, levelOf: (t: number) => Level): Pattern | null {
  const s = shapeOf(h, rf, w, levelOf);
  return PATTERNS.find((p) => p.matches(s)) ?? null;
}

/** "Write skew (SER): T1 and T2 each read what the other overwrites" or "SER violation". */
export function anomalyHeadline(h: History, rf: ReadsFrom, w: Witness, levelOf: (t: number) => Level, levelName: string): string {
  const s = shapeOf(h, rf, w, levelOf);
  const p = PATTERNS.find((q) => q.matches(s));
  if (!p) return `${levelName} violation`;
  const summary = p.summary(s);
  return summary ? `${p.name} (${levelName}): ${summary}` : `${p.name} (${levelName})`;
}

/** The headline of any witness: a list-append anomaly class (G-single, G2-item, …) with its meaning, else anomalyHeadline. */
export function witnessHeadline(h: History, rf: ReadsFrom, w: Witness, levelOf: (t: number) => Level, levelName: string): string {
  // List-append witnesses carry their anomaly class; register ones the level's name.
  if (w.anomaly !== levelName && !(LEVELS as readonly string[]).includes(w.anomaly)) {
    const code = parseAnomaly(w.anomaly);
    return code ? `${code} (${levelName}): ${anomalyRow(code).meaning}` : `${w.anomaly} (${levelName})`;
  }
  return anomalyHeadline(h, rf, w, levelOf, levelName);
}
