// When to analyse a document after an edit: at once after a pause, else once typing pauses (debounce).

/**
 * The first edit after a quiet spell runs immediately, so a single change shows its diagnostics
 * as fast as the analysis allows; edits that follow within `debounceMs` restart a timer, so a
 * burst of typing costs one analysis at its end.
 */
export class DebounceScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lastEdit = new Map<string, number>();

  /** now: the clock in milliseconds (tests pass a mocked one). */
  constructor(private readonly debounceMs: number, private readonly run: (uri: string) => void, private readonly clock: () => number = () => performance.now()) {}

  edited(uri: string): void {
    const now = this.clock();
    const last = this.lastEdit.get(uri);
    this.lastEdit.set(uri, now);
    const quiet = last === undefined || now - last >= this.debounceMs;
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    const delay = quiet && !pending ? 0 : this.debounceMs;
    this.timers.set(uri, setTimeout(() => {
      this.timers.delete(uri);
      this.run(uri);
    }, delay));
  }

  /** Whether an edit's check waits for its timer. */
  scheduled(uri: string): boolean {
    return this.timers.has(uri);
  }

  /** Runs now (open, save, settings changed), dropping a pending timer. */
  now(uri: string): void {
    this.cancel(uri);
    this.run(uri);
  }

  cancel(uri: string): void {
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.delete(uri);
  }

  forget(uri: string): void {
    this.cancel(uri);
    this.lastEdit.delete(uri);
  }
}
