// The list-append analysis of one history: findings, named anomalies with their cycles in plain sentences, and level verdicts.

import { finding, hiddenFindingsMessage, MAX_FINDINGS_PER_CODE, type Finding, type RelatedSpan, type Span } from '../model/diagnostics.ts';
import { OP_APPEND, OP_LIST_READ, type History } from '../model/history.ts';
import { opSpan, txnSpan } from '../model/reads-from.ts';
import { anomalyRow, CYCLE_CLASSES, LIST_LEVELS, type AnomalyCode, type ListLevel } from './anomaly-table.ts';
import { cycleInference, findCycles, type CycleEdge } from './cycles.ts';
import { hasListOps, inferListAppend, LIST_EDGE_NAMES, listOf, listText, listTextShort, LK_RT, LK_RW, LK_SO, LK_WR, LK_WW, type ListInference } from './infer.ts';
import { levelById, levelRow, weakerOrEqual } from '../levels/levels.ts';
import { memoByObject } from '../util/memo.ts';
import { clip, MAX_RELATED } from '../verdicts/related.ts';
import { decideListLevel, ListLevelContext, listLevelId, type ListUndecided } from './list-levels.ts';

/** One edge of an anomaly's cycle, as shown to people and in --json. */
export interface AnomalyEdge {
  from: string;
  to: string;
  /** Transaction ids, the key id (-1: none) and the read that shows the edge (-1: none). */
  fromId: number;
  toId: number;
  keyId: number;
  readOp: number;
  kind: (typeof LIST_EDGE_NAMES)[number];
  key: string | null;
  /** "T3 → T7 [ww] T7 appended 4 to x right after T3's 3: T9 read x = [1, 3, 4]". */
  because: string;
  span: Span;
}

export interface ListAnomaly {
  code: AnomalyCode;
  /** The cycle (empty for lost-update, which names its transactions in `txns`). */
  cycle: AnomalyEdge[];
  txns: string[];
  /**
   * The readers whose level decides whether the anomaly breaks a claim (MixIso: the reader's level
   * decides): a cycle's rw sources (their own rule forbids the anti-dependency) and rt targets (the
   * real-time rule is the later transaction's), a lost update's two readers, a re-read's reader.
   * so, wr and ww edges are facts at every level (so ∪ wr ⊆ co; ww from the version order): a cycle
   * of them alone (G0, G1c) has no reader and breaks every level.
   */
  readers: number[];
  message: string;
  span: Span;
  /** Related places when there is no cycle (lost-update: both reads). */
  related?: RelatedSpan[];
  /** A reread after the transaction's own appends: reported, but the axioms find no level broken. */
  breaksNothing?: boolean;
}

/** The transactions of a cycle whose level makes its edges: rw sources, rt targets (see ListAnomaly.readers). */
function cycleReaders(edges: readonly { from: number; to: number; kind: number }[]): number[] {
  const out = new Set<number>();
  for (const e of edges) {
    if (e.kind === LK_RT) out.add(e.to);
    else if (e.kind === LK_RW) out.add(e.from);
  }
  return [...out];
}

/** The levels an occurrence breaks: its row's, none for a reread after own appends. */
export function levelsBroken(a: ListAnomaly): readonly ListLevel[] {
  return a.breaksNothing ? [] : anomalyRow(a.code).violates;
}

export interface ListAnalysis {
  inference: ListInference;
  /** Non-cyclic findings at ops, and anomalies at transaction headers (errors; the caller softens them). */
  findings: Finding[];
  anomalies: ListAnomaly[];
  /** Homogeneous verdicts, table order: true, false, or null (undecided). */
  verdicts: Map<ListLevel, boolean | null>;
  /** For each undecided level, why. */
  undecidedWhy: Map<ListLevel, ListUndecided>;
  /** The verdict with each transaction at its own level (level ids). */
  mixed(levels: Int8Array): boolean | null;
  /** Why the last mixed(…) was undecided (null when it was decided). */
  mixedUndecidedWhy: ListUndecided | null;
}

/**
 * The list-append analysis with every level decided (LIST_LEVELS): computed once per history, so
 * the register verdicts' lattice shortcuts (verdicts/homogeneous.ts) read the same verdicts the
 * report combines them with.
 */
