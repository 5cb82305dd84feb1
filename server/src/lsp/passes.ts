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
