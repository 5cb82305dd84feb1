// The graph view's host in the playground: the webview bundle asks for acquireVsCodeApi(); the page answers its messages.
/// <reference lib="dom" />

import type { HostToViewMessage, ViewToHostMessage } from '../../server/src/protocol/webview.ts';

type Listener = (m: ViewToHostMessage) => void;
let listener: Listener = () => undefined;
const early: ViewToHostMessage[] = [];
let state: unknown;

(window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
  postMessage: (m: ViewToHostMessage) => { if (listener === noop) early.push(m); else listener(m); },
  getState: () => state,
  setState: (s: unknown) => { state = s; },
});
const noop: Listener = listener;
listener = noop;

/** Receives the view's messages (ready, reveal, export); replays those sent before the page listened. */
export function onGraphMessage(l: Listener): void {
  listener = l;
  for (const m of early.splice(0)) l(m);
}

/** Sends the view a message as VS Code would. */
export function toGraph(m: HostToViewMessage): void {
  window.dispatchEvent(new MessageEvent('message', { data: m }));
}
