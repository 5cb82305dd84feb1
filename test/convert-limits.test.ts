// What the .hist language can hold, on both sides of a conversion: dbcop's number limits, its `[]` text/JSON detection, and hist-writer's refusals.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeHistoryAsHist } from '../server/src/engine/export/convert-hist.ts';
import { histKey, histValue, HistWriteError, identifiers } from '../server/src/engine/export/hist-writer.ts';
import { HistoryBuilder, OP_WRITE } from '../server/src/engine/model/history.ts';
import { looksLikeDbcopText } from '../server/src/engine/readers/dbcop-reader.ts';
import { readerForFile, readHistory } from '../server/src/engine/readers/registry.ts';

const dbcop = (text: string): ReturnType<typeof readHistory> => readHistory({ text }, { format: 'dbcop' });
const messages = (src: ReturnType<typeof readHistory>): string[] => src.findings.map((f) => f.message);
const d30 = '123456789012345678901234567890';

describe('dbcop versions have the .hist language\'s limit of 30 digits', () => {
  test('text form: 30 digits read, 31 are a finding at the version and the line is left out', () => {
    assert.deepEqual(messages(dbcop(`[x:=${d30}]\n`)), []);
    const src = dbcop(`[x:=1]\n[x:=${d30}1 y:=2]\n`);
    assert.deepEqual(messages(src), ['line 2: a version may have at most 30 digits, as numbers in .hist files (this one has 31)']);
    assert.deepEqual(src.lines.position(src.findings[0].span.start), { line: 1, character: 4 });
    assert.equal(src.history.opCount, 1);
  });

  test('leading zeros count, as they do in .hist numbers', () => {
    assert.deepEqual(messages(dbcop(`[x:=${'0'.repeat(30)}1]\n`)), ['line 1: a version may have at most 30 digits, as numbers in .hist files (this one has 31)']);
  });

  test('JSON form: the same limit and message, at the event', () => {
    const text = `[[{"events": [{"Write": {"variable": "x", "version": ${d30}1}}], "committed": true}]]`;
    const src = dbcop(text);
    assert.deepEqual(messages(src), ['a version may have at most 30 digits, as numbers in .hist files (this one has 31)']);
    assert.equal(text.slice(src.findings[0].span.start, src.findings[0].span.end), `{"Write": {"variable": "x", "version": ${d30}1}}`);
    assert.deepEqual(messages(dbcop(`[[{"events": [{"Write": {"variable": "x", "version": ${d30}}}], "committed": true}]]`)), []);
  });

  test('100,000 digits: one finding, no conversion of the number', () => {
    assert.deepEqual(messages(dbcop(`[x:=${'9'.repeat(100_000)}]\n`)), ['line 1: a version may have at most 30 digits, as numbers in .hist files (this one has 100000)']);
  });
});

describe('`[]` opening a dbcop text file is the text form\'s empty transaction, not JSON', () => {
  const emptyTxn = 'expected an event such as `x:=1`, `x==1` or `x==?`';

  test('`[]` then more lines: read as text, the error at the `]` as for a later `[]`, the rest read', () => {
    const first = dbcop('[]\n[x:=1]\n---\n[x==1]\n');
    assert.deepEqual(messages(first), [`line 1: ${emptyTxn}`]);
    assert.deepEqual(first.lines.position(first.findings[0].span.start), { line: 0, character: 1 });
    assert.equal(first.history.txnCount - 1, 2);
    const later = dbcop('[x:=1]\n[]\n---\n[x==1]\n');
    assert.deepEqual(messages(later), [`line 2: ${emptyTxn}`]);
  });

  test('`[]` with more on its line, `[]!`, or blank lines before: text too', () => {
    assert.deepEqual(messages(dbcop('[] [x:=1]\n')), [`line 1: ${emptyTxn}`]);
    assert.deepEqual(messages(dbcop('[]!\n[x:=1]\n')), [`line 1: ${emptyTxn}`]);
    assert.deepEqual(messages(dbcop('\n  [ ]\n[x:=1]\n')), [`line 2: ${emptyTxn}`]);
  });

  test('a lone `[]` is still the empty JSON array (no error), and JSON files are still JSON', () => {
    assert.deepEqual(messages(dbcop('[]')), []);
    assert.deepEqual(messages(dbcop(' [ ]\n\n')), []);
    assert.equal(dbcop('[]').history.txnCount, 1);
    assert.deepEqual(messages(dbcop('[[{"events": [{"Write": {"variable": "x", "version": 1}}], "committed": true}]]')), []);
    assert.match(messages(dbcop('[[{"events": [}]]'))[0], /^JSON: /);
  });

  test('a .txt file opening with `[]` lines is recognised as dbcop by the text that follows them', () => {
    assert.equal(looksLikeDbcopText('[]\n[]!\n[x:=1]\n'), true);
    assert.equal(looksLikeDbcopText('[] [x==2]\n'), true);
    assert.equal(looksLikeDbcopText('[]\n'), false);
    assert.equal(looksLikeDbcopText('[]\nw(1,1,0,0)\n'), false);
    assert.equal(readerForFile('h.txt', '[]\n[x:=1]\n---\n[x==1]\n')?.name, 'dbcop');
  });
});

