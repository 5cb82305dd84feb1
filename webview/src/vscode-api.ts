// The VS Code webview API behind a small interface; in a plain browser (tests) state falls back to localStorage.
/// <reference lib="dom" />

import type { ViewToHostMessage } from '../../server/src/protocol/webview.ts';

export interface HostApi {
  postMessage(message: ViewToHostMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
  /**
   * A host in the view's own page (the playground) hands its messages over by this call, so the view listens to
   * no window messages there: nothing another page posts can reach it. VS Code's API has no such method.
   */
  onMessage?(listener: (message: unknown) => void): void;
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

/**
 * Whether a window message comes from the webview host. VS Code's host frame posts into the view's frame from the
 * same origin (its `fake.html` and the host's `index.html` share the webview's own origin), and it hides the real
 * `window.parent`, so the origin is what can be checked: any other page — a frame, an opener, a synthetic event
 * (origin '') — has another one. An opaque origin ('null') is shared by every sandboxed page, so it never matches.
 */
export function fromWebviewHost(event: { origin: string }, ownOrigin: string): boolean {
  return ownOrigin !== 'null' && ownOrigin !== '' && event.origin === ownOrigin;
}

/** Calls `listener` with each message of the host (unchecked data: the caller validates it) and of no one else. */
export function listenToHost(api: HostApi, listener: (message: unknown) => void): void {
  if (api.onMessage) {
    api.onMessage(listener);
    return;
  }
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (!fromWebviewHost(event, window.origin)) {
      console.warn('isocheck graph: ignored a message that did not come from the webview host');
      return;
    }
    listener(event.data);
  });
}
