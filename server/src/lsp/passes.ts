// Which passes a document's check makes: one, or a quick weak-level pass and then the full analysis in a lane of its own.

import { isWeakLevel, type Level } from '../engine/levels/levels.ts';

/** Documents from this size on get a quick RC/RA/CC pass before the strong-level searches. */
export const TWO_PASS_CHARS = 4096;

/**
 * Whether a document is checked in two passes: it is long enough for the strong-level searches to
 * take a while (up to their budget, seconds), and some strong level is asked for (levels
 * undefined: the default set, which has them). The checker publishes the quick pass first; the
 * runner runs the full pass of a small such document in the strong lane, so that no other small
 * document's check waits behind its searches.
 */
export function twoPasses(textLength: number, levels: readonly Level[] | undefined): boolean {
  return textLength >= TWO_PASS_CHARS && (levels === undefined || levels.some((l) => !isWeakLevel(l)));
}
