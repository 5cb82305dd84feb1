// Messages between the server's message loop and its analysis worker thread.

import type { AnalysisSnapshot, SnapshotOptions } from './snapshot.ts';

/** main thread → worker. */
/** cancel: an Int32Array(1) on shared memory; the runner sets it to 1 to stop the job's long searches. */
export type ToWorker = { kind: 'analyze'; id: number; text: string; options: SnapshotOptions; cancel: SharedArrayBuffer };

/** worker → main thread. */
export type FromWorker =
  | { kind: 'done'; id: number; snapshot: AnalysisSnapshot }
  | { kind: 'failed'; id: number; message: string };

/** What a requested analysis came to: errors as values, never a rejected promise. */
export type RunResult =
  | { kind: 'done'; snapshot: AnalysisSnapshot }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };
