// `isocheck witness` and the editor's export: one level's witness as JSON, DOT, SVG or a minimised `.hist`.

import { analyzeHistText, analyzeSource, type Analysis } from '../analyze.ts';
import { LEVELS, type Level } from '../levels/levels.ts';
import { OP_APPEND, OP_LIST_READ, type History } from '../model/history.ts';
import { LineIndex } from '../syntax/line-index.ts';
import { fileReport, type WitnessJson as ReportWitnessJson } from '../report.ts';
import { analysisData, sourceOfAnalysis } from './analysis-data.ts';
import { writeWitnessDot } from './dot-writer.ts';
import { HistWriteError, writeHistText } from './hist-writer.ts';
import { layoutGraph, MAX_INTERACTIVE, visibleSet, witnessSentences, type ViewLevel } from './layout.ts';
import { minimizeWitness, type Target } from '../witness/violation.ts';
import { LIGHT_PALETTE, renderSvg, type Palette } from './svg-writer.ts';

export const WITNESS_FORMATS = ['json', 'dot', 'svg', 'hist'] as const;
export type WitnessFormat = (typeof WITNESS_FORMATS)[number];

export interface WitnessExportOptions {
  /** The file's name as shown (JSON `file`, comments). */
  file: string;
  level: ViewLevel;
  format: WitnessFormat;
  /** The file's `level` directive: untagged transactions' level in the mixed verdict (SER without one). */
  claimed: Level | null;
  /** Work units the `hist` minimisation may spend (default EXPORT_WORK): a step count, so the output is deterministic. */
  minimizeWork?: number;
  /** @deprecated Ignored: minimisation is bounded by work units, not time (issue 9 item 11). */
  minimizeMillis?: number;
  palette?: Palette;
  /** Polled by the re-analysis of a minimised file (the editor cancels a stale export). */
  stop?: () => boolean;
}

export type WitnessExportResult =
  | { ok: true; text: string; extension: string }
  | { ok: false; reason: 'holds' | 'undecided' | 'not-evaluated' | 'unwritable'; message: string };

export interface WitnessJsonDocument extends ReportWitnessJson {
  file: string;
  /** The `history` directive's title, or null (shown in exports, as the spec asks). */
  title: string | null;
  level: ViewLevel;
}

export function exportWitness(a: Analysis, o: WitnessExportOptions): WitnessExportResult {
  const v = o.level === 'mixed' ? a.mixed : a.levels.find((x) => x.level === o.level) ?? null;
  const name = o.level === 'mixed' ? 'the mixed verdict' : o.level;
  if (!v) return { ok: false, reason: 'not-evaluated', message: o.level === 'mixed' ? `${o.file} has no mixed verdict (no level directive and no tagged transaction)` : `${o.level} was not evaluated` };
  if (v.consistent === true) return { ok: false, reason: 'holds', message: `${o.file}: ${name} holds, so there is no witness to export` };
  if (v.consistent === null || !v.witness) return { ok: false, reason: 'undecided', message: `${o.file}: ${name} is not decided${v.note ? ` (${v.note})` : ''}` };
  const w = v.witness;
  switch (o.format) {
    case 'json': {
      const report = fileReport(o.file, a);
      const witness = (o.level === 'mixed' ? report.mixed : report.levels[o.level])!.witness!;
      const doc: WitnessJsonDocument = { file: o.file, title: a.title, level: o.level, ...witness };
      return { ok: true, text: JSON.stringify(doc, null, 2) + '\n', extension: 'json' };
    }
    case 'dot':
    case 'svg': {
      const data = analysisData(sourceOfAnalysis(a, o.file));
      const vj = o.level === 'mixed' ? data.mixed : data.levels.find((x) => x.level === o.level);
      const wj = vj!.witness!;
      if (o.format === 'dot') return { ok: true, text: writeWitnessDot(data, o.level, wj), extension: 'dot' };
      const layout = layoutGraph(data, { level: o.level, kinds: { so: true, wr: true, co: true }, visible: visibleSet(data, o.level, 1, MAX_INTERACTIVE) });
      return { ok: true, text: renderSvg(layout, o.palette ?? LIGHT_PALETTE, witnessSentences(data, wj)), extension: 'svg' };
    }
    case 'hist': {
      const target: Target = o.level === 'mixed' ? { level: 'mixed', fallback: o.claimed ?? 'SER' } : { level: o.level };
      const keeps = listOnly(a.history) ? sameListWitness(a, target, w.anomaly) : undefined;
      // From the part the verdict's witness was shrunk to, when there is one (a strong level): shrinking
      // a 5,000-transaction history again at PSI took 47 s, the part 15 transactions.
      const from = o.level === 'mixed' ? undefined : a.violatingParts.get(o.level);
      const min = minimizeWitness(from?.h ?? a.history, from?.rf ?? a.readsFrom, target, { work: o.minimizeWork, keeps });
      try {
        const write = (anomaly: string, message: string): string => writeHistText(min.h, { title: a.title, target, anomaly, message, source: o.file });
        const draft = write(w.anomaly, w.message);
        // Nothing removed: the history's own witness is the file's.
        if (min.h.txnCount === a.history.txnCount && min.h.opCount === a.history.opCount) return { ok: true, text: draft, extension: 'hist' };
        // Else the comment describes the file written, not the whole history: the part kept may show
        // other transactions than the original witness, or the level violated on its own where the
        // whole history's verdict was implied by a weaker level's.
        const own = ownWitness(draft, o.level, o.stop);
        return {
          ok: true, extension: 'hist',
          // Not found within the budget (or stopped): a neutral line, never the whole history's witness.
          text: own ? write(own.anomaly, own.message) : write(o.level, `${o.level === 'mixed' ? 'The mixed levels are' : `${o.level} is`} violated: check this file for its witness (not found within the export's budget).`),
        };
      } catch (e) {
        // A value .hist cannot hold exactly (hist-writer.ts): said, not written approximately.
        if (!(e instanceof HistWriteError)) throw e;
        return { ok: false, reason: 'unwritable', message: `${o.file}: the witness cannot be written as .hist: ${e.message}` };
      }
    }
  }
}