const analyzeAllLevels = memoByObject((h: History): ListAnalysis => analyzeLevels(h, LIST_LEVELS));

export function analyzeListAppend(h: History, levels: readonly ListLevel[] = LIST_LEVELS): ListAnalysis {
  return levels === LIST_LEVELS ? analyzeAllLevels(h) : analyzeLevels(h, levels);
}

const hasListOpsOf = memoByObject(hasListOps);

/**
 * The list-append verdict of `level` on h (the same analysis the report combines with the
 * register verdict): undefined when h has no list operations, so only the register keys count.
 */
export function listVerdictOf(h: History, level: ListLevel): boolean | null | undefined {
  if (!hasListOpsOf(h)) return undefined;
  return analyzeAllLevels(h).verdicts.get(level) ?? null;
}

function analyzeLevels(h: History, levels: readonly ListLevel[]): ListAnalysis {
  const inf = inferListAppend(h);
  const ctx = new ListLevelContext(inf);
  // The anomalies first: each one breaks the levels of its row in the catalogue (docs/list-append.md)
  // whatever the commit order between unread appends, so it decides them before any bounded search
  // (a lost update among many unread appends must not leave PSI or SI undecided).
  const anomalies: ListAnomaly[] = [];
  const hasTimes = h.txnTimeStart !== undefined;
  // Cycles run on the graph with a wr edge from every observed appender where one can close a cycle.
  const full = cycleInference(inf);
  const { found: cycles, causality } = findCycles(full, hasTimes, CYCLE_CLASSES);
  for (const c of cycles) {
    const code = (c.realtime ? `${c.cls}-realtime` : c.cls) as AnomalyCode;
    const cycle = c.edges.map((x) => explainEdge(full, x));
    const first = c.edges[0].from;
    const row = anomalyRow(code);
    anomalies.push({
      code, cycle, txns: c.edges.map((x) => h.names.txnName(x.from)), readers: cycleReaders(c.edges),
      message: `${code}: ${row.meaning}: ${cycleSentences(cycle)}`,
      span: txnSpan(h, first),
    });
  }
  // Every lost update decides the mixed verdict (mixedBroken); the first ones are listed, the rest counted in one.
  const lost = lostUpdates(inf);
  anomalies.push(...lost.slice(0, MAX_FINDINGS_PER_CODE).map((x) => x.anomaly));
  if (lost.length > MAX_FINDINGS_PER_CODE) {
    const last = lost[MAX_FINDINGS_PER_CODE - 1].anomaly;
    anomalies.push({ ...last, message: hiddenFindingsMessage('lost-update', lost.length - MAX_FINDINGS_PER_CODE), related: [] });
  }
  // A reread after the transaction's own appends is internal: the axioms ask of it only that it end
  // with them (inferListAppend checks that), so it is reported but breaks no level.
  anomalies.push(...inf.rereads.map(([o, prev]) => ({ ...rereadAnomaly(h, o, prev), ...(inf.external[o] === 0 ? { breaksNothing: true } : {}) })));
  // The rest counted in one (a history can reread wrongly in every transaction): at the last one
  // kept, whose reader's level decides its severity like the others' (analyze.ts, breaksClaim).
  if (inf.rereadsHidden > 0) anomalies.push({ ...anomalies[anomalies.length - 1], message: hiddenFindingsMessage('internal', inf.rereadsHidden), related: [] });
  const broken = new Set<ListLevel>();
  for (const a of anomalies) for (const l of levelsBroken(a)) broken.add(l);

  const verdicts = new Map<ListLevel, boolean | null>();
  const undecidedWhy = new Map<ListLevel, ListUndecided>();
  const uniform = (l: ListLevel): boolean | null => {
    const v = decideListLevel(ctx, new Int8Array(h.txnCount).fill(listLevelId(l)));
    if (v === null) undecidedWhy.set(l, ctx.undecidedWhy ?? 'orders');
    return v;
  };
  // Then SER: a serial order satisfies every weaker level too (each premise implies t2 co t3).
  let ser: boolean | null | undefined;
  const serVerdict = (): boolean | null => (ser === undefined ? (ser = broken.has('SER') ? false : uniform('SER')) : ser);
  for (const l of levels) {
    let v: boolean | null;
    if (broken.has(l)) v = false;
    else if (l === 'SER') v = serVerdict();
    else if (!levelRow(l).realTime && serVerdict() === true) v = true;
    else v = uniform(l);
    verdicts.set(l, v);
  }
  const findings: Finding[] = [...inf.findings, ...causalityFindings(full, causality)];
  for (const a of anomalies) {
    // Bounded as the register findings are (verdicts/related.ts): the whole cycle is the anomaly's.
    const related: RelatedSpan[] = a.related ?? cycleRelated(a.cycle);
    findings.push(finding(a.code, 'error', clip(a.message), a.span, related));
  }
  // The mixed run's own reason: a homogeneous level's (or none) would name another bound.
  const analysis: ListAnalysis = { inference: inf, findings, anomalies, verdicts, undecidedWhy, mixedUndecidedWhy: null, mixed: (lvl) => {
    const v = mixedBroken(inf, anomalies, lost, lvl) ? false : decideListLevel(ctx, lvl);
    analysis.mixedUndecidedWhy = v === null ? ctx.undecidedWhy ?? 'orders' : null;
    return v;
  } };
  return analysis;
}

