// The language server's pure parts: settings, the scheduler, diagnostic capping, completion contexts, editor queries, message framing.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { finding, type Finding } from '../server/src/engine/model/diagnostics.ts';
import { headerOrOpAt, opAt, sessionExtent, txnExtent, txnHeaderAt } from '../server/src/engine/queries.ts';
import { readHistory } from '../server/src/engine/readers/registry.ts';
import { capFindings } from '../server/src/lsp/convert.ts';
import { completions, contextOf } from '../server/src/lsp/features/completion.ts';
import { FrameReader, FramingError, MAX_BODY_BYTES, MAX_HEADER_BYTES } from '../server/src/lsp/frame-reader.ts';
import { md, ordinal } from '../server/src/lsp/features/text.ts';
import { DebounceScheduler } from '../server/src/lsp/scheduler.ts';
import { tunables } from '../server/src/lsp/context.ts';
import { analysisKey, parseSettings } from '../server/src/lsp/settings.ts';
import { marked } from './helpers/marked.ts';
import { readPlume } from '../server/src/engine/readers/plume-reader.ts';
import { bytesOf } from '../server/src/engine/readers/reader.ts';
import { LineIndex } from '../server/src/engine/syntax/line-index.ts';
import { DocModel } from '../server/src/lsp/doc-model.ts';
import { analysisJsonOfAnalysis } from '../server/src/lsp/features/analysis-json.ts';
import { hoverAt } from '../server/src/lsp/features/hover.ts';
import { definitionAt } from '../server/src/lsp/features/navigation.ts';
import { analyzeDocument, buildSnapshot } from '../server/src/lsp/snapshot.ts';
import { TextView } from '../server/src/lsp/text-view.ts';
import { Rng } from '../server/src/engine/gen/generate.ts';

describe('settings', () => {
  test('defaults for anything missing or malformed', () => {
    assert.deepEqual(parseSettings(undefined), { levels: [], checkOn: 'change', maxWitnessesPerLevel: 1, plumeInit: 'zero' });
    assert.deepEqual(parseSettings({ levels: 'nope', checkOn: 'sometimes', maxWitnessesPerLevel: -3 }), { levels: [], checkOn: 'change', maxWitnessesPerLevel: 1, plumeInit: 'zero' });
  });

  test('levels by name or alias, deduplicated, weakest first', () => {
    assert.deepEqual(parseSettings({ levels: ['serializable', 'rc', 'causal', 'CC', 42], checkOn: 'save', maxWitnessesPerLevel: 3 }),
      { levels: ['RC', 'CC', 'SER'], checkOn: 'save', maxWitnessesPerLevel: 3, plumeInit: 'zero' });
    assert.deepEqual(parseSettings({ levels: 'RA, SI' }).levels, ['RA', 'SI']);
  });

  test('the analysis key ignores checkOn', () => {
    assert.equal(analysisKey(parseSettings({ checkOn: 'save' })), analysisKey(parseSettings({})));
    assert.notEqual(analysisKey(parseSettings({ levels: ['RC'] })), analysisKey(parseSettings({})));
  });
});

describe('tunables', () => {
  test('timer lengths beyond what setTimeout takes are capped (3e9 ms fired after 1 ms and failed every analysis)', () => {
    const o = tunables({ analysisTimeoutMs: 3e9, debounceMs: 1e12, configurationWaitMs: 2 ** 40, maxDiagnostics: 1e9 });
    assert.deepEqual([o.analysisTimeoutMs, o.debounceMs, o.configurationWaitMs], [2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1]);
    assert.equal(o.maxDiagnostics, 1e9, 'counts are not timers');
    assert.equal(tunables({ analysisTimeoutMs: -1 }).analysisTimeoutMs, 120_000);
  });
});

describe('scheduler', () => {
  test('the first edit after a pause runs at once; a burst runs once, after the debounce; forget drops a pending run', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const runs: { uri: string; at: number }[] = [];
    const s = new DebounceScheduler(300, (uri) => runs.push({ uri, at: Date.now() }), () => Date.now());
    const t0 = Date.now();
    s.edited('a');
    t.mock.timers.tick(0);
    assert.deepEqual(runs, [{ uri: 'a', at: t0 }], 'leading edge, at once');
    for (let k = 0; k < 5; k++) {
      t.mock.timers.tick(10);
      s.edited('a');
    }
    t.mock.timers.tick(299);
    assert.equal(runs.length, 1, 'the burst waits for a quiet debounce period after its last edit');
    t.mock.timers.tick(1);
    assert.deepEqual(runs.map((r) => [r.uri, r.at - t0]), [['a', 0], ['a', 350]], 'one run for the burst, 300 ms after its last edit');
    t.mock.timers.tick(1000);
    s.edited('b');
    s.forget('b');
    t.mock.timers.tick(1000);
    assert.equal(runs.filter((r) => r.uri === 'b').length, 0, 'forget drops a pending run');
  });
});

