// Code lenses on the first line: one per level verdict (✓ ✗ ?), the mixed verdict, and "Show graph".

import type { CodeLens, Range } from 'vscode-languageserver-protocol';
import { SHOW_GRAPH_COMMAND } from '../../protocol/commands.ts';
import type { DocModel } from '../doc-model.ts';
import { MARK, stateOf } from './summary.ts';

const TOP: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

const TIP = { ok: 'holds', violated: 'violated', unknown: 'is not decided' } as const;

export function codeLenses(m: DocModel): CodeLens[] {
  const verdicts = m.mixed ? [...m.levels, m.mixed] : m.levels;
  // A lens with an empty command is shown as plain text: the verdicts are information, not actions.
  const lenses: CodeLens[] = verdicts.map((v) => {
    const state = stateOf(v);
    const why = v.witness && state === 'violated' ? `: ${v.witness.message}` : v.note ? ` (${v.note})` : '';
    return { range: TOP, command: { title: `${v.level} ${MARK[state]}`, command: '', tooltip: `${v.level} ${TIP[state]}${why}` } };
  });
  lenses.push({ range: TOP, command: { title: 'Show graph', command: SHOW_GRAPH_COMMAND, arguments: [m.uri] } });
  return lenses;
}
