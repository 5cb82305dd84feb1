// Exports a witness straight from a document's text (the CLI and the language server share this).

import { analyzeHistText, analyzePlumeBytes, analyzeSource, type ReadSource } from '../analyze.ts';
import { parseHist } from '../syntax/hist-parser.ts';
import { isWeakLevel, type Level } from '../levels/levels.ts';
import { exportWitness, type WitnessExportOptions, type WitnessExportResult } from './witness-export.ts';

export function exportWitnessOfText(text: string, o: Omit<WitnessExportOptions, 'claimed'>, strongMillis?: number): WitnessExportResult {
  const claimed = parseHist(text).directives.level?.level ?? null;
  // Only the level asked for (and, for strong ones, CC, which they imply) is evaluated.
  const levels: Level[] = o.level === 'mixed' ? [] : isWeakLevel(o.level) ? [o.level] : ['CC', o.level];
  const a = analyzeHistText(text, { levels, strongMillis });
  return exportWitness(a, { ...o, claimed });
}

export function exportWitnessOfPlume(bytes: Uint8Array, o: Omit<WitnessExportOptions, 'claimed'>, strongMillis?: number, plumeInit?: 'zero' | 'none'): WitnessExportResult {
  const levels: Level[] = o.level === 'mixed' ? [] : isWeakLevel(o.level) ? [o.level] : ['CC', o.level];
  return exportWitness(analyzePlumeBytes(bytes, { levels, strongMillis, plumeInit }), { ...o, claimed: null });
}

/** From what any reader produced (readers/registry.ts): the file's `level` directive, if it has one, is the claim. */
export function exportWitnessOfSource(src: ReadSource, o: Omit<WitnessExportOptions, 'claimed'>, strongMillis?: number, stop?: () => boolean): WitnessExportResult {
  const levels: Level[] = o.level === 'mixed' ? [] : isWeakLevel(o.level) ? [o.level] : ['CC', o.level];
  return exportWitness(analyzeSource(src, { levels, strongMillis, stop }), { ...o, claimed: src.directives?.level?.level ?? null, stop });
}
