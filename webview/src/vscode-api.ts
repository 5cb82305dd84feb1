// The VS Code webview API behind a small interface; in a plain browser (tests) state falls back to localStorage.
/// <reference lib="dom" />

import type { ViewToHostMessage } from '../../server/src/protocol/webview.ts';

export interface HostApi {
  postMessage(message: ViewToHostMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: (() => HostApi) | undefined;

const KEY = 'isocheck.graph.state';

export function hostApi(): HostApi {
  if (typeof acquireVsCodeApi === 'function') return acquireVsCodeApi();
  return {
    postMessage: (m) => console.log('isocheck webview →', JSON.stringify(m)),
    getState: () => {
      const s = localStorage.getItem(KEY);
      return s ? JSON.parse(s) as unknown : undefined;
    },
    setState: (s) => localStorage.setItem(KEY, JSON.stringify(s)),
  };
}