/** The witness the written minimised file itself gets at `level` (its check's), or null. */
function ownWitness(text: string, level: ViewLevel, stop?: () => boolean): { anomaly: string; message: string } | null {
  const a = analyzeHistText(text, { levels: level === 'mixed' ? [] : [level], stop });
  if (stop?.() === true) return null;
  const v = level === 'mixed' ? a.mixed : a.levels.find((x) => x.level === level);
  return v?.consistent === false && v.witness ? { anomaly: v.witness.anomaly, message: v.witness.message } : null;
}

/** Whether every operation of h is a list append or a list read (no register keys). */
function listOnly(h: History): boolean {
  if (h.opCount === 0) return false;
  for (let op = 0; op < h.opCount; op++) if (h.opKind[op] !== OP_APPEND && h.opKind[op] !== OP_LIST_READ) return false;
  return true;
}

/** Finding codes that name a level's (or the mixed verdict's) violation, not a kind of anomaly. */
const LEVEL_CODES: ReadonlySet<string> = new Set<string>([...LEVELS, 'mixed']);

/**
 * Whether a sub-history of a pure list history documents what the export promises: the written
 * file's check names the same anomaly for the target, and reports no kind of finding the history
 * did not have. A list history holds many anomalies at once (a lost update beside the G-single a
 * third reader shows), and a part that violates the level through another one, or through a cycle
 * only a shorter read makes (incompatible orders), would document something else. Pure list
 * histories only: their analysis has no register search to shrink again, so each candidate (one
 * that still violates the target) costs one list analysis.
 */
function sameListWitness(a: Analysis, target: Target, anomaly: string): (sub: History) => boolean {
  const known = new Set(a.findings.map((f) => f.code));
  return (sub) => {
    // As the written file is read: `expect L violated`, or `level F` with the tags (mixed).
    const directives = target.level === 'mixed'
      ? { title: null, level: { level: target.fallback, span: { start: 0, end: 0 } }, checks: [], expects: [], anomalyExpects: [] }
      : null;
    const r = analyzeSource({
      history: sub, lines: LineIndex.ofText(''), findings: [], directives,
      hasTags: sub.txnLevel.some((l, t) => t > 0 && l >= 0), firstListOp: { start: 0, end: 0 },
    }, { levels: target.level === 'mixed' ? [] : [target.level], keepForced: false });
    if (!r.findings.every((f) => LEVEL_CODES.has(f.code) || known.has(f.code))) return false;
    const v = target.level === 'mixed' ? r.mixed : r.levels[0];
    return v?.consistent === false && v.witness?.anomaly === anomaly;
  };
}
