// Canonical ids: moving session blocks around gives the same verdicts, witnesses and anomalies, byte for byte.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { fileReport } from '../server/src/engine/report.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { naturalCompare, numberedNames } from '../server/src/engine/model/canonical-order.ts';
import { analyzePlumeBytes } from '../server/src/engine/analyze.ts';
import { toPlumeString } from '../server/src/engine/gen/history-writers.ts';
import { DEFAULT_GEN_OPTIONS, generateHistory, Rng, type StoreKind } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { smallListHistory } from './helpers/listappend-random.ts';
import { renderDetails, renderTable } from '../server/src/cli/text-report.ts';
import { buildSnapshot } from '../server/src/lsp/snapshot.ts';
import { DocModel } from '../server/src/lsp/doc-model.ts';
import { documentSymbols } from '../server/src/lsp/features/symbols.ts';
import { hoverAt } from '../server/src/lsp/features/hover.ts';
import { opAt, opsBySourceOrder, opsInSourceOrder, txnHeaderAt, txnsBySourceOrder } from '../server/src/engine/queries.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';

/** The text with its session blocks in another order (a block runs from its `session` line to the next). */
export function shuffleSessions(text: string, seed: number): string {
  const lines = text.split('\n');
  const firstSession = lines.findIndex((l) => l.startsWith('session '));
  if (firstSession < 0) return text;
  const head = lines.slice(0, firstSession);
  const blocks: string[][] = [];
  for (const l of lines.slice(firstSession)) {
    if (l.startsWith('session ')) blocks.push([]);
    blocks[blocks.length - 1].push(l);
  }
  const rng = new Rng(seed);
  for (let i = blocks.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [blocks[i], blocks[j]] = [blocks[j], blocks[i]];
  }
  // Each block ends with a newline, so no block runs into the next one's header.
  return [...head, ...blocks.flatMap((b) => (b[b.length - 1] === '' ? b : [...b, '']))].join('\n');
}

/** Level tags chosen by each transaction's name (the same after any shuffle): mixed verdicts to compare. */
function tagged(text: string, seed: number): string {
  const tags = ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER'];
  return text.replace(/^( {2}T(\d+))( |:)/gm, (_, head: string, n: string, after: string) => {
    const pick = (Number(n) * 7 + seed) % (tags.length + 2);
    return pick < tags.length ? `${head} [${tags[pick]}]${after}` : `${head}${after}`;
  });
}

/** What must not move: verdicts, witnesses, mixed verdict, anomalies; source ranges do move and are dropped. */
function canonicalJson(text: string): string {
  const r = fileReport('f.hist', analyzeHistText(text));
  return JSON.stringify({ levels: r.levels, mixed: r.mixed, anomalies: r.anomalies ?? null }, (k, v: unknown) => (k === 'range' ? undefined : v));
}

/**
 * The text report, with line:column positions masked (they move with the blocks); the error lines
 * stand in file order, so they are compared as a set.
 */
function canonicalText(text: string): string {
  const r = fileReport('f.hist', analyzeHistText(text));
  const lines = `${renderTable([r])}\n${renderDetails(r)}`.replace(/line \d+:\d+/g, 'line ?').split('\n');
  const errors = lines.filter((l) => l.startsWith('  line ?: '));
  return [...lines.filter((l) => !l.startsWith('  line ?: ')), ...errors.sort()].join('\n');
}

function registerHistory(i: number): string {
  const rng = new Rng(i * 104729 + 7);
  const stores: StoreKind[] = ['permissive', 'causal', 'snapshot', 'read-committed', 'serial'];
  const text = toHistString(generateHistory({
    ...DEFAULT_GEN_OPTIONS, seed: i + 1, store: stores[i % stores.length], transactions: 5 + rng.below(9), sessions: 2 + rng.below(4),
    keys: 2 + rng.below(3), opsPerTxn: 2 + rng.below(3), readRatio: 0.5, abortRatio: rng.below(4) === 0 ? 0.1 : 0,
  }));
  return i % 3 === 0 ? tagged(text, i) : text;
}

