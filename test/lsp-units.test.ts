// The language server's pure parts: settings, the scheduler, diagnostic capping, completion contexts, editor queries, message framing.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { finding, type Finding } from '../server/src/engine/model/diagnostics.ts';
import { opAt, sessionExtent, txnExtent, txnHeaderAt } from '../server/src/engine/queries.ts';
import { capFindings } from '../server/src/lsp/convert.ts';
import { completions, contextOf } from '../server/src/lsp/features/completion.ts';
import { FrameReader, FramingError, MAX_BODY_BYTES, MAX_HEADER_BYTES } from '../server/src/lsp/frame-reader.ts';
import { md, ordinal } from '../server/src/lsp/features/text.ts';
import { DebounceScheduler } from '../server/src/lsp/scheduler.ts';
import { analysisKey, parseSettings } from '../server/src/lsp/settings.ts';
import { marked } from './helpers/marked.ts';

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
    assert.equal(contextOf('  T3: '), 'any');
    assert.equal(contextOf(''), 'any');
  });
});

describe('editor queries', () => {
  const m = marked('level RA\n[[session s1]]\n  ⟦[[T1 [RA]:]] [[w(x, 1)]]⟧\nsession s2\n  [[T2:]] r(y, init) [[r(x, 1)]]\n');
  const a = analyzeHistText(m.text);
  const h = a.history;

  test('the transaction header and the operation at an offset', () => {
    const [, t1Extent, t1Header, w] = m.ranges;
    assert.equal(txnHeaderAt(h, t1Header.start), 1);
    assert.equal(txnHeaderAt(h, t1Header.end), 1);
    assert.equal(txnHeaderAt(h, w.start), -1);
    assert.equal(opAt(h, w.start + 2), 0);
    assert.equal(opAt(h, m.ranges[4].start - 1), -1, 'between operations');
    assert.equal(opAt(h, m.ranges[5].end), 2);
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
    transactions: [{ id: 0, name: 'T1', session: 0, position: 0, level: null, aborted: false, range: null, extent: null, operations: 1, ops: ['w(x, 1)'] }],
  };
  assert.equal(isAnalysisResult(base), true);
  assert.equal(isAnalysisResult({ ...base, transactions: [{ ...base.transactions[0], session: 5 }] }), false);
  assert.equal(isAnalysisResult({ ...base, transactions: [{ ...base.transactions[0], position: 'x' }] }), false);
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