/** Whether every included transaction runs at `level` or a stronger one. */
function allAtLeast(inf: ListInference, lvl: Int8Array, level: ListLevel): boolean {
  for (let t = 1; t < inf.h.txnCount; t++) if (inf.included[t] === 1 && !weakerOrEqual(level, levelById(lvl[t]))) return false;
  return true;
}

/**
 * Whether an anomaly already decides the mixed verdict as violated: one that breaks a level every
 * transaction runs at or above (the mixed constraints then include that level's), or a lost update
 * whose two transactions both order conflicting writers into their snapshots (PSI, SI, SER, SSER:
 * whichever commits second must have seen the other's append, and did not).
 */
function mixedBroken(inf: ListInference, anomalies: readonly ListAnomaly[], lost: readonly LostUpdate[], lvl: Int8Array): boolean {
  for (const a of anomalies) if (levelsBroken(a).some((l) => allAtLeast(inf, lvl, l))) return true;
  const seesConflicts = (t: number): boolean => {
    const v = levelRow(levelById(lvl[t])).visibility;
    return v.noConflict || v.total;
  };
  return lost.some((x) => seesConflicts(x.a) && seesConflicts(x.b));
}

/** "T3 → T7 [ww] T7 appended 4 to x right after T3's 3: T9 read x = [1, 3, 4]". */
export function edgeSentence(e: AnomalyEdge): string {
  return `${e.from} → ${e.to} [${e.kind}] ${e.because}`;
}

/** The anomaly codes an analysis reports, the non-cyclic ones included (G1a, G1b as codes). */
export function reportedCodes(a: ListAnalysis): Set<AnomalyCode> {
  const out = new Set<AnomalyCode>(a.anomalies.map((x) => x.code));
  for (const f of a.inference.findings) {
    if (f.code === 'append-order') continue; // a warning, no anomaly of the table
    if (f.code === 'aborted-read') out.add('G1a');
    else if (f.code === 'intermediate-read') out.add('G1b');
    else out.add(f.code as AnomalyCode);
  }
  return out;
}

