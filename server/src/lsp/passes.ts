// Which passes a document's check makes: one, or a quick weak-level pass and then the full analysis in a lane of its own.

import { isWeakLevel, type Level } from '../engine/levels/levels.ts';

/**
 * Whether a document is checked in two passes: some strong level is asked for (levels undefined:
 * the default set, which has them), whatever the document's size. The checker publishes the quick
 * RC/RA/CC pass first; the runner runs the full pass of a small document in the strong lane, so that
 * no other small document's check waits behind its searches. Documents under 4 KB were checked in
 * one pass, in the small lane, on the grounds that their searches are quick; they need not be: a
 * 3.8 KB history (`isocheck gen --sessions 16 --txns 91 --keys 6 --ops 3 --reads 0.3 --seed 2`)
 * spends 2.3 s deciding PSI, and held every other small document's diagnostics that long.
 */
export function twoPasses(levels: readonly Level[] | undefined): boolean {
  return levels === undefined || levels.some((l) => !isWeakLevel(l));
}

/** Documents below this size hold their quick pass back for HOLD_QUICK_MS (holdQuickPass). */
export const HOLD_QUICK_CHARS = 4096;
/** How long a small document's quick pass waits for its full pass before it is published alone (ServerOptions.holdQuickMs). */
export const HOLD_QUICK_MS = 300;

/**
 * Whether the quick pass of a document of `chars` characters is held back: published only when
 * its full pass has not ended HOLD_QUICK_MS after it. A small litmus file's full pass takes
 * milliseconds, so its first diagnostics are the whole analysis, as when it had one pass (a client
 * that reads the first publication sees the strong levels' findings too); one whose searches run
 * long still gets its RC/RA/CC findings within HOLD_QUICK_MS, without holding up other documents.
 */
export function holdQuickPass(chars: number): boolean {
  return chars < HOLD_QUICK_CHARS;
}