describe('hist-writer never writes what the .hist parser refuses', () => {
  test('integers of more than 30 digits are a HistWriteError; 30 digits (and a sign) are written bare', () => {
    assert.equal(histValue(d30), d30);
    assert.equal(histValue(`-${d30}`), `-${d30}`);
    assert.throws(() => histValue(`${d30}1`), (e: unknown) => e instanceof HistWriteError
      && e.message === 'the value 1234567890123456789012345678901 has 31 digits; a .hist number may have at most 30');
  });

  test('exact: a line break in a key or value is refused rather than turned into a space', () => {
    assert.equal(histValue('"a\\nb"'), '"a b"');
    assert.throws(() => histValue('"a\\nb"', true), /^HistWriteError: the value "a\\nb" contains a line break, which a \.hist string cannot hold$/);
    assert.throws(() => histKey('"k\\r"', true), /^HistWriteError: the key "k\\r" contains a line break/);
    assert.equal(histKey('"user:42"', true), '"user:42"');
  });

  test('a real-time interval that is not two integers START ≤ END is refused', () => {
    const convert = (start: number, end: number): string => {
      const b = new HistoryBuilder(false);
      const s = b.addSession('s1');
      const t = b.addTxn(s, false, -1, 'T1');
      b.setTxnTime(t, start, end);
      b.addOp(t, OP_WRITE, 0, 0);
      const h = b.finish(1, () => 'x', () => '1', new Map(), false);
      const parts: string[] = [];
      writeHistoryAsHist(h, 't', (c) => parts.push(c));
      return parts.join('');
    };
    assert.match(convert(-5, 7), /T1 @ -5..7: w\(x, 1\)/);
    for (const [start, end] of [[1.5, 2], [0, Infinity], [9, 3], [0, 2 ** 60]]) {
      assert.throws(() => convert(start, end), (e: unknown) => e instanceof HistWriteError
        && e.message === `the real-time interval ${start}..${end} of transaction T1 is not two integers START ≤ END below 2^53, which a .hist interval needs`);
    }
  });

  test('names made unique: the same suffixes as before, in linear time (20,000 transactions named `a`)', () => {
    assert.deepEqual(identifiers(['a', 'A', 'a_2', 'a', 'a', 'a_2', '1', 'T', 'T'], 'T'), ['a', 'A_3', 'a_2', 'a_4', 'a_5', 'a_2_2', 'T1', 'T', 'T8']);
    const many = Array.from({ length: 20_000 }, () => 'a');
    const start = performance.now();
    const ids = identifiers(many, 'T');
    // Restarting the search at a_2 for each name made this 13 s in `convert` (a fuzzed .hist line `a: :a :a …`).
    assert.ok(performance.now() - start < 1000, `${performance.now() - start} ms`);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(ids.slice(0, 3), ['a', 'a_2', 'a_3']);
    assert.equal(ids[19_999], 'a_20000');
  });
});
