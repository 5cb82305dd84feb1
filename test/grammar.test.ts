// The TextMate grammar: well-formed JSON whose patterns compile and match the language's main forms.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

interface Rule { match?: string; begin?: string; end?: string; patterns?: Rule[]; repository?: Record<string, Rule> }

const grammar = JSON.parse(readFileSync(new URL('../syntaxes/hist.tmLanguage.json', import.meta.url), 'utf8')) as Rule & { scopeName: string };

/** Oniguruma's inline (?i) flag has no JS equivalent at the start of a pattern: translate it. */
function compile(source: string): RegExp {
  return source.startsWith('(?i)') ? new RegExp(source.slice(4), 'iu') : new RegExp(source.replace(/\(\?i:/g, '(?:'), 'u');
}

function rules(r: Rule): Rule[] {
  return [r, ...(r.patterns ?? []).flatMap(rules), ...Object.values(r.repository ?? {}).flatMap(rules)];
}

test('the grammar is named source.hist and every regular expression compiles', () => {
  assert.equal(grammar.scopeName, 'source.hist');
  const all = rules(grammar);
  assert.ok(all.length > 15);
  for (const r of all) for (const re of [r.match, r.begin, r.end]) if (re) assert.doesNotThrow(() => compile(re), re);
});

test('its patterns recognise headers, operations, directives and comments', () => {
  const repo = grammar.repository!;
  assert.match('  T3 [RA] aborted: w(x, 1)', compile(repo.transaction.match!));
  assert.match('r(x, init) <- T2', compile(repo.operation.begin!));
  assert.match('  session s1', compile(repo.session.match!));
  assert.match('expect SER violated', compile(repo.directive.patterns![2].begin!));
  assert.match('# a comment', compile(repo.comment.patterns![0].match!));
});

test('a header with any status of the language and a real-time interval is a header, its parts captured', () => {
  const header = compile(grammar.repository!.transaction.match!);
  for (const [line, status, start, end] of [
    ['  T1 unknown: a(x, 1)', 'unknown', undefined, undefined],
    ['  T2 [SSER] info @ 100..130 : a(x, 1)', 'info', '100', '130'],
    ['  T3 indeterminate @ -5..-1: r(x, [])', 'indeterminate', '-5', '-1'],
    ['  T4 @ 1..2: w(x, 1)', undefined, '1', '2'],
  ] as const) {
    const m = header.exec(line);
    assert.ok(m, line);
    assert.deepEqual([m[5], m[7], m[9], m[10]], [status, start, end, ':'], line);
  }
});

test('an anomaly expectation highlights the anomaly and found/absent', () => {
  const expect = grammar.repository!.directive.patterns![2];
  const [anomaly, , verdict] = expect.patterns!.map((r) => (r.match ? compile(r.match) : null));
  for (const a of ['G-single', 'g2-item', 'G0-realtime', 'lost-update', 'aborted-read', 'G1a']) assert.match(`expect ${a} found`, anomaly!, a);
  assert.doesNotMatch('expect SER ok', anomaly!);
  assert.match('expect G-single absent', verdict!);
});
