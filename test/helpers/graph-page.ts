// Loads the bundled graph webview into a plain headless Chromium page with a stub acquireVsCodeApi.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { analyzeHistText } from '../../server/src/engine/analyze.ts';
import { analysisData, sourceOfAnalysis } from '../../server/src/engine/export/analysis-data.ts';
import type { AnalysisResult } from '../../server/src/protocol/shapes.ts';
import type { ViewToHostMessage } from '../../server/src/protocol/webview.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** VS Code's own colours for the variables the view reads (Light Modern / Dark Modern). */
export const THEMES = {
  light: {
    body: 'vscode-light',
    vars: {
      'editor-background': '#ffffff', 'editor-foreground': '#3b3b3b', descriptionForeground: '#717171', 'editorWidget-background': '#f8f8f8',
      'editorWidget-border': '#c8c8c8', 'charts-green': '#388a34', 'charts-blue': '#1a85ff', 'charts-purple': '#652d90', 'charts-orange': '#d18616',
      'charts-yellow': '#bf8803', 'charts-red': '#e51400', focusBorder: '#005fb8', 'button-secondaryBackground': '#e5e5e5', 'button-secondaryForeground': '#3b3b3b',
    },
  },
  dark: {
    body: 'vscode-dark',
    vars: {
      'editor-background': '#1f1f1f', 'editor-foreground': '#cccccc', descriptionForeground: '#9d9d9d', 'editorWidget-background': '#202020',
      'editorWidget-border': '#454545', 'charts-green': '#89d185', 'charts-blue': '#3794ff', 'charts-purple': '#b180d7', 'charts-orange': '#d18616',
      'charts-yellow': '#cca700', 'charts-red': '#f14c4c', focusBorder: '#0078d4', 'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc',
    },
  },
} as const;

export type Theme = keyof typeof THEMES;

export function analysisOf(text: string, uri = 'file:///histories/example.hist'): AnalysisResult {
  return analysisData(sourceOfAnalysis(analyzeHistText(text), uri, 1));
}

export function analysisOfExample(name: string): AnalysisResult {
  return analysisOf(readFileSync(join(ROOT, 'examples', name), 'utf8'), `file:///histories/examples/${name}`);
}

/**
 * In the page: the witness labels that a witness line runs through, as sentences. Each pair is a label (or null) and
 * its edge's path; a label's box is sampled every pixel against the lines' strokes as the browser draws them.
 */
export const CROSSINGS = `const crossings = (pairs) => {
  const out = [];
  for (const [text] of pairs) {
    if (!text || !text.textContent) continue;
    const b = text.getBBox();
    for (const [, path] of pairs) {
      let hit = false;
      for (let x = b.x; x <= b.x + b.width && !hit; x += 1) for (let y = b.y; y <= b.y + b.height && !hit; y += 1) hit = path.isPointInStroke(new DOMPoint(x, y));
      if (hit) out.push('witness label "' + text.textContent + '" crossed by a witness line (' + (path.parentNode.getAttribute('data-id') || path.getAttribute('d').slice(0, 40)) + ')');
    }
  }
  return out;
};`;

/** The live view's witness labels that a witness line runs through (the webview's and the playground's drawing). */
export const LIVE_CROSSINGS = `(() => {
  ${CROSSINGS}
  return crossings([...document.querySelectorAll('svg.graph g.edge.witness')].map((g) => [g.querySelector('text.label'), g.querySelector('path.line')]));
})()`;

/** Where the harness serves the view: a real origin, as a VS Code webview has (the view takes messages from its own origin only). */
export const GRAPH_ORIGIN = 'http://isocheck-webview.test';

export interface GraphPage {
  page: Page;
  posted(): Promise<ViewToHostMessage[]>;
  /** Posts a message from the view's own origin, as VS Code's host frame does; resolves once the view has handled it. */
  send(message: unknown): Promise<void>;
  /** Whether a dialog (alert) was opened: injected markup would do that. */
  dialogs: string[];
}

export async function openGraph(browser: Browser, theme: Theme = 'light', size = { width: 1280, height: 760 }, state: unknown = undefined): Promise<GraphPage> {
  const page = await browser.newPage({ viewport: size });
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  const stub = `(() => {
    window.__posted = [];
    let state = ${JSON.stringify(state ?? null)};
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => state ?? undefined,
      setState: (s) => { state = s; window.__state = s; },
    });
  })();`;
  const t = THEMES[theme];
  const vars = Object.entries(t.vars).map(([k, v]) => `--vscode-${k}: ${v};`).join(' ');
  const css = readFileSync(join(ROOT, 'out/webview/webview.css'), 'utf8');
  const js = readFileSync(join(ROOT, 'out/webview/webview.js'), 'utf8');
  // The same CSP as the real panel, with the bundle inline under a nonce.
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'nonce-test'; script-src 'nonce-test';">
<style nonce="test">html { ${vars} --vscode-font-family: system-ui, sans-serif; }</style><style nonce="test">${css}</style></head>
<body class="${t.body}"><div id="app"></div><script nonce="test">${stub}</script><script nonce="test">${js.replace(/<\/script/gi, '<\\/script')}</script></body></html>`;
  // Served (not setContent: about:blank has an opaque origin) so messages carry a real origin.
  await page.route(`${GRAPH_ORIGIN}/`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(`${GRAPH_ORIGIN}/`);
  await page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
  return {
    page,
    dialogs,
    posted: () => page.evaluate(() => (window as unknown as { __posted: ViewToHostMessage[] }).__posted),
    // As a string: Playwright's transfer of a deep object is far slower than VS Code's postMessage.
    // The view's listener was added first, so it has run when this one resolves.
    send: async (message) => {
      await page.evaluate((json) => new Promise<void>((resolve) => {
        window.addEventListener('message', () => resolve(), { once: true });
        window.postMessage(JSON.parse(json) as unknown, window.origin);
      }), JSON.stringify(message));
    },
  };
}