/** One edge in words, with where it shows (also for editor hovers). */
export function explainEdge(inf: ListInference, c: CycleEdge): AnomalyEdge {
  const h = inf.h;
  const e = inf.edges;
  const A = h.names.txnName(c.from);
  const B = h.names.txnName(c.to);
  const val = (v: number): string => h.names.valueText(v);
  if (c.kind === LK_RT) {
    const te = h.txnTimeEnd as Float64Array;
    const ts = h.txnTimeStart as Float64Array;
    return { from: A, to: B, fromId: c.from, toId: c.to, keyId: -1, readOp: -1, kind: 'rt', key: null, because: `${A} ended (at ${te[c.from]}) before ${B} started (at ${ts[c.to]})`, span: txnSpan(h, c.to) };
  }
  const i = c.index;
  const k = e.key.data[i];
  const keyName = k >= 0 ? h.names.keyName(k) : null;
  const op = e.op.data[i];
  const a = e.a.data[i];
  const b = e.b.data[i];
  const readText = (o: number): string => `${h.names.txnName(h.opTxn[o])} read ${keyName} = ${listTextShort(h, listOf(h, o))}`;
  let because: string;
  let span: Span;
  switch (c.kind) {
    case LK_SO:
      because = `${A} precedes ${B} in session ${h.names.sessionName(h.txnSession[c.to])}`;
      span = txnSpan(h, c.to);
      break;
    case LK_WR:
      because = `${B} observed ${A}'s append of ${val(a)}: ${readText(op)}`;
      span = opSpan(h, op);
      break;
    case LK_WW:
      if (op >= 0) because = `${B} appended ${val(b)} to ${keyName} right after ${A}'s ${val(a)}: ${readText(op)}`;
      else because = `no read observed ${B}'s append of ${val(b)} to ${keyName}, so it follows every version read, the last of which is ${A}'s ${val(a)}`;
      span = op >= 0 ? opSpan(h, op) : appendSpan(h, c.to, k, b);
      break;
    default: {
      void LK_RW;
      const next = op >= 0 && listOf(h, op).length < inf.verStart[k + 1] - inf.verStart[k] ? 'the next element' : 'an element nobody read, after every version read';
      because = `${A} read ${keyName} = ${listTextShort(h, listOf(h, op))}, missing ${B}'s append of ${val(b)} (${next})`;
      span = opSpan(h, op);
    }
  }
  return { from: A, to: B, fromId: c.from, toId: c.to, keyId: k, readOp: op, kind: LIST_EDGE_NAMES[c.kind], key: keyName, because, span };
}

function appendSpan(h: History, t: number, k: number, v: number): Span {
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (h.opKind[o] === OP_APPEND && h.opKey[o] === k && h.opValue[o] === v) return opSpan(h, o);
  return txnSpan(h, t);
}

/** A lost update with its two transactions' ids (a read first). */
interface LostUpdate {
  anomaly: ListAnomaly;
  a: number;
  b: number;
}

/** Two included transactions read the same version of a key (externally) and both append to it. */
function lostUpdates(inf: ListInference): LostUpdate[] {
  const h = inf.h;
  const out: LostUpdate[] = [];
  // (key, version length) → first reader that also appends the key.
  const first = new Map<number, number>();
  const reported = new Set<number>();
  const stride = h.opCount + 1;
  for (let t = 1; t < h.txnCount; t++) {
    if (inf.included[t] === 0) continue;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] !== OP_LIST_READ || inf.external[o] === 0) continue;
      const k = h.opKey[o];
      let appends = false;
      for (let p = o + 1; p < h.txnOpStart[t + 1] && !appends; p++) appends = h.opKind[p] === OP_APPEND && h.opKey[p] === k;
      if (!appends) continue;
      const id = k * stride + listOf(h, o).length;
      const prev = first.get(id);
      if (prev === undefined) {
        first.set(id, o);
        continue;
      }
      if (reported.has(id) || h.opTxn[prev] === t) continue;
      // Only reads of the same version: a prefix of the version order of the same length.
      if (listText(h, listOf(h, prev)) !== listText(h, listOf(h, o))) continue;
      reported.add(id);
      const A = h.names.txnName(h.opTxn[prev]);
      const B = h.names.txnName(t);
      const keyName = h.names.keyName(k);
      const list = listTextShort(h, listOf(h, o));
      const message = `lost-update: ${A} and ${B} both read ${keyName} = ${list} and both appended to ${keyName}: one of the appends was made without seeing the other`;
      out.push({
        a: h.opTxn[prev], b: t,
        anomaly: {
          code: 'lost-update', cycle: [], txns: [A, B], readers: [h.opTxn[prev], t], message, span: txnSpan(h, t),
          related: [{ span: opSpan(h, prev), message: `${A} read ${keyName} = ${list}` }, { span: opSpan(h, o), message: `${B} read ${keyName} = ${list}` }],
        },
      });
    }
  }
  return out;
}

/**
 * The cycle in words; past MAX_RELATED edges its first ones and a count (every edge is in the
 * witness's cycle anyway): the whole cycle as one sentence made a 4,000-transaction G1c ring's
 * message 330 KB, once per violated level in --json.
 */
