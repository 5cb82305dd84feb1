// `<- T` with list-append keys: a list read's named writer must be its source (the appender of its last element), as `r(k, v) <- T` needs T to write v; `r(k) <- T` reads a register.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { writeHistoryAsHist } from '../server/src/engine/export/convert-hist.ts';

const HEAD = 'session s1\n  T1: a(x, 1)\n  T2: a(x, 2)\nsession s2\n';

function errors(text: string): string[] {
  return analyzeHistText(text).findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${text.slice(f.span.start, f.span.end)}`);
}

test('a list read naming the appender of its last element is fine, and verdicts are those without the name', () => {
  const named = `${HEAD}  T3: r(x, [1, 2]) <- T2 r(x, [1, 2])\n`;
  assert.deepEqual(errors(named), []);
  const a = analyzeHistText(named, { levels: LEVELS });
  assert.ok(a.levels.every((v) => v.consistent === true));
});

test('a list read naming another transaction, or naming one for the empty list, is thin-air at the read: every level breaks', () => {
  const other = `${HEAD}  T3: r(x, [1, 2]) <- T1\n`;
  assert.deepEqual(errors(other), ['thin-air r(x, [1, 2]) <- T1']);
  const a = analyzeHistText(other, { levels: LEVELS });
  assert.match(a.findings[0].message, /last element 2 was appended by T2/);
  assert.ok(a.levels.every((v) => v.consistent === false));
  assert.deepEqual(errors(`${HEAD}  T3: r(x, []) <- T1\n`), ['thin-air r(x, []) <- T1']);
});

test('r(k) <- T on a list key is a register read of it: mixed-key, not "T never writes k"', () => {
  assert.deepEqual(errors(`${HEAD}  T3: r(x) <- T1\n`), ['mixed-key r(x) <- T1']);
});

test('convert keeps the name of a list read, so its error stays', () => {
  const text = `${HEAD}  T3: r(x, [1, 2]) <- T1\n`;
  let out = '';
  writeHistoryAsHist(analyzeHistText(text).history, 'converted', (chunk) => { out += chunk; });
  assert.match(out, /r\(x, \[1, 2\]\) <- T1/);
});