describe('diagnostics cap', () => {
  test('keeps errors first, then source order', () => {
    const f = (i: number, severity: Finding['severity']): Finding => finding('syntax', severity, String(i), { start: i, end: i + 1 });
    const all = [f(0, 'information'), f(1, 'error'), f(2, 'warning'), f(3, 'error'), f(4, 'information')];
    const { kept, dropped } = capFindings(all, 3);
    assert.deepEqual(kept.map((x) => x.message), ['1', '2', '3']);
    assert.equal(dropped, 2);
    assert.equal(capFindings(all, 10).dropped, 0);
  });
});

describe('completion contexts', () => {
  test('from the text before the cursor', () => {
    assert.equal(contextOf('  T3: r(x) <- '), 'transactions');
    assert.equal(contextOf('  T3: r(x) <- T'), 'transactions');
    assert.equal(contextOf('  T3: r('), 'keys');
    assert.equal(contextOf('  T3: w(ke'), 'keys');
    assert.equal(contextOf('  T3 ['), 'levels');
    assert.equal(contextOf('check RC '), 'levels');
    assert.equal(contextOf('expect R'), 'expect', 'after expect: levels and anomaly names');
    assert.equal(contextOf('expect G-sin'), 'expect');
    assert.equal(contextOf('expect SER '), 'any', 'then ok, violated, found, absent among the words');
    const labels = (prefix: string): string[] => completions(null, prefix).items.map((i) => i.label);
    for (const l of ['SSER', 'strict-serializable', 'G-single', 'G2-item-realtime', 'lost-update', 'garbage-read']) assert.ok(labels('expect ').includes(l), l);
    for (const l of ['@', 'unknown', 'found', 'absent']) assert.ok(labels('  T1 ').includes(l), l);
    assert.ok(!labels('check ').includes('G-single'), 'anomalies only after expect');
    assert.equal(contextOf('session rea'), 'values', "a session's name is the user's: Enter accepted `read` for `reader`");
    assert.equal(contextOf('session '), 'values');
    assert.equal(contextOf('history "fra'), 'values', 'a title');
    assert.equal(contextOf('  T3: '), 'operations', 'after a header only operations fit');
    assert.equal(contextOf('  T3: w(x, 1) '), 'operations');
    assert.equal(contextOf('  T3: w(x, 1) w(y, '), 'values', 'a value: no keyword fits');
    assert.equal(contextOf('  T3: w(x, -'), 'values');
    assert.equal(contextOf('  T3: r(x, [1, '), 'values');
    assert.equal(contextOf('  T3: r(x, 1) # see '), 'values', 'a comment');
    assert.equal(contextOf(''), 'any');
    assert.deepEqual(labels('  T3: w(x, 1) w(y, '), []);
    assert.deepEqual(labels('  T3: w(x, 1) '), ['r', 'w', 'a']);
    const byDash = (prefix: string): string[] => completions(null, prefix, '-').items.map((i) => i.label);
    assert.deepEqual(byDash('  T3: w(x, -'), [], 'a negative value');
    assert.deepEqual(byDash('  T3: w(x, 1) '), [], "'-' asks only inside a level or anomaly name");
    assert.ok(byDash('level read-').includes('read-atomic'));
    assert.ok(byDash('expect G-').includes('G-single'));
  });
});