function cycleSentences(cycle: readonly AnomalyEdge[]): string {
  if (cycle.length <= MAX_RELATED) return cycle.map(edgeSentence).join('; ');
  return `a cycle of ${cycle.length} edges: ${cycle.slice(0, MAX_RELATED).map(edgeSentence).join('; ')}; … and ${cycle.length - MAX_RELATED} more edges back to ${cycle[0].from}`;
}

/**
 * A cycle of session order and observed appends (so ∪ wr) is a read-consistency error, as in
 * register histories (`causality-cycle`, at each read on it); it is also the G1c anomaly.
 */
function causalityFindings(full: ListInference, cycle: CycleEdge[] | null): Finding[] {
  if (!cycle) return [];
  const edges = cycle.map((x) => explainEdge(full, x));
  const reads = edges.map((e, i) => ({ e, i })).filter((x) => x.e.kind === 'wr');
  if (reads.length === 0) return [];
  const related = cycleRelated(edges);
  if (edges.length <= MAX_RELATED) {
    const whole = edges.map(edgeSentence).join('; ');
    return reads.map(({ e }) => finding('causality-cycle', 'error', `information flows in a circle: ${whole}`, e.span, related));
  }
  // A long cycle is reported as in register histories (verdicts/checks.ts): whole (capped related
  // information) at its first read; every other read names that place and its two neighbouring
  // edges. Each read carrying the whole cycle made n findings of n edges: a ring of 4,000
  // transactions (a 213 KB file) took 29 s and 3.8 GB, and its --json report was 190 MB.
  const n = edges.length;
  const head = reads[0].e;
  const out = [finding('causality-cycle', 'error', `information flows in a circle of ${n} edges, this read among them: ${edgeSentence(head)} (the cycle is in the related information and in the G1c anomaly)`, head.span, related)];
  for (const { e, i } of reads.slice(1)) {
    const near = [edges[(i + n - 1) % n], edges[(i + 1) % n]].map((x) => ({ span: x.span, message: edgeSentence(x) }));
    out.push(finding('causality-cycle', 'error', `information flows in a circle of ${n} edges through this read: ${edgeSentence(e)}`, e.span,
      [{ span: head.span, message: 'the cycle, reported here in full' }, ...near]));
  }
  return out;
}

/** A cycle's edges as related information, at most MAX_RELATED of them, then one that counts the rest. */
function cycleRelated(edges: readonly AnomalyEdge[]): RelatedSpan[] {
  const out: RelatedSpan[] = edges.slice(0, MAX_RELATED).map((x) => ({ span: x.span, message: edgeSentence(x) }));
  if (edges.length > MAX_RELATED) out.push({ span: edges[0].span, message: `… and ${edges.length - MAX_RELATED} more edges of this ${edges.length}-edge cycle (all in the anomaly's witness)` });
  return out;
}

/**
 * Elle's `internal` for a read after a read: t read k twice, and the second list is not the first
 * plus t's own appends since. Some other transaction's append came or went between two reads of
 * one transaction: a non-repeatable read, which breaks RA and every level above it.
 */
function rereadAnomaly(h: History, o: number, prev: number): ListAnomaly {
  const t = h.opTxn[o];
  const T = h.names.txnName(t);
  const k = h.opKey[o];
  const keyName = h.names.keyName(k);
  const own: number[] = [];
  for (let p = prev + 1; p < o; p++) if (h.opKind[p] === OP_APPEND && h.opKey[p] === k) own.push(h.opValue[p]);
  const expected = listTextShort(h, [...listOf(h, prev), ...own]);
  const message = `internal: ${T} read ${keyName} = ${listTextShort(h, listOf(h, o))}, but it read ${keyName} = ${listTextShort(h, listOf(h, prev))} earlier${own.length > 0 ? ` and appended ${own.map((v) => h.names.valueText(v)).join(', ')} since` : ''}, so this read must return ${expected}`;
  return { code: 'internal', cycle: [], txns: [T], readers: [t], message, span: opSpan(h, o), related: [{ span: opSpan(h, prev), message: `${T}'s earlier read of ${keyName}` }] };
}

