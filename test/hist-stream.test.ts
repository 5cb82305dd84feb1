// The streaming .hist lexer and the span interners: the same tokens and ids as a whole-file pass, through a small window.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TK_EOF, TokenStream, tokenize } from '../server/src/engine/syntax/hist-lexer.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { NumberIds, TextInterner } from '../server/src/engine/util/interner.ts';

test('a window of a few tokens lexes what tokenize does, releasing as it goes', () => {
  const text = 'session s1\nT1: w(x, 1) r("a\\"b", -007) # c\r\nT2 @ 1..2: r(y, ⊥) é "open\n' + 'w(k, 12) '.repeat(50);
  const all = tokenize(text);
  const s = new TokenStream(text, 4);
  for (let i = 0; i < all.count + 3; i++) {
    const j = Math.min(i, all.count - 1);
    assert.deepEqual([s.kind(i), s.start(i), s.end(i)], [all.kind[j], all.start[j], all.end[j]], `token ${i}`);
    s.release(i - 1);
  }
  assert.equal(all.kind[all.count - 1], TK_EOF);
  assert.ok(s.kinds.length === 4, 'released tokens make room: the window never grew');
  assert.throws(() => s.kind(0), /released/);
});

test('an item longer than the window grows it (one init line of 3,000 bindings)', () => {
  const bindings = Array.from({ length: 3000 }, (_, i) => `k${i} = ${i}`).join(', ');
  const p = parseHist(`init ${bindings}\nsession s\nT1: r(k2999, 2999) r(k0, 0)\n`);
  assert.deepEqual(p.findings, []);
  assert.equal(p.history.initValues.size, 3000);
  assert.equal(p.history.opCount, 2);
});

test('interners: spans and strings, numbers and other ids share one id space', () => {
  const t = new TextInterner(2);
  const text = 'xx yy xx zz';
  assert.equal(t.intern(text, 0, 2), 0);
  assert.equal(t.intern(text, 3, 5), 1);
  assert.equal(t.intern(text, 6, 8), 0);
  assert.equal(t.find('zz', 0, 2), -1);
  for (let i = 0; i < 1000; i++) assert.equal(t.intern(`n${i}`, 0, `n${i}`.length), i + 2);
  assert.equal(t.find(text, 9, 11), -1);
  const n = new NumberIds(2);
  assert.equal(n.intern(5), 0);
  assert.equal(n.other(), 1);
  assert.equal(n.intern(-0), 2);
  assert.equal(n.intern(0), 2);
  assert.equal(n.intern(2 ** 52 + 1), 3);
  for (let i = 0; i < 1000; i++) n.intern(i * 7919);
  assert.equal(n.intern(5), 0);
  assert.equal(n.intern(2 ** 52 + 1), 3);
  assert.ok(Number.isNaN(n.numbers.data[1]));
});
