// The `isocheck/analysis` answer: a document's analysis as plain JSON for the graph view (built by the engine's export module).

import { analysisData, DEFAULT_LIMIT } from '../../engine/export/analysis-data.ts';
import type { AnalysisResult } from '../../protocol/shapes.ts';
import type { DocModel } from '../doc-model.ts';

export { DEFAULT_LIMIT };

export function analysisJson(m: DocModel, limit = DEFAULT_LIMIT): AnalysisResult {
  return analysisData({
    uri: m.uri, version: m.version, title: m.title, history: m.history, lines: m.lines, readsFrom: m.readsFrom,
    levels: m.levels, mixed: m.mixed, rules: m.rules,
    forced: (rule) => {
      const f = m.forced(rule);
      return f ? { from: f.from, to: f.to, a: f.a, b: f.b, length: f.a.length } : undefined;
    },
    get explain() { return m.explain; },
  }, limit);
}
