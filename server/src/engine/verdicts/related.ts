// Bounded related information and messages: a long cycle's findings must not each carry all of it.

import type { RelatedSpan } from '../model/diagnostics.ts';
import type { Witness } from '../witness/witness.ts';

/** Related information entries per finding at most. */
export const MAX_RELATED = 20;
/** Characters of a witness message repeated in a finding at most. */
const MAX_MESSAGE = 600;

export function relatedOf(w: Witness): RelatedSpan[] {
  const out = w.edges.slice(0, MAX_RELATED).map((e) => ({ span: e.span, message: `${e.kind}: ${e.because}` }));
  if (w.edges.length > MAX_RELATED) out.push({ span: w.span, message: `… and ${w.edges.length - MAX_RELATED} more edges of this ${w.edges.length}-edge cycle (all in the verdict's witness)` });
  return out;
}

export function clip(text: string): string {
  return text.length <= MAX_MESSAGE ? text : `${text.slice(0, MAX_MESSAGE)}… (${text.length - MAX_MESSAGE} more characters in the verdict's witness)`;
}
