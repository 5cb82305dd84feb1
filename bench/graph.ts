// Graph bench: time to first graph for generated 5,000-transaction histories (register and list-append), in headless Chromium.
//
//   npm run bench:graph [-- 5000,20000]
//
// Prints: the engine's analysis, the analysis JSON as the language server builds it (a large history's witness
// neighbourhood), the layout alone (Node), and in the webview the time from the analysis message to the first
// drawn frame. Needs Chromium (test/vscode/install-tools.sh) and `npm run build`. Target (issue 11): ≤ 1 s.

import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { analysisJsonOfAnalysis } from '../server/src/lsp/features/analysis-json.ts';
import { generateListHistory, listHistToString } from '../server/src/engine/gen/list-append-store.ts';
import { layoutGraph, verdictOf, visibleSet, type ViewLevel } from '../server/src/engine/export/layout.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { openGraph } from '../test/helpers/graph-page.ts';
import { launchChromium } from '../test/vscode/browser.ts';
import { CHROMIUM } from '../test/vscode/paths.ts';

const sizes = (process.argv[2] ?? '5000').split(',').map(Number);
const ms = (t0: number): string => `${(performance.now() - t0).toFixed(0)} ms`;

async function main(): Promise<void> {
  const histories: { label: string; text: (n: number) => string }[] = [
    {
      label: 'register', text: (n) => toHistString(generateHistory({
        sessions: 16, transactions: n, opsPerTxn: 3, keys: Math.max(50, n / 10), distribution: 'uniform', zipfS: 0.8, readRatio: 0.5, store: 'permissive', seed: 7, abortRatio: 0.02,
      })),
    },
    {
      // Elle's workload from a permissive store: ww / rw / rt edges and anomaly cycles.
      label: 'list-append', text: (n) => listHistToString(generateListHistory({
        seed: 7, transactions: n, sessions: 16, keys: 32, maxAppends: 64, opsPerTxn: 4, readRatio: 0.5, abortRatio: 0.02, unknownRatio: 0.05, store: 'permissive', times: true,
      })),
    },
  ];
  for (const n of sizes) for (const { label, text: make } of histories) {
    const text = make(n);
    let t0 = performance.now();
    const analysis = analyzeHistText(text);
    console.log(`${n} transactions (${label}): analysis ${ms(t0)}`);
    t0 = performance.now();
    const a = analysisJsonOfAnalysis(analysis, 'file:///bench.hist', 1);
    const json = JSON.stringify({ type: 'analysis', analysis: a });
    console.log(`  analysis JSON ${ms(t0)} (${(json.length / 1e6).toFixed(1)} MB; ${a.truncated ? `${a.truncated.shown} of ${a.truncated.total} transactions in full` : 'whole'}; ${a.order?.length ?? 0} ww / rw / rt edges)`);
    const level: ViewLevel = a.levels.find((v) => v.state === 'violated')?.level ?? 'SER';
    t0 = performance.now();
    const visible = visibleSet(a, level, 1);
    const l = layoutGraph(a, { level, kinds: { so: true, wr: true, co: true }, visible });
    console.log(`  ${level} witness ${verdictOf(a, level)?.witness ? 'found' : 'none'}; ${visible ? `neighbourhood of ${visible.size - 1}` : `all ${n}`} transactions: neighbourhood + layout ${ms(t0)} (${l.nodes.length} boxes, ${l.edges.length} edges)`);
    if (!existsSync(CHROMIUM)) {
      console.log(`  (no Chromium at ${CHROMIUM}: webview timing skipped)`);
      continue;
    }
    const browser = await launchChromium();
    const g = await openGraph(browser, 'light', { width: 640, height: 760 });
    // The message is put into the page first (Playwright's transfer of megabytes is not the webview's cost), then timed
    // in the page: parse (the host's JSON), postMessage from the view's own origin as VS Code's host frame sends it
    // (its structured clone), validation, neighbourhood, layout, drawing, up to the next frame. The second listener
    // runs after the view's.
    await g.page.evaluate((j) => { (window as unknown as { __json: string }).__json = j; }, json);
    const first = await g.page.evaluate<number>(`new Promise((resolve) => {
      const t0 = performance.now();
      window.addEventListener('message', () => requestAnimationFrame(() => resolve(performance.now() - t0)), { once: true });
      window.postMessage(JSON.parse(window.__json), window.origin);
    })`);
    const shown = await g.page.locator('svg.graph g.box').count();
    const kinds = await g.page.locator('svg.graph g.edge').evaluateAll((es) => {
      const c: Record<string, number> = {};
      for (const e of es) c[e.getAttribute('data-kind') ?? '?'] = (c[e.getAttribute('data-kind') ?? '?'] ?? 0) + 1;
      return Object.entries(c).map(([k, v]) => `${v} ${k}`).join(', ');
    });
    console.log(`  webview: time to first graph ${first.toFixed(0)} ms (${shown} boxes; edges: ${kinds}) ${first <= 1000 ? '✓' : '✗'} (target ≤ 1000 ms)`);
    if (await g.page.locator('button.widen').isVisible()) {
      const widen = await g.page.evaluate<number>(`new Promise((resolve) => {
        const t0 = performance.now();
        document.querySelector('button.widen').click();
        requestAnimationFrame(() => resolve(performance.now() - t0));
      })`);
      console.log(`  Widen: ${widen.toFixed(0)} ms (${await g.page.locator('svg.graph g.box').count()} boxes)`);
    }
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
