// Messages between the extension host and the graph webview (postMessage), as discriminated unions.

import type { AnalysisResult, JsonRange } from './shapes.ts';

/** extension host → webview. */
export type HostToViewMessage =
  | { type: 'analysis'; analysis: AnalysisResult }
  | { type: 'cleared'; uri: string };

/** webview → extension host. */
export type ViewToHostMessage =
  | { type: 'ready' }
  | { type: 'reveal'; uri: string; range: JsonRange };
