// The graph view's host in the playground: the webview bundle asks for acquireVsCodeApi(); the page and the view call each other directly.
/// <reference lib="dom" />

import type { HostApi } from '../../webview/src/vscode-api.ts';
import { isViewToHostMessage, type HostToViewMessage, type ViewToHostMessage } from '../../server/src/protocol/webview.ts';

type Listener = (m: ViewToHostMessage) => void;
let listener: Listener | null = null;
const early: ViewToHostMessage[] = [];
/** The view's receiver, once it listens; messages sent before wait here. (No window message: another page could post one.) */
let view: ((m: unknown) => void) | null = null;
const waiting: HostToViewMessage[] = [];
let state: unknown;

const api: HostApi = {
  // The view is the page's own bundle, but what it asks is checked as VS Code's host checks it.
  postMessage: (m: unknown) => {
    if (!isViewToHostMessage(m)) return;
    if (listener) listener(m);
    else early.push(m);
  },
  getState: () => state,
  setState: (s) => { state = s; },
  onMessage: (l) => {
    view = l;
    for (const m of waiting.splice(0)) l(m);
  },
};
(window as unknown as { acquireVsCodeApi: () => HostApi }).acquireVsCodeApi = () => api;

/** Receives the view's messages (ready, reveal, export); replays those sent before the page listened. */
export function onGraphMessage(l: Listener): void {
  listener = l;
  for (const m of early.splice(0)) l(m);
}

/** Sends the view a message, as VS Code would, by a call only this page can make. */
export function toGraph(m: HostToViewMessage): void {
  if (view) view(m);
  else waiting.push(m);
}
