// The graph's order edges: rt as the transitive reduction of real time (against a naive transcription), ww / rw per level, and the neighbourhood of large histories.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { analysisData, sourceOfAnalysis } from '../server/src/engine/export/analysis-data.ts';
import { orderKindsFor } from '../server/src/engine/export/layout.ts';
import { realTimeEdges } from '../server/src/engine/export/order-edges.ts';
import { Rng } from '../server/src/engine/gen/generate.ts';
import { analysisJsonOfAnalysis } from '../server/src/lsp/features/analysis-json.ts';
import type { AnalysisResult } from '../server/src/protocol/shapes.ts';
import { analysisOfExample } from './helpers/graph-page.ts';

const ZERO = (): { start: { line: number; character: number }; end: { line: number; character: number } } => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });

/** A random register history with `@` intervals (small integers: ties happen), some unknown and aborted transactions. */
function randomTimed(rng: Rng): string {
  const sessions = 1 + rng.below(4);
  const lines: string[] = [];
  let id = 1;
  for (let s = 0; s < sessions; s++) {
    lines.push(`session s${s}`);
    let t = rng.below(5);
    for (let k = 0, n = 1 + rng.below(4); k < n; k++) {
      const start = t + rng.below(4);
      const end = start + rng.below(6);
      t = end + 1;
      const status = rng.below(8) === 0 ? ' unknown' : rng.below(10) === 0 ? ' aborted' : '';
      lines.push(`  T${id++}${status} @ ${start}..${end}: w(x${rng.below(3)}, ${id})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

describe('rt edges', () => {
  test('the transitive reduction of real time, as a naive transcription computes it, on 1,500 random histories', () => {
    const rng = new Rng(11);
    let edges = 0;
    for (let i = 0; i < 1500; i++) {
      const text = randomTimed(rng);
      const h = analyzeHistText(text).history;
      const ts = h.txnTimeStart!;
      const te = h.txnTimeEnd!;
      const inGraph = (t: number): boolean => h.txnAborted[t] === 0;
      const ender = (t: number): boolean => inGraph(t) && h.txnUnknown?.[t] !== 1;
      const expected: string[] = [];
      for (let a = 1; a < h.txnCount; a++) {
        for (let b = 1; b < h.txnCount; b++) {
          if (!ender(a) || !inGraph(b) || a === b || h.txnSession[a] === h.txnSession[b] || !(te[a] < ts[b])) continue;
          let between = false;
          for (let c = 1; c < h.txnCount && !between; c++) between = ender(c) && te[a] < ts[c] && te[c] < ts[b];
          if (!between) expected.push(`${a}->${b}`);
        }
      }
      const got = realTimeEdges(h, null, () => ZERO(), 1_000_000);
      assert.deepEqual(got.edges.map((e) => `${e.from}->${e.to}`).sort(), expected.sort(), text);
      assert.equal(got.total, expected.length);
      for (const e of got.edges) assert.match(e.because, /^T\d+ ended \(at \d+\) before T\d+ started \(at \d+\)$/);
      edges += expected.length;
    }
    assert.ok(edges > 1000, `${edges} rt edges compared`);
  });

  test('cut at max, counted in full', () => {
    const text = 'session a\n  T1 @ 0..1: w(x, 1)\nsession b\n  T2 @ 0..1: w(x, 2)\nsession c\n  T3 @ 5..6: w(x, 3)\n';
    const r = realTimeEdges(analyzeHistText(text).history, null, () => ZERO(), 1);
    assert.equal(r.edges.length, 1);
    assert.equal(r.total, 2);
  });
});

describe('ww / rw edges of list-append histories', () => {
  test('the analysis JSON lists the observed ww and rw edges with their sentences and the read that shows them', () => {
    const a = analysisOfExample('la-lost-update.hist');
    const ww = a.order!.find((e) => e.kind === 'ww')!;
    assert.equal(ww.because, "T2 appended 2 to x right after T1's 1: T3 read x = [1, 2]");
    assert.equal(ww.range.start.line, a.transactions.find((t) => t.name === 'T3')!.range!.start.line, 'at T3\'s read');
    const rw = a.order!.find((e) => e.kind === 'rw')!;
    assert.match(rw.because, /^T2 read x = \[\], missing T1's append of 1/);
    assert.equal(a.orderTotal, 2);
    // List reads' wr edges are wr edges like the registers' (drawn by the wr toggle).
    assert.deepEqual(a.wr.map((e) => `${e.from}->${e.to}:${e.key}`), ['2->3:x']);
    assert.deepEqual(a.transactions[3].ops, ['r(x, [1, 2])']);
  });

  test('which kinds each level draws comes from the anomaly table', () => {
    const a = analysisOfExample('la-lost-update.hist');
    const kinds = (l: Parameters<typeof orderKindsFor>[1]): string => [...orderKindsFor(a, l)].sort().join(' ');
    assert.equal(kinds('RC'), 'ww');
    assert.equal(kinds('PC'), 'ww');
    assert.equal(kinds('PSI'), 'rw ww');
    assert.equal(kinds('SER'), 'rw ww');
    assert.equal(kinds('SSER'), 'rt rw ww');
    assert.equal(kinds('mixed'), 'rw ww', 'no transaction tagged SSER');
  });

  test('a register history has no order edges unless it has intervals', () => {
    assert.equal(analysisOfExample('write-skew.hist').order, undefined);
    assert.deepEqual(analysisOfExample('stale-read-realtime.hist').order?.map((e) => `${e.kind}:${e.from}->${e.to}`), ['rt:1->2']);
  });
});

describe('the graph JSON of a large history', () => {
  test('only the witness neighbourhood is described, and only edges inside it are listed', () => {
    // 60 independent write-skew pairs and one fractured read at the end: 123 transactions, the graph capped at 10.
    const pairs = Array.from({ length: 60 }, (_, i) => `session p${i}\n  A${i}: w(a${i}, 1)\n  B${i}: r(a${i}, 1)\n`).join('');
    const text = `${pairs}session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n`;
    const a = analyzeHistText(text);
    const full = analysisData(sourceOfAnalysis(a, 'file:///big.hist', 1));
    const capped: AnalysisResult = analysisJsonOfAnalysis(a, 'file:///big.hist', 1, 20_000, 10);
    assert.deepEqual(capped.truncated && { shown: capped.truncated.shown, total: capped.truncated.total }, { shown: 2, total: 122 });
    const described = capped.transactions.filter((t) => t.ops.length > 0).map((t) => t.name);
    assert.deepEqual(described, ['T1', 'T2']);
    assert.equal(capped.transactions.length, full.transactions.length, 'every transaction keeps its id');
    const named = new Set(described.map((n) => capped.transactions.find((t) => t.name === n)!.id));
    named.add(0);
    for (const e of [...capped.wr, ...capped.forced.flatMap((f) => f.edges)]) assert.ok(named.has(e.from) && named.has(e.to), `${e.from}->${e.to}`);
    assert.ok(capped.wr.length > 0 && capped.wr.length < full.wr.length);
    assert.equal(capped.wrTotal, full.wrTotal, 'the totals count every edge');
    assert.deepEqual(capped.levels, full.levels);
  });
});

describe('unknown transactions in the graph', () => {
  test('an unknown one nobody read is marked not run; one read from ran; both drawn with their outcome', async () => {
    const { layoutGraph, boxHeader } = await import('../server/src/engine/export/layout.ts');
    const { renderSvg } = await import('../server/src/engine/export/svg-writer.ts');
    const text = 'session A\n  T1 unknown: w(x, 1)\n  T2 unknown: w(y, 1)\nsession B\n  T3: r(x, 1)\n';
    const j = analysisJsonOfAnalysis(analyzeHistText(text), 'file:///u.hist', 1);
    const by = (name: string) => j.transactions.find((t) => t.name === name)!;
    assert.deepEqual([by('T1'), by('T2'), by('T3')].map((t) => [t.unknown, t.notRun, t.aborted]), [[true, false, false], [true, true, false], [false, false, false]]);
    const l = layoutGraph(j, { level: 'SER', kinds: { so: true, wr: true, co: true }, visible: null });
    const box = (name: string) => l.nodes.find((n) => n.name === name)!;
    assert.equal(boxHeader(box('T1')), 'T1 unknown');
    assert.equal(boxHeader(box('T2')), 'T2 unknown, not run');
    assert.match(renderSvg(l), /T2 unknown, not run/);
    // The CLI's export is of the checked history: the transaction that never ran is not in it.
    const checked = analysisData(sourceOfAnalysis(analyzeHistText(text), 'file:///u.hist'));
    assert.deepEqual(checked.transactions.map((t) => `${t.name}${t.notRun ? '!' : ''}`), ['⊥', 'T1', 'T3']);
  });
});
