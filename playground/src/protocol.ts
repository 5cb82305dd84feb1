// Messages between the playground page and its analysis worker: declared once, used on both sides.

import type { AnalysisSnapshot } from '../../server/src/lsp/snapshot.ts';
import type { AnalysisResult, LevelName } from '../../server/src/protocol/shapes.ts';
import type { GraphLevel, ExportFormat } from '../../server/src/protocol/webview.ts';

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
    /** The first of the file's errors (syntax, read consistency…) as `isocheck check` prints them, and how many there are. */
    problems: string[]; problemCount: number;
  }
  | { type: 'export'; id: number; ok: true; text: string; extension: string }
  | { type: 'export'; id: number; ok: false; message: string }
  | { type: 'error'; id: number; message: string };
