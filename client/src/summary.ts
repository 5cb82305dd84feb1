// Pure text for the status bar and the graph stand-in: no `vscode` import, so node:test can cover it.

import type { LevelState, StatusParams, VerdictState } from '../../server/src/protocol/shapes.ts';
import type { GraphLevel } from '../../server/src/protocol/webview.ts';

const GLYPH: Record<VerdictState, string> = { ok: '✓', violated: '✗', unknown: '?' };

/** `RC ✓ RA ✗ CC ✗`: one level and its glyph per evaluated level, weakest first as the server sends them. */
export function levelsText(levels: readonly LevelState[]): string {
  return levels.map((l) => `${l.level} ${GLYPH[l.state]}`).join(' ');
}

/** What the status bar shows for a document: the verdicts and the strongest level that holds. */
export function statusText(s: StatusParams): string {
  if (s.state === 'failed') return '$(error) IsoCheck: analysis failed';
  if (s.levels.length === 0) return '$(sync~spin) IsoCheck: checking…';
  const spin = s.state === 'checking' ? '$(sync~spin) ' : '';
  const mixed = s.mixed === null ? '' : ` · mixed ${GLYPH[s.mixed]}`;
  // With syntax errors the verdicts are for what parsed; with nothing parsed there is none at all.
  if (s.partial && s.levels.every((l) => l.state === 'unknown')) return `${spin}${levelsText(s.levels)}${mixed} · no verdict: nothing could be read`;
  const partial = s.partial ? ' · PARTIAL (syntax errors)' : '';
  return `${spin}${levelsText(s.levels)}${mixed} · ${strongestText(s)}${partial}`;
}

export function strongestText(s: Pick<StatusParams, 'strongest' | 'strongestAll'>): string {
  if (s.strongest === null) return 'no level holds';
  return `strongest: ${(s.strongestAll && s.strongestAll.length > 0 ? s.strongestAll : [s.strongest]).join(', ')}`;
}

/** A plain sentence for messages and tooltips: verdicts, strongest level, counts and time. */
export function summarySentence(s: StatusParams): string {
  if (s.state === 'failed') return `IsoCheck could not analyse this file${s.message ? `: ${s.message}` : ''}.`;
  if (s.levels.length === 0) return 'IsoCheck is still checking this file.';
  const mixed = s.mixed === null ? '' : `; per-transaction levels ${s.mixed === 'ok' ? 'hold' : s.mixed === 'violated' ? 'are violated' : 'are not decided'}`;
  const counts = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}`;
  const partial = s.partial ? ' The file has syntax errors: these verdicts are only for what parsed.' : '';
  return `${levelsText(s.levels)} (${strongestText(s)}${mixed}); ${counts}; checked in ${s.millis.toFixed(0)} ms.${partial}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The levels whose witness can be exported: the violated ones, and 'mixed' only when the per-transaction levels are violated. */
export function exportableLevels(s: Pick<StatusParams, 'levels' | 'mixed'> | undefined): GraphLevel[] {
  if (!s) return [];
  return [...s.levels.filter((l) => l.state === 'violated').map((l) => l.level), ...(s.mixed === 'violated' ? ['mixed' as const] : [])];
}
