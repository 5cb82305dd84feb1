// What an analysis worker does with a task (also run in-process when no worker script exists).

import type { Analysis } from '../engine/analyze.ts';
import { exportWitnessOfSource } from '../engine/export/witness-of-text.ts';
import { fileReport } from '../engine/report.ts';
import { readerNamed } from '../engine/readers/registry.ts';
import { analysisJsonOfAnalysis } from './features/analysis-json.ts';
import { analyzeDocument, packSnapshot } from './snapshot.ts';
import type { DocumentTask, Task, TaskValue } from './worker-protocol.ts';

/** Budgets of a witness export: short, as the editor waits for it (the CLI's are longer). */
const EXPORT_STRONG_MILLIS = 500;
const EXPORT_MINIMIZE_MILLIS = 1000;

/** The latest analyses of a few documents, by URI, so that the graph's JSON does not analyse again. */
export class AnalysisCache {
  private readonly entries = new Map<string, { key: string; analysis: Analysis }>();

  constructor(private readonly capacity: number) {}

  get(uri: string, key: string): Analysis | null {
    const e = this.entries.get(uri);
    if (!e || e.key !== key) return null;
    this.entries.delete(uri);
    this.entries.set(uri, e); // most recently used last
    return e.analysis;
  }

  /** How many documents' analyses are kept. */
  get size(): number {
    return this.entries.size;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  set(uri: string, key: string, analysis: Analysis): void {
    this.entries.delete(uri);
    this.entries.set(uri, { key, analysis });
    while (this.entries.size > Math.max(0, this.capacity)) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** The analysis the editor shows for this version and settings: the cached one, else analysed again; null once stopped. */
function cachedAnalysis(task: { text: string; options: DocumentTask['options']; cacheKey: string }, stop: () => boolean, cache: AnalysisCache): Analysis | null {
  let a = cache.get(task.options.uri, task.cacheKey);
  if (!a) {
    a = analyzeDocument(task.text, task.options, stop);
    if (!a || stop()) return null;
    cache.set(task.options.uri, task.cacheKey, a);
  }
  return a;
}

/** What a task answers once it has seen its cancellation: nothing to pack or send. */
const STOPPED = { value: { kind: 'stopped' as const }, transfer: [] };

export function runTask(task: Task, stop: () => boolean, cache: AnalysisCache): { value: TaskValue; transfer: ArrayBuffer[] } {
  switch (task.kind) {
    case 'analyze': {
      const started = performance.now();
      const a = analyzeDocument(task.text, task.options, stop);
      if (!a || stop()) return STOPPED;
      // A quick pass's analysis is not kept: the full pass's follows (in the strong lane, for a small document),
      // and the graph and the report ask for that one. Kept, every two-pass document held two analyses, one per
      // lane. The document's older analysis goes all the same: the new version's replaces it.
      if (task.options.deferStrong === true) cache.delete(task.options.uri);
      else cache.set(task.options.uri, task.cacheKey, a);
      const { snapshot, transfer } = packSnapshot(a, task.text, task.options, started);
      return { value: { kind: 'analyze', snapshot }, transfer };
    }
    case 'analysisJson': {
      const a = cachedAnalysis(task, stop, cache);
      if (!a) return STOPPED;
      return { value: { kind: 'analysisJson', result: analysisJsonOfAnalysis(a, task.options.uri, task.version, task.limit, task.maxTransactions) }, transfer: [] };
    }
    case 'report': {
      const a = cachedAnalysis(task, stop, cache);
      return a ? { value: { kind: 'report', report: fileReport(task.file, a) }, transfer: [] } : STOPPED;
    }
    case 'export': {
      const reader = readerNamed(task.options.format ?? 'hist') ?? readerNamed('hist')!;
      const src = reader.read({ text: task.text }, { plumeInit: task.options.plumeInit, stop });
      if (stop()) return STOPPED;
      const r = exportWitnessOfSource(src, { file: task.file, level: task.params.level, format: task.params.format, minimizeMillis: EXPORT_MINIMIZE_MILLIS }, EXPORT_STRONG_MILLIS, stop);
      const answer = r.ok ? { ok: true as const, text: r.text, extension: r.extension } : { ok: false as const, message: r.message };
      return { value: { kind: 'export', answer }, transfer: [] };
    }
    case 'forget':
      cache.delete(task.uri);
      return { value: { kind: 'forget' }, transfer: [] };
  }
}
