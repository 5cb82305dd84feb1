// Messages between the playground page and its analysis worker: declared once, used on both sides.

import type { AnalysisSnapshot } from '../../server/src/lsp/snapshot.ts';
import type { AnalysisResult, LevelName } from '../../server/src/protocol/shapes.ts';
import { isAnalysisResult, isExportFormat, isGraphLevel, type ExportFormat, type GraphLevel } from '../../server/src/protocol/webview.ts';

export type TextBudget = 'quick' | 'editor' | 'cli';

/** page → worker. */
export type ToWorker =
  /**
   * Check the editor's text (a newer request makes the page terminate a busy worker): `quick` leaves the strong
   * levels pending, `editor` gives each strong search the editor's 0.5 s, `cli` the CLI's budget.
   */
  | { type: 'text'; id: number; text: string; budget: TextBudget }
  /** Check a dropped or opened file (any format the reader registry reads), kept in the worker for exports. */
  | { type: 'file'; id: number; name: string; bytes: ArrayBuffer }
  /** Export one level's witness of the last text or file. */
  | { type: 'export'; id: number; source: 'text' | 'file'; text: string; level: GraphLevel; format: ExportFormat };

export interface LevelSummary {
  level: LevelName | 'mixed';
  state: 'ok' | 'violated' | 'unknown';
  anomaly: string | null;
  message: string | null;
}

/** worker → page. */
export type FromWorker =
  | { type: 'text'; id: number; snapshot: AnalysisSnapshot }
  | { type: 'progress'; id: number; stage: string; done: number; total: number }
  | {
    type: 'file'; id: number; name: string; analysis: AnalysisResult; levels: LevelSummary[]; transactions: number; operations: number; millis: number;
    /** Unknown transactions that never ran: not in the checked history (`transactions`), drawn in the graph. */
    notRun: number;
    /** The first of the file's errors (syntax, read consistency…) as `isocheck check` prints them, and how many there are. */
    problems: string[]; problemCount: number;
  }
  | { type: 'export'; id: number; ok: true; text: string; extension: string }
  | { type: 'export'; id: number; ok: false; message: string }
  | { type: 'error'; id: number; message: string };

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** A page → worker message as declared above (the worker drops anything else). */
export function isToWorker(x: unknown): x is ToWorker {
  if (!isObj(x) || !isCount(x.id)) return false;
  switch (x.type) {
    case 'text': return isStr(x.text) && (x.budget === 'quick' || x.budget === 'editor' || x.budget === 'cli');
    case 'file': return isStr(x.name) && x.bytes instanceof ArrayBuffer;
    case 'export': return (x.source === 'text' || x.source === 'file') && isStr(x.text) && isGraphLevel(x.level) && isExportFormat(x.format);
    default: return false;
  }
}

const isSummary = (x: unknown): boolean => isObj(x) && (isGraphLevel(x.level)) && (x.state === 'ok' || x.state === 'violated' || x.state === 'unknown')
  && (x.anomaly === null || isStr(x.anomaly)) && (x.message === null || isStr(x.message));

/** A worker → page message as declared above (the page drops anything else); a file's analysis is checked as the graph view checks it. */
export function isFromWorker(x: unknown): x is FromWorker {
  if (!isObj(x) || !isCount(x.id)) return false;
  switch (x.type) {
    case 'text': return isObj(x.snapshot);
    case 'progress': return isStr(x.stage) && isCount(x.done) && isCount(x.total);
    case 'file': return isStr(x.name) && isAnalysisResult(x.analysis) && Array.isArray(x.levels) && x.levels.every(isSummary)
      && isCount(x.transactions) && isCount(x.notRun) && isCount(x.operations) && typeof x.millis === 'number' && Array.isArray(x.problems) && x.problems.every(isStr) && isCount(x.problemCount);
    case 'export': return x.ok === true ? isStr(x.text) && isStr(x.extension) : x.ok === false && isStr(x.message);
    case 'error': return isStr(x.message);
    default: return false;
  }
}
