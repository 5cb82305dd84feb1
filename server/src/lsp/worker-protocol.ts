// Messages between the server's message loop and its analysis worker threads: tasks in, values out.

import type { FileReport } from '../engine/report.ts';
import type { AnalysisResult, WitnessExportAnswer, WitnessExportParams } from '../protocol/shapes.ts';
import type { AnalysisSnapshot, SnapshotOptions } from './snapshot.ts';

/**
 * What a worker is asked to do. `cacheKey` names one analysed version of a document (version,
 * settings, pass): the worker keeps its latest analyses, so the graph's JSON reuses them.
 */
export type DocumentTask =
  | { kind: 'analyze'; text: string; options: SnapshotOptions; cacheKey: string }
  | { kind: 'analysisJson'; text: string; options: SnapshotOptions; cacheKey: string; version: number; limit: number | undefined; maxTransactions: number }
  | { kind: 'report'; text: string; options: SnapshotOptions; cacheKey: string; file: string }
  | { kind: 'export'; text: string; options: SnapshotOptions; file: string; params: Omit<WitnessExportParams, 'uri'> };

/** A document's task, or: the document closed, its kept analysis goes (a closed big document's stayed until another replaced it). */
export type Task = DocumentTask | { kind: 'forget'; uri: string };

/** A task's answer, by kind. */
export type TaskValue =
  | { kind: 'analyze'; snapshot: AnalysisSnapshot }
  | { kind: 'analysisJson'; result: AnalysisResult }
  | { kind: 'report'; report: FileReport }
  | { kind: 'export'; answer: WitnessExportAnswer }
  | { kind: 'forget' }
  /** The task saw its cancellation and gave up; the runner reports the job cancelled. */
  | { kind: 'stopped' };

/** main thread → worker. cancel: an Int32Array(1) on shared memory; the runner sets it to 1 to stop the task's long searches. */
export type ToWorker = { id: number; task: Task; cancel: SharedArrayBuffer };

/** worker → main thread. */
export type FromWorker =
  | { kind: 'done'; id: number; value: TaskValue }
  | { kind: 'failed'; id: number; message: string };

/** What a task came to: errors as values, never a rejected promise. */
export type RunResult<V = TaskValue> =
  | { kind: 'done'; value: V }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };
