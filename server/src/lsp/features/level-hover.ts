// Hover sections per level: what a read contributes to each violated level's witness, and where a transaction stands in each level's commit order.

import type { Verdict } from '../../engine/analyze.ts';
import { EK_CO } from '../../engine/model/edges.ts';
import { BOTTOM } from '../../engine/model/history.ts';
import { levelById, levelRow, type Level, type Rule } from '../../engine/levels/levels.ts';
import { witnessHeadline } from '../../engine/witness/patterns.ts';
import type { Witness, WitnessEdge } from '../../engine/witness/witness.ts';
import type { DocModel } from '../doc-model.ts';
import { code, md, ordinal } from './text.ts';

/** Per level, at most this many forced co edges are listed. */
const MAX_EDGES = 8;
/** Explanation lines (strong levels without a cycle) quoted per level. */
const MAX_EXPLANATIONS = 2;

/** The verdicts a hover speaks of: the homogeneous levels, then the mixed one. */
function verdicts(m: DocModel): Verdict[] {
  return m.mixed ? [...m.levels, m.mixed] : [...m.levels];
}

function levelName(v: Verdict): string {
  return v.level === 'mixed' ? 'mixed' : v.level;
}

/** Each transaction's level under a verdict (the one level, or the mixed verdict's per-transaction levels). */
function levelOfFor(m: DocModel, v: Verdict): (t: number) => Level {
  if (v.level !== 'mixed') return () => v.level as Level;
  const levels = m.mixedLevels;
  return (t) => (levels && t < levels.length && levels[t] >= 0 ? levelById(levels[t]) : 'SER');
}

/** "Write skew (SER): T1 and T2 each read what the other overwrites", a list-append anomaly code, or "SER violation". */
function headlineOf(m: DocModel, v: Verdict, w: Witness): string {
  return witnessHeadline(m.history, m.readsFrom, w, levelOfFor(m, v), levelName(v));
}

const txnName = (m: DocModel, t: number): string => (t === BOTTOM ? '⊥' : m.history.names.txnName(t));

/** "T1 →rw T2" (a key-less co edge is real time: the witness contract writes rt as co). */
function arrow(m: DocModel, e: Pick<WitnessEdge, 'from' | 'to' | 'kind' | 'key'>): string {
  const kind = e.kind === 'co' && e.key < 0 ? 'rt' : e.kind;
  return `${md(txnName(m, e.from))} →${kind} ${md(txnName(m, e.to))}`;
}

/** The rule whose co edges a read of transaction `reader` forces under a verdict: weak levels and the mixed verdict only. */
function ruleFor(m: DocModel, v: Verdict, reader: number): Rule | null {
  if (v.level === 'mixed') return m.mixedLevels ? levelRow(levelOfFor(m, v)(reader)).rule : null;
  const row = levelRow(v.level);
  return row.strength === 'weak' ? row.rule : null;
}

interface Entry {
  levels: string[];
  /** 0: on the witness (a step of its cycle, or the read a cycle-free violation is reported at), 1: only forced co edges. */
  rank: number;
  headline: string;
  lines: string[];
}

/**
 * For every violated level, the edges this read contributes: its steps on the witness cycle (co
 * forced, rw / ww, wr), the co edges it forced (weak levels), or the violation reported at it. Most
 * relevant first (on the witness, then forced edges only; weakest level first), levels with the
 * same contribution grouped; levels where it contributes nothing are named on one line.
 */