describe('completion contexts on long lines', () => {
  /** The patterns contextOf used to match with (quadratic on long lines), as the oracle on short ones. */
  function byPatterns(linePrefix: string): string {
    const code = linePrefix.replace(/#.*$/, '');
    if (code.length < linePrefix.length) return 'values';
    const before = code.replace(/[A-Za-z0-9_.-]*$/, '');
    if (/<-\s*$/.test(before)) return 'transactions';
    if (/\b(?:[rwa]|read|write|append)\(\s*$/i.test(before)) return 'keys';
    if (before.lastIndexOf('(') > before.lastIndexOf(')')) return 'values';
    if (/^\s*expect\s+$/i.test(before)) return 'expect';
    if (/\[\s*$/.test(before) || /^\s*(?:level|check)\b[^#]*$/i.test(before)) return 'levels';
    if (/^\s*[^\s#:()]+[^:()]*:/.test(before)) return 'operations';
    return 'any';
  }

  test('the same context as the patterns on random short lines', () => {
    const rng = new Rng(7);
    const pieces = ['T3', ':', ' ', '  ', '\t', 'r', 'w', 'a', 'x', 'read', 'append', 'write', 'xr', '(', ')', '[', ']', '<-', '<', '-', ',', '1', 'expect', 'level', 'check', 'levels', '#', 'ke', '.', '_', 'é', '\u00a0'];
    for (let i = 0; i < 20_000; i++) {
      let line = '';
      for (let n = rng.below(9); n > 0; n--) line += pieces[rng.below(pieces.length)];
      assert.equal(contextOf(line), byPatterns(line), JSON.stringify(line));
    }
  });

  test('linear on a line of 400,000 characters (the patterns took 3.6 s on 40,000; completion runs on the message loop)', () => {
    for (const line of ['a'.repeat(400_000) + '!', 'T1' + ' a'.repeat(200_000), '<-' + ' '.repeat(400_000) + 'x!', `  T3: ${'w(x, 1) '.repeat(50_000)}`]) {
      const started = performance.now();
      contextOf(line);
      assert.ok(performance.now() - started < 500, `${Math.round(performance.now() - started)} ms`);
    }
  });
});

describe('editor queries', () => {
  const m = marked('level RA\n[[session s1]]\n  ⟦[[T1 [RA]:]] [[w(x, 1)]]⟧\nsession s2\n  [[T2:]] r(y, init) [[r(x, 1)]]\n');
  const a = analyzeHistText(m.text);
  const h = a.history;

  test('the transaction header and the operation at an offset (spans are half-open: the space after a token is not it)', () => {
    const [, t1Extent, t1Header, w] = m.ranges;
    assert.equal(txnHeaderAt(h, t1Header.start), 1);
    assert.equal(txnHeaderAt(h, t1Header.end - 1), 1);
    assert.equal(txnHeaderAt(h, t1Header.end), -1);
    assert.equal(txnHeaderAt(h, w.start), -1);
    assert.equal(opAt(h, w.start + 2), 0);
    assert.equal(opAt(h, m.ranges[4].start - 1), -1, 'between operations');
    assert.equal(opAt(h, m.ranges[5].end - 1), 2);
    assert.equal(opAt(h, m.ranges[5].end), -1);
    assert.equal(opAt(h, 0), -1);
    assert.deepEqual(txnExtent(h, 1), t1Extent);
  });

  test('a session extends from its header through its last operation', () => {
    assert.deepEqual(sessionExtent(h, 0), { start: m.ranges[0].start, end: m.ranges[1].end });
  });

  test('hover text helpers', () => {
    assert.equal(md('a_b *c* [d] `e`'), 'a\\_b \\*c\\* \\[d\\] \\`e\\`');
    assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal), ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']);
  });
});

test('inline code in hovers cannot be closed by backticks in a name', async () => {
  const { code } = await import('../server/src/lsp/features/text.ts');
  assert.equal(code('x'), '`x`');
  assert.equal(code('a``![t](https://example.invalid/p.png)``b'), '``` a``![t](https://example.invalid/p.png)``b ```');
});

test('a position past the end of its line stays on that line', async () => {
  const { LineIndex } = await import('../server/src/engine/syntax/line-index.ts');
  const lines = LineIndex.ofText('session s1\n  T1: w(x, 1)\n');
  assert.equal(lines.offset({ line: 0, character: 14 }), 10);
  assert.equal(lines.offset({ line: 1, character: 2 }), 13);
});

test('the strongest levels that hold follow the lattice: PC and PSI are incomparable', async () => {
  const { strongestHolding, strongestHoldingAll } = await import('../server/src/lsp/features/summary.ts');
  const states = (ok: string[]): { level: 'RC' | 'RA' | 'CC' | 'PC' | 'PSI' | 'SI' | 'SER'; state: 'ok' | 'violated' }[] =>
    (['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER'] as const).map((level) => ({ level, state: ok.includes(level) ? 'ok' : 'violated' }));
  assert.deepEqual(strongestHoldingAll(states(['RC', 'RA', 'CC', 'PC', 'PSI'])), ['PC', 'PSI']);
  assert.equal(strongestHolding(states(['RC', 'RA', 'CC', 'PC', 'PSI'])), 'PC');
  assert.deepEqual(strongestHoldingAll(states(['RC', 'RA', 'CC', 'PC', 'PSI', 'SI'])), ['SI']);
  assert.deepEqual(strongestHoldingAll(states([])), []);
  const { strongestText } = await import('../client/src/summary.ts');
  assert.equal(strongestText({ strongest: 'PC', strongestAll: ['PC', 'PSI'] }), 'strongest: PC, PSI');
  assert.equal(strongestText({ strongest: null }), 'no level holds');
});

test('the webview rejects analyses whose fields it reads are missing or out of range', async () => {
  const { isAnalysisResult } = await import('../server/src/protocol/webview.ts');
  const base = {
    uri: 'file:///a.hist', version: 1, title: null, levels: [], mixed: null, strongest: null, wrTotal: 0, wr: [], forced: [],
    sessions: [{ id: 0, name: 's1', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 2 } }, transactions: [0] }],
    transactions: [{ id: 0, name: 'T1', session: 0, position: 0, level: null, aborted: false, unknown: false, notRun: false, range: null, extent: null, operations: 1, ops: ['w(x, 1)'] }],
  };
  assert.equal(isAnalysisResult(base), true);
  assert.equal(isAnalysisResult({ ...base, transactions: [{ ...base.transactions[0], session: 5 }] }), false);
  assert.equal(isAnalysisResult({ ...base, transactions: [{ ...base.transactions[0], position: 'x' }] }), false);
  assert.equal(isAnalysisResult({ ...base, transactions: [{ ...base.transactions[0], notRun: 'no' }] }), false);
  assert.equal(isAnalysisResult({ ...base, forced: [{ level: 'RC', edges: [] }] }), false);
});

test('lines end at \\n, \\r\\n and a lone \\r, as LSP counts them', async () => {
  const { LineIndex } = await import('../server/src/engine/syntax/line-index.ts');
  const lines = LineIndex.ofText('ab\rcd\r\nef\ngh');
  assert.deepEqual([0, 3, 7, 10].map((o) => lines.position(o)), [
    { line: 0, character: 0 }, { line: 1, character: 0 }, { line: 2, character: 0 }, { line: 3, character: 0 },
  ]);
});

/** Feeds chunks to a FrameReader; what it delivered, the errors it fired and how its input ended. */
function frames(chunks: (string | Buffer)[], end = true): { messages: unknown[]; errors: Error[]; ended: (string | null)[] } {
  const input = new PassThrough();
  const reader = new FrameReader(input);
  const out = { messages: [] as unknown[], errors: [] as Error[], ended: [] as (string | null)[] };
  reader.onError((e) => out.errors.push(e));
  reader.onEnd((u) => out.ended.push(u));
  reader.listen((m) => out.messages.push(m));
  // PassThrough emits synchronously in flowing mode, but 'end' waits a tick: emit by hand to stay synchronous.
  for (const c of chunks) input.emit('data', Buffer.from(c));
  if (end) input.emit('end');
  return out;
}

function frame(body: string): string {
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe('frame reader', () => {
  const bodies = ['{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', '{"jsonrpc":"2.0","method":"x","params":{"t":"é ✓ 𝄞"}}', '[]'];
  const stream = bodies.map(frame).join('');

  test('the same messages whether the bytes come at once, one by one, or split anywhere', () => {
    const expected = bodies.map((b) => JSON.parse(b) as unknown);
    assert.deepEqual(frames([stream]), { messages: expected, errors: [], ended: [null] });
    const bytes = Buffer.from(stream);
    assert.deepEqual(frames([...bytes].map((b) => Buffer.from([b]))).messages, expected);
    for (let cut = 1; cut < bytes.length; cut += 7) {
      assert.deepEqual(frames([bytes.subarray(0, cut), bytes.subarray(cut)]).messages, expected, `cut at ${cut}`);
    }
  });

  test('an empty or non-JSON body is a SyntaxError and the next frame is still read', () => {
    const r = frames(['Content-Length: 0\r\n\r\n', frame('{"a":'), frame('{"ok":1}')]);
    assert.deepEqual(r.messages, [{ ok: 1 }]);
    assert.equal(r.errors.length, 2);
    assert.ok(r.errors.every((e) => e instanceof SyntaxError));
  });

  test('the end of the input says where in a frame it stopped', () => {
    assert.deepEqual(frames([frame('{}')]).ended, [null]);
    assert.deepEqual(frames([]).ended, [null]);
    assert.deepEqual(frames(['Content-Length: 10\r\n\r\n{}']).ended, ['inside a message body (2 of 10 bytes)']);
    assert.deepEqual(frames(['Content-Length: 10\r\n\r\n']).ended, ['inside a message body (0 of 10 bytes)']);
    assert.deepEqual(frames(['Content-Len']).ended, ['inside a message header (11 bytes, no blank line)']);
  });

  test('a broken header is a FramingError that ends reading: nothing more is delivered or reported', () => {
    for (const [header, message] of [
      ['Content-Type: x\r\n\r\n', /Header must provide a Content-Length property/],
      ['Content-Length: lots\r\n\r\n', /Content-Length value must be a number \(got "lots"\)/],
      ['Content-Length: 12abc\r\n\r\n', /Content-Length value must be a number/],
      ['\r\nContent-Length: 2\r\n\r\n', /must separate key and value/],
      [`Content-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`, /is more than the \d+ bytes a message may have/],
      ['Content-Length: 99999999999\r\n\r\n', /Content-Length 99999999999 is more than/],
      ['x'.repeat(MAX_HEADER_BYTES), /no blank line ends the message header within 8192 bytes/],
    ] as const) {
      const r = frames([header, frame('{}')]);
      assert.deepEqual(r.messages, [], header.slice(0, 40));
      assert.equal(r.errors.length, 1);
      assert.ok(r.errors[0] instanceof FramingError);
      assert.match(r.errors[0].message, message);
      assert.deepEqual(r.ended, [], 'no end reported after a framing error');
    }
  });

  test('a body is kept as the chunks that came, not allocated from its Content-Length', () => {
    const before = process.memoryUsage().arrayBuffers;
    const r = frames([`Content-Length: ${MAX_BODY_BYTES}\r\n\r\n`, '{'], false);
    assert.deepEqual(r.errors, []);
    assert.ok(process.memoryUsage().arrayBuffers - before < 64 * 1024 * 1024, 'no buffer the size of the announced body');
  });
});

describe('answers from an older analysis, mapped to the text the client shows', () => {
  const old = 'session s1\n  T1: w(x, 1)\n';
  test('offsets before the edit stay, offsets after it move, ranges the edit touched have none', () => {
    const inserted = TextView.between(LineIndex.ofText(old), old, 'session s1\n# new\n  T1: w(x, 1)\n');
    const w = old.indexOf('w(');
    assert.deepEqual(inserted.range(0, 7), { start: { line: 0, character: 0 }, end: { line: 0, character: 7 } });
    assert.deepEqual(inserted.range(w, w + 7), { start: { line: 2, character: 6 }, end: { line: 2, character: 13 } });
    assert.equal(inserted.line(w), 2);
    const retyped = TextView.between(LineIndex.ofText(old), old, old.replace('w(x, 1)', 'w(x, 7)'));
    assert.equal(retyped.range(w, w + 7), null, 'its value was edited');
    assert.equal(retyped.line(w + 5), null);
    assert.deepEqual(retyped.range(0, 7), { start: { line: 0, character: 0 }, end: { line: 0, character: 7 } });
    const same = TextView.identity(LineIndex.ofText(old));
    assert.deepEqual(same.range(w, w + 7), { start: { line: 1, character: 6 }, end: { line: 1, character: 13 } });
  });

  test('hover and definition of a model of version 1 for the client\'s version 2', () => {
    const text = 'session s2\n  T2: r(x, 1)\nsession s1\n  T1: w(x, 1)\n';
    const { snapshot } = buildSnapshot(text, { uri: 'file:///v.hist', levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 });
    const m = new DocModel('file:///v.hist', 1, 'k', snapshot, false, text);
    const now = text.replace('session s1', '# a\n# b\nsession s1');
    const view = m.view(2, now);
    const read = { line: 1, character: 7 };
    assert.deepEqual(definitionAt(m, read, view)?.range, { start: { line: 5, character: 6 }, end: { line: 5, character: 13 } });
    assert.match((hoverAt(m, read, view)?.contents as { value: string }).value, /`w\(x, 1\)` at line 6$/m);
    assert.equal(m.view(2, now), view, 'one view per version');
  });
});

describe('what a position names: a header or an operation', () => {
  test('a Jepsen line is its transaction (its operations share the line); a plume line is its operation', () => {
    const jsonl = '{"type":"ok","f":"txn","value":[["append","x",1],["r","y",[]]],"process":0,"time":1}\n';
    const j = readHistory({ text: jsonl }, { format: 'json' }).history;
    assert.deepEqual(headerOrOpAt(j, 30, null, null), { txn: 1, op: -1 });
    const plume = 'r(1,0,0,0)\nw(1,5,0,0)\n';
    const p = readHistory({ text: plume }, { format: 'plume' }).history;
    assert.deepEqual(headerOrOpAt(p, 0, null, null), { txn: -1, op: 0 }, 'the first line: its read');
    assert.deepEqual(headerOrOpAt(p, 12, null, null), { txn: -1, op: 1 });
    assert.deepEqual(headerOrOpAt(p, 10, null, null), { txn: -1, op: -1 }, 'the line break');
  });
});

describe('the plume reader: transactions and sessions at their first lines', () => {
  test('a transaction\'s header is its first line, a session\'s its first transaction\'s; comments and blank lines count', () => {
    const text = '# café\nr(1,0,0,0)\n\nw(1,5,0,0)\n  w(2,1,1,1)\nr(2,1,0,2)\n';
    // As the editor reads a document: one byte per UTF-16 code unit, so spans are the text's offsets.
    const { history: h } = readPlume(bytesOf({ text }));
    const r = h.ranges;
    assert.ok(r);
    const lineOf = (offset: number): string => text.slice(offset, text.indexOf('\n', offset));
    const txns = Array.from({ length: h.txnCount - 1 }, (_, i) => i + 1).map((t) => `${h.names.txnName(t)}: ${text.slice(r.txnStart[t], r.txnEnd[t])}`);
    assert.deepEqual(txns, ['T0: r(1,0,0,0)', 'T1:   w(2,1,1,1)', 'T2: r(2,1,0,2)']);
    assert.deepEqual(Array.from({ length: h.sessionCount }, (_, s) => `${h.names.sessionName(s)}: ${lineOf(r.sessionStart[s])}`), ['s0: r(1,0,0,0)', 's1:   w(2,1,1,1)']);
    assert.deepEqual(sessionExtent(h, 0), { start: text.indexOf('r(1,0'), end: text.length - 1 });
  });
});

describe('unknown transactions that never ran: shown as written, verdicts in the written ids', () => {
  // T0 never ran and leaves the checked history, so the checked ids of T1, T2 are one less than the written ones.
  const text = 'session a\n  T0 unknown: w(z, 9)\nsession s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n';
  const options = { uri: 'file:///u.hist', levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 };
  const { snapshot } = buildSnapshot(text, options);
  const m = new DocModel('file:///u.hist', 1, 'k', snapshot, false, text);
  const hover = (needle: string, delta = 1): string => (hoverAt(m, m.lines.position(text.indexOf(needle) + delta))?.contents as { value: string }).value;

  test('the witness steps, forced edges and commit orders name the right transactions', () => {
    assert.equal(m.history.txnCount, 4, '⊥ and the three written transactions');
    assert.match(hover('r(y, init)'), /step 1 of 2: T1 →co ⊥: T1 must commit before the initial state: T2 read the initial value of y and read x from T1/);
    assert.match(hover('T2:'), /a read of T2 forces step 1 of 2 of the witness cycle/);
    assert.match(hover('T1:'), /\*\*RC\*\* ✓ holds/);
    assert.match(hover('T0 unknown'), /status: unknown \(never read: counts as not run\)/);
    const graph = analysisJsonOfAnalysis(analyzeDocument(text, options), options.uri, 1);
    assert.deepEqual(graph.transactions.map((t) => t.name), ['⊥', 'T0', 'T1', 'T2']);
    assert.deepEqual(graph.forced.find((f) => f.level === 'RA')?.edges.map((e) => `${graph.transactions[e.from].name}→${graph.transactions[e.to].name} by ${graph.transactions[e.reader].name}`), ['T1→⊥ by T2']);
    assert.deepEqual(graph.levels[1].witness?.cycle.map((e) => `${graph.transactions[e.from].name}→${graph.transactions[e.to].name}`), ['T1→⊥', '⊥→T1']);
  });

  test('the diagnostics are those of the checked history', () => {
    assert.deepEqual(snapshot.diagnostics.map((d) => String(d.code)), analyzeHistText(text).findings.map((f) => f.code));
  });
});
