// Turns the list-append analysis into the analysis's verdicts and witnesses, and checks `expect A found|absent`.

import { finding, type Finding } from '../model/diagnostics.ts';
import type { History } from '../model/history.ts';
import type { AnomalyExpectation, Directives } from '../syntax/hist-parser.ts';
import type { Witness } from '../witness/witness.ts';
import type { AnomalyCode, ListLevel } from './anomaly-table.ts';
import { levelsBroken, reportedCodes, type ListAnalysis, type ListAnomaly } from './list-analysis.ts';
import { listLevelId, MAX_CLOCK_WORK } from './list-levels.ts';
import { MAX_UNREAD_RW } from './infer.ts';
import { levelById, levelRow, weakerOrEqual } from '../levels/levels.ts';
import { computeReadsFrom } from '../model/reads-from.ts';
import { sessionTimeCycle } from '../witness/session-time-cycle.ts';

/** Why a list level (or, with 'mixed', the last mixed run) is undecided, in words (after "could not be decided on the list-append keys: "). */
export function listUndecidedWhy(h: History, list: ListAnalysis, level: ListLevel | 'mixed'): string {
  const why = (level === 'mixed' ? list.mixedUndecidedWhy : list.undecidedWhy.get(level)) ?? 'orders';
  if (why === 'unread-rw') return `${list.inference.unreadRwLeftOut} rw edges from readers of a key's last version to the appends nobody read were left out (more than ${MAX_UNREAD_RW})`;
  if (why === 'clocks') return `its vector clocks need ${h.txnCount} transactions × ${h.sessionCount} sessions = ${h.txnCount * h.sessionCount} entries, more than the ${MAX_CLOCK_WORK} computed at most`;
  return 'too many orders between appends nobody read';
}

/** Why a level fails on a list-append history: the first anomaly that breaks it, or the first consistency finding. */
export function listWitness(list: ListAnalysis, level: ListLevel): Witness {
  const bad = list.inference.findings.find((f) => f.severity === 'error');
  if (bad) return { anomaly: bad.code, edges: [], message: bad.message, span: bad.span };
  // The first anomaly that breaks the level by the table, else any cycle: under the commit-order
  // axioms a weak level can fail on a cycle Adya would allow (a read observed part of a transaction).
  // A reread after the transaction's own appends breaks no level (levelsBroken): it never explains one.
  const a = list.anomalies.find((x) => levelsBroken(x).includes(level)) ?? list.anomalies.find((x) => x.cycle.length > 0);
  if (a) {
    return {
      anomaly: a.code, message: a.message, span: a.span,
      // In the witness contract's words: "B read … from A" for wr, "A must commit before B: …" for the
      // order edges (a real-time edge constrains the commit order: a co edge there).
      edges: a.cycle.map((e) => ({
        from: e.fromId, to: e.toId, kind: e.kind === 'rt' ? 'co' : e.kind, key: e.keyId, readOp: e.readOp, span: e.span,
        because: e.kind === 'so' ? e.because
          : e.kind === 'wr' ? `${e.to} read ${e.key ?? ''} from ${e.from} (${e.because})`
          : `${e.from} must commit before ${e.to}: ${e.because}`,
      })),
    };
  }
  // Real time alone against session order (times that run backwards in a session): no read is involved.
  if (levelRow(level).realTime) {
    // Only the graph's transactions: an unknown one nobody read never ran (it counts as aborted here).
    const { h: all, included } = list.inference;
    const h = { ...all, txnAborted: all.txnAborted.map((x, t) => (t > 0 && included[t] === 0 ? 1 : x)) };
    const cycle = sessionTimeCycle(h, computeReadsFrom(h), () => true);
    if (cycle) {
      return {
        anomaly: level, edges: cycle, span: cycle[0].span,
        message: `${level} is violated: session order and real time contradict each other: ${cycle.map((e) => e.because).join('; ')}`,
      };
    }
  }
  return {
    anomaly: level, edges: [], span: { start: 0, end: 0 },
    message: `${level} is violated: a read's premise transaction overwrote the version it read (no cycle class of the anomaly table names it)`,
  };
}

/** Each transaction's level in the mixed verdict, as level ids (untagged: the file's level, else SER). */
export function mixedListLevels(h: History, d: Pick<Directives, 'level'>): Int8Array {
  const fallback = listLevelId(d.level ? d.level.level : 'SER');
  const out = new Int8Array(h.txnCount);
  for (let t = 1; t < h.txnCount; t++) {
    out[t] = h.txnLevel[t] < 0 ? fallback : h.txnLevel[t];
  }
  return out;
}

/**
 * Each transaction's level when the file claims any (a `level` directive or a tagged transaction:
 * the mixed run, untagged ones at the file's level, else SER), or null when it claims none.
 */
export function claimedListLevels(h: History, d: Directives | null): Int8Array | null {
  if (!d?.level && !h.txnLevel.some((l, t) => t > 0 && l >= 0)) return null;
  return mixedListLevels(h, d ?? { level: null });
}

/**
 * Whether an anomaly breaks what the file claims, so that it is an error (spec: the mixed run's
 * violations are the errors, homogeneous ones information): some level it breaks that every
 * reader it involves runs at or above (MixIso: the reader's level decides; a writer's tag does
 * not). A write skew between two transactions tagged SI in a file whose `level` is SER breaks
 * nobody's level; between two at SER it does.
 */
export function breaksClaim(a: ListAnomaly, levels: Int8Array | null): boolean {
  if (!levels) return false;
  return levelsBroken(a).some((l) => a.readers.every((t) => weakerOrEqual(l, levelById(levels[t]))));
}

/** The table's codes that register reads are reported with too (read consistency): G1a, G1b and future-read. */
const REGISTER_CODES: ReadonlyMap<string, AnomalyCode> = new Map([['aborted-read', 'G1a'], ['intermediate-read', 'G1b'], ['future-read', 'future-read']]);

/**
 * `expect A found|absent` against what the analysis reported: the list-append analysis's anomalies
 * and findings, and the register reads' findings of the table's codes (`registerFindings`: an
 * aborted read of a register is reported as `aborted-read`, G1a, as on a list).
 */
export function anomalyExpectations(list: ListAnalysis | null, expects: readonly AnomalyExpectation[], registerFindings: readonly Finding[] = []): Finding[] {
  const codes: Set<string> = list ? reportedCodes(list) : new Set<string>();
  const registerFound = new Map<AnomalyCode, Finding>();
  for (const f of registerFindings) {
    const code = REGISTER_CODES.get(f.code);
    if (code && !registerFound.has(code)) registerFound.set(code, f);
  }
  for (const code of registerFound.keys()) codes.add(code);
  const out: Finding[] = [];
  for (const e of expects) {
    const found = codes.has(e.anomaly);
    if (found === e.found) continue;
    const where = list?.anomalies.find((a) => a.code === e.anomaly) ?? registerFound.get(e.anomaly);
    out.push(finding('expectation-failed', 'error',
      e.found ? `expected ${e.anomaly} to be found, but it is absent` : `expected ${e.anomaly} absent, but it is found${where ? `: ${where.message}` : ''}`,
      e.span, where ? [{ span: where.span, message: where.message }] : []));
  }
  return out;
}