export function readLevelSection(m: DocModel, o: number): string[] {
  const reader = m.history.opTxn[o];
  if (m.notRun?.[reader] === 1) return []; // left out of the checks: no verdict speaks of it
  const entries: Entry[] = [];
  const without: string[] = [];
  const holds: string[] = [];
  const undecided: string[] = [];
  for (const v of verdicts(m)) {
    const name = levelName(v);
    if (v.consistent === true) { holds.push(name); continue; }
    if (v.consistent === null) { undecided.push(name); continue; }
    const w = v.witness;
    const lines: string[] = [];
    let rank = 3;
    if (w) {
      w.edges.forEach((e, i) => {
        if (e.readOp !== o) return;
        rank = 0;
        lines.push(`  - step ${i + 1} of ${w.edges.length}: ${arrow(m, e)}: ${md(e.because)}`);
      });
      if (w.edges.length === 0 && (w.readOps ?? []).includes(o)) {
        rank = 0;
        lines.push('  - the violation is reported at this read (no commit order works; no single cycle is forced):');
        const mine = (w.explanation ?? []).filter((x) => x.includes(`${m.history.names.txnName(reader)} (at `));
        for (const x of mine.slice(0, MAX_EXPLANATIONS)) lines.push(`    - ${md(x)}`);
      }
    }
    const rule = ruleFor(m, v, reader);
    const forced = rule ? m.forcedByRead(rule, o) : new Int32Array(0);
    const f = rule ? m.forced(rule) : undefined;
    if (f && forced.length > 0) {
      // Edges already listed as witness steps are not repeated.
      const onCycle = new Set((w?.edges ?? []).filter((e) => e.readOp === o && e.kind === 'co').map((e) => `${e.from}:${e.to}`));
      const rest = Array.from(forced).filter((i) => !onCycle.has(`${f.from[i]}:${f.to[i]}`));
      if (rest.length > 0) {
        rank = Math.min(rank, 1);
        lines.push(`  - co edges it forces under ${rule}${onCycle.size > 0 ? ' besides' : ''}: ${rest.length}`);
        for (const i of rest.slice(0, MAX_EDGES)) {
          const e = m.explain.edge({ from: f.from[i], to: f.to[i], kind: EK_CO, a: f.a[i], b: f.b[i] });
          lines.push(`    - ${md(txnName(m, e.from))} →co ${md(txnName(m, e.to))}: ${md(e.because)}`);
        }
        if (rest.length > MAX_EDGES) lines.push(`    - … and ${rest.length - MAX_EDGES} more`);
      }
    }
    if (rank === 3) { without.push(name); continue; }
    // The level is in bold before it: the headline without "(SER)".
    const headline = w ? headlineOf(m, v, w).replace(` (${name})`, '') : 'violation';
    // Levels sharing the witness and the lines (one implied by another) are shown once.
    const same = entries.find((x) => x.rank === rank && x.lines.join('\n') === lines.join('\n') && x.headline === headline);
    if (same) same.levels.push(name);
    else entries.push({ levels: [name], rank, headline, lines });
  }
  const out: string[] = [];
  if (entries.length > 0) {
    out.push('', '**What this read contributes to each violated level**', '');
    // Stable: within a rank, the levels' table order (weakest first), so the anomaly a fix must address first leads.
    entries.sort((p, q) => p.rank - q.rank);
    for (const e of entries) {
      out.push(`- **${e.levels.join(', ')}** ✗ ${md(e.headline)}`, ...e.lines);
    }
  }
  const tail: string[] = [];
  if (without.length > 0) tail.push(`violated without an edge from this read: ${without.join(', ')}`);
  if (holds.length > 0) tail.push(`holds: ${holds.join(', ')}`);
  if (undecided.length > 0) tail.push(`not decided: ${undecided.join(', ')}`);
  if (tail.length > 0) out.push('', `${tail.join(' · ')}`);
  return out;
}

/**
 * A transaction header: per level, its place in the commit order found (strong levels that hold),
 * or why no order exists (violated: the anomaly, and whether this transaction is on the witness).
 * Levels with the same answer are grouped; the mixed verdict has its own section (hover.ts).
 */
export function txnLevelSection(m: DocModel, t: number): string[] {
  const h = m.history;
  if (m.notRun?.[t] === 1) return []; // left out of the checks: no verdict speaks of it
  const lines: { levels: string[]; text: string }[] = [];
  const add = (level: string, text: string): void => {
    const same = lines.find((x) => x.text === text);
    if (same) same.levels.push(level);
    else lines.push({ levels: [level], text });
  };
  for (const v of m.levels) {
    const name = levelName(v);
    if (v.consistent === null) { add(name, `? not decided${v.note ? `: ${md(v.note)}` : ''}`); continue; }
    if (v.consistent === true) {
      if (h.txnAborted[t] === 1) { add(name, '✓ holds (aborted: not in any commit order)'); continue; }
      const order = v.order;
      const at = order ? order.indexOf(t) : -1;
      if (!order || at < 0) { add(name, '✓ holds: the commit-order edges the reads force have no cycle (any order extending them works)'); continue; }
      const around = [at > 0 ? `after ${code(txnName(m, order[at - 1]))}` : 'first', at + 1 < order.length ? `before ${code(txnName(m, order[at + 1]))}` : 'last'];
      add(name, `✓ ${ordinal(at + 1)} of ${order.length} in the commit order found (${around.join(', ')})`);
      continue;
    }
    const w = v.witness;
    if (!w) { add(name, '✗ no commit order satisfies it'); continue; }
    const step = w.edges.findIndex((e) => e.from === t || e.to === t);
    // Off the cycle, a transaction may still force one of its edges by a read (a long fork's readers).
    const forces = w.edges.findIndex((e) => e.readOp >= 0 && h.opTxn[e.readOp] === t);
    const where = step >= 0 ? `; ${md(txnName(m, t))} is on the witness cycle (step ${step + 1} of ${w.edges.length})`
      : forces >= 0 ? `; a read of ${md(txnName(m, t))} forces step ${forces + 1} of ${w.edges.length} of the witness cycle`
        : w.edges.length === 0 && (w.readOps ?? []).some((o) => h.opTxn[o] === t) ? `; the violation is reported at a read of ${md(txnName(m, t))}`
          : '';
    add(name, `✗ no commit order: ${md(headlineOf(m, v, w).replace(` (${name})`, ''))}${where}`);
  }
  if (lines.length === 0) return [];
  return ['', '**Commit order per level**', '', ...lines.map((x) => `- **${x.levels.join(', ')}** ${x.text}`)];
}
