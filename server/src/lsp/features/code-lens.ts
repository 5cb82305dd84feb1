// Code lenses on the first line: "Show graph" first (so a narrow editor never cuts it off), then one per level verdict (✓ ✗ ?) and the mixed verdict, each opening the graph at that level.

import type { CodeLens, Command, Range } from 'vscode-languageserver-protocol';
import { SHOW_GRAPH_COMMAND } from '../../protocol/commands.ts';
import type { DocModel } from '../doc-model.ts';
import { MARK, stateOf } from './summary.ts';

const TOP: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

const TIP = { ok: 'holds', violated: 'violated', unknown: 'is not decided' } as const;
const CLICK = { ok: 'click to show it in the graph', violated: 'click to show its witness in the graph', unknown: 'click to show it in the graph' } as const;

export function codeLenses(m: DocModel): CodeLens[] {
  const verdicts = m.mixed ? [...m.levels, m.mixed] : m.levels;
  const lenses: CodeLens[] = [{ range: TOP, command: { title: 'Show graph', command: SHOW_GRAPH_COMMAND, arguments: [m.uri] } }];
  for (const v of verdicts) {
    const state = stateOf(v);
    const why = v.witness && state === 'violated' ? `: ${v.witness.message}` : v.note ? ` (${v.note})` : '';
    // `tooltip` is LSP 3.18's; clients that know it show the verdict's explanation on hover.
    const command: Command & { tooltip: string } = {
      title: `${v.level} ${MARK[state]}`, command: SHOW_GRAPH_COMMAND, arguments: [m.uri, v.level], tooltip: `${v.level} ${TIP[state]}${why} — ${CLICK[state]}`,
    };
    lenses.push({ range: TOP, command });
  }
  return lenses;
}
