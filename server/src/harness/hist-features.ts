// What this build's parser and checker accept, probed once: the recorder writes the richest history they can read.

import { analyzeHistText } from '../engine/analyze.ts';
import { parseHist } from '../engine/syntax/hist-parser.ts';

export interface HistFeatures {
  /** `T1 unknown: …` (the client never learned the outcome). */
  unknownStatus: boolean;
  /** `T1 @ 10..20: …` (invocation and completion times). */
  times: boolean;
  /** List-append operations are checked (not only parsed). */
  listAppend: boolean;
}

let cached: HistFeatures | null = null;

function parsesCleanly(text: string): boolean {
  return parseHist(text).findings.every((f) => f.severity !== 'error');
}

export function histFeatures(): HistFeatures {
  cached ??= {
    unknownStatus: parsesCleanly('session s\n  T1 unknown: w(x, 1)\n'),
    times: parsesCleanly('session s\n  T1 @ 1..2: w(x, 1)\n'),
    listAppend: !analyzeHistText('session s\n  T1: a(x, 1)\n').findings.some((f) => f.code === 'not-checked'),
  };
  return cached;
}