function listHistory(i: number): string {
  // smallListHistory has 1–3 sessions; several of them share names' prefixes on purpose (s0 … s2).
  return smallListHistory(i + 1);
}

describe('canonical ids (issue 9): session-order shuffles change nothing but source positions', () => {
  test('naturalCompare orders digit runs as numbers and is a total order', () => {
    const names = ['T10', 'T9', 'T1', 'T01', 'a', 'B', 's2', 's10', 's1.2', 's1', '', 'T1a', 'T1b'];
    const sorted = [...names].sort(naturalCompare);
    assert.deepEqual(sorted, ['', 'B', 'T01', 'T1', 'T1a', 'T1b', 'T9', 'T10', 'a', 's1', 's1.2', 's2', 's10']);
    for (const a of names) for (const b of names) assert.equal(Math.sign(naturalCompare(a, b)) + Math.sign(naturalCompare(b, a)), 0, `${a} ${b}`);
  });

  test('numberedNames: one prefix and plain numbers, else null (the natural order then)', () => {
    assert.deepEqual(Array.from(numberedNames(['init', 'T1', 'T2', 'T10']) ?? []), [0, 1, 2, 10]);
    assert.deepEqual(Array.from(numberedNames(['init', '7', '3']) ?? []), [0, 7, 3]);
    assert.equal(numberedNames(['init', 'T1', 'U2']), null);
    assert.equal(numberedNames(['init', 'T1', 'T01']), null);
    assert.equal(numberedNames(['init', 'T1', 'T2x']), null);
    assert.equal(numberedNames(['init', 'A', 'B']), null);
  });

  test('plume: lines regrouped by session (the order within each session kept) give the same JSON', () => {
    for (let i = 0; i < 40; i++) {
      const rng = new Rng(i + 99);
      const g = generateHistory({ ...DEFAULT_GEN_OPTIONS, seed: i + 1, store: (['permissive', 'causal', 'read-committed'] as const)[i % 3],
        transactions: 6 + rng.below(8), sessions: 2 + rng.below(3), keys: 2 + rng.below(3), opsPerTxn: 3, abortRatio: i % 4 === 0 ? 0.15 : 0 });
      const text = toPlumeString(g);
      const lines = text.split('\n').filter((l) => l.length > 0);
      const session = (l: string): number => Number(l.split(',')[2]);
      const sessions = [...new Set(lines.map(session))];
      const json = (t: string): string => {
        const r = fileReport('f.txt', analyzePlumeBytes(new TextEncoder().encode(t)));
        // Aborted plume writes are named by their line, which moves: compare without them.
        return JSON.stringify({ levels: r.levels, mixed: r.mixed }, (k, v: unknown) => (k === 'range' ? undefined : v));
      };
      const base = json(text);
      for (const seed of [1, 2]) {
        const order = [...sessions];
        const r2 = new Rng(seed * 1000 + i);
        for (let j = order.length - 1; j > 0; j--) {
          const k = r2.below(j + 1);
          [order[j], order[k]] = [order[k], order[j]];
        }
        const regrouped = order.flatMap((s) => lines.filter((l) => session(l) === s)).join('\n') + '\n';
        if (/aborted@line/.test(base)) continue;
        assert.equal(json(regrouped), base, `plume history ${i}, order ${order.join(',')}`);
      }
    }
  });

  test('ids are canonical: sessions by name, transactions merged by name along so, keys and values by first use', () => {
    const text = 'init z = 5\nsession b\n  T3: w(y, 2) r(x, init)\n  T4: r(x, 1)\nsession a\n  T1: w(x, 1) r(y, init)\n  T2 aborted: r(y, 2) w(q, 9)\n';
    const h = parseHist(text).history;
    assert.deepEqual(Array.from({ length: h.sessionCount }, (_, s) => h.names.sessionName(s)), ['a', 'b']);
    assert.deepEqual(Array.from({ length: h.txnCount }, (_, t) => h.names.txnName(t)), ['init', 'T1', 'T2', 'T3', 'T4']);
    assert.deepEqual(Array.from(h.txnSession), [-1, 0, 0, 1, 1]);
    assert.deepEqual(Array.from(h.txnAborted), [0, 0, 1, 0, 0]);
    assert.deepEqual(Array.from({ length: h.keyCount }, (_, k) => h.names.keyName(k)), ['x', 'y', 'q', 'z']);
    assert.deepEqual(Array.from(h.opKey), [0, 1, 1, 2, 1, 0, 0]);
    assert.deepEqual(Array.from(h.opValue, (v) => h.names.valueText(v)), ['1', 'init', '2', '9', '2', 'init', '1']);
    assert.deepEqual([...h.initValues].map(([k, v]) => [h.names.keyName(k), h.names.valueText(v)]), [['z', '5']]);
    // Source ranges moved with their transactions and ops.
    const r = h.ranges;
    assert.ok(r);
    assert.equal(text.slice(r.txnStart[1], r.txnEnd[1]), 'T1:');
    assert.equal(text.slice(r.opStart[0], r.opEnd[0]), 'w(x, 1)');
    assert.equal(text.slice(r.sessionStart[0], r.sessionEnd[0]), 'session a');
    // The same history, sessions in name order already: the same ids.
    const h2 = parseHist(shuffleSessions(text, 1)).history;
    assert.deepEqual(Array.from(h2.opKey), Array.from(h.opKey));
    assert.deepEqual(Array.from(h2.opTxn), Array.from(h.opTxn));
  });

  test('editor lookups by offset find transactions and ops whose ids are not in source order', () => {
    const text = 'session b\n  T3: w(y, 2)\n  T4: r(x, 1)\nsession a\n  T1: w(x, 1)\n  T2: r(y, 2)\n';
    const h = parseHist(text).history;
    assert.equal(opsInSourceOrder(h), false);
    const txnOrder = txnsBySourceOrder(h);
    const opOrder = opsBySourceOrder(h);
    assert.ok(txnOrder);
    for (const name of ['T1', 'T2', 'T3', 'T4']) {
      const at = text.indexOf(`${name}:`);
      assert.equal(h.names.txnName(txnHeaderAt(h, at + 1, txnOrder)), name);
      const o = opAt(h, text.indexOf('(', at) + 1, opOrder);
      assert.equal(h.names.txnName(h.opTxn[o]), name);
    }
    // Sessions in name order already: ids are in source order, no index needed.
    assert.equal(txnsBySourceOrder(parseHist('session a\n  T1: w(x, 1)\nsession b\n  T2: r(x, 1)\n').history), null);
  });

  test('ops in source order: transactions sorted by their first op give the order of sorting every op (.hist with sessions shuffled, interleaved plume)', () => {
    const naive = (h: ReturnType<typeof parseHist>['history']): number[] => {
      const r = h.ranges!;
      return Array.from({ length: h.opCount }, (_, i) => i).sort((a, b) => r.opStart[a] - r.opStart[b] || a - b);
    };
    for (let seed = 1; seed <= 200; seed++) {
      const g = generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 2 + (seed % 5), transactions: 10 + (seed % 30), store: 'permissive', seed });
      const hist = parseHist(shuffleSessions(toHistString(g), seed)).history;
      assert.deepEqual(Array.from(opsBySourceOrder(hist)), naive(hist), `.hist seed ${seed}`);
      const plume = analyzePlumeBytes(new TextEncoder().encode(toPlumeString(g))).history;
      assert.deepEqual(Array.from(opsBySourceOrder(plume)), naive(plume), `plume seed ${seed}`);
    }
  });

  test('the editor: the outline follows the text, hover on a header names that transaction', () => {
    const text = 'session b\n  T3: w(y, 2)\n  T4: r(x, 1)\nsession a\n  T1: w(x, 1)\n  T2: r(y, 2)\n';
    const { snapshot } = buildSnapshot(text, { uri: 'file:///f.hist', levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 });
    const m = new DocModel('file:///f.hist', 1, '', snapshot, false, text);
    assert.deepEqual(documentSymbols(m).map((s) => `${s.name}: ${(s.children ?? []).map((c) => c.name).join(' ')}`), ['b: T3 T4', 'a: T1 T2']);
    for (const [line, name] of [[1, 'T3'], [2, 'T4'], [4, 'T1'], [5, 'T2']] as const) {
      const hover = hoverAt(m, { line, character: 3 });
      const value = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
      assert.match(value, new RegExp(`^\\*\\*${name}\\*\\*`), `line ${line}`);
    }
  });

  test('the outline is capped: sessions and transactions in text order up to the limit, and a cut session says so', () => {
    let text = '';
    for (const s of ['b', 'a', 'c']) {
      text += `session ${s}\n`;
      for (let i = 1; i <= 4; i++) text += `  ${s.toUpperCase()}${i}: w(x${s}, ${i})\n`;
    }
    const { snapshot } = buildSnapshot(text, { uri: 'file:///f.hist', levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 });
    const m = new DocModel('file:///f.hist', 1, '', snapshot, false, text);
    const outline = (max: number): string[] => documentSymbols(m, max).map((s) => `${s.name}: ${(s.children ?? []).map((c) => c.name).join(' ')} (${s.detail})`);
    assert.deepEqual(outline(100), ['b: B1 B2 B3 B4 (4 transactions)', 'a: A1 A2 A3 A4 (4 transactions)', 'c: C1 C2 C3 C4 (4 transactions)']);
    assert.deepEqual(outline(8), ['b: B1 B2 B3 B4 (4 transactions)', 'a: A1 A2 (4 transactions (2 in the outline, which shows 8 symbols at most))']);
    // 8,000 transactions: the outline stays at the cap.
    const big = toHistString(generateHistory({ ...DEFAULT_GEN_OPTIONS, seed: 3, sessions: 8, transactions: 8_000, keys: 500, store: 'causal' }));
    const bm = new DocModel('file:///big.hist', 1, '', buildSnapshot(big, { uri: 'file:///big.hist', levels: ['RC'], maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 }).snapshot, false, big);
    const symbols = documentSymbols(bm);
    assert.equal(symbols.reduce((n, s) => n + 1 + (s.children?.length ?? 0), 0), 5000);
  });

  test('reads naming their writer (<- T) follow the writer to its new id', () => {
    const text = 'session z\n  B: r(x) <- A\nsession a\n  A: w(x, 1)\n';
    const h = parseHist(text).history;
    assert.equal(h.names.txnName(1), 'A');
    assert.equal(h.names.txnName(h.opTxn[1]), 'B');
    assert.equal(h.opSource?.[1], 1);
    assert.equal(canonicalJson(text), canonicalJson(shuffleSessions(text, 3)));
  });

  test('260 generated histories (register, tagged, list-append), 3 shuffles each: byte-identical JSON and text', () => {
    let violated = 0;
    let withWitness = 0;
    let mixed = 0;
    let anomalies = 0;
    let moved = 0;
    for (let i = 0; i < 260; i++) {
      const text = i < 180 ? registerHistory(i) : listHistory(i);
      const json = canonicalJson(text);
      const report = canonicalText(text);
      const parsed = JSON.parse(json) as { levels: Record<string, { consistent: boolean | null; witness?: unknown }>; mixed: unknown; anomalies: unknown[] | null };
      if (LEVELS.some((l) => parsed.levels[l]?.consistent === false)) violated++;
      if (Object.values(parsed.levels).some((v) => v.witness)) withWitness++;
      if (parsed.mixed) mixed++;
      if (parsed.anomalies && parsed.anomalies.length > 0) anomalies++;
      for (const seed of [1, 2, 3]) {
        const shuffled = shuffleSessions(text, i * 31 + seed);
        if (shuffled !== text) moved++;
        assert.equal(canonicalJson(shuffled), json, `history ${i}, shuffle ${seed}:\n${shuffled}`);
        assert.equal(canonicalText(shuffled), report, `history ${i}, shuffle ${seed} (text report)`);
      }
    }
    // The corpus must exercise what it claims to.
    assert.ok(violated >= 100, `${violated} histories violate some level`);
    assert.ok(withWitness >= 100, `${withWitness} histories have a witness`);
    assert.ok(mixed >= 40, `${mixed} histories have a mixed verdict`);
    assert.ok(anomalies >= 20, `${anomalies} list histories have anomalies`);
    assert.ok(moved >= 500, `${moved} shuffles moved a block`);
  });
});
