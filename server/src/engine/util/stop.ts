// How often the long loops of a read or a check poll a caller's stop (ReaderOptions.stop, AnalyzeOptions.stop).

/**
 * Items (events, lines, transactions) handled between two polls: a poll per item cost measurable
 * time on million-item files, and a thousand items take a few milliseconds, well within the grace a
 * cancelled job gets before its worker is terminated (lsp/analysis-runner.ts CANCEL_GRACE_MS).
 */
export const STOP_POLL_ITEMS = 1024;

/** Whether a loop at item `i` should end: every STOP_POLL_ITEMS items, the caller's stop. */
export function stopDue(stop: (() => boolean) | undefined, i: number): boolean {
  return i % STOP_POLL_ITEMS === 0 && stop?.() === true;
}
