// A list read that holds a transaction's appends out of their program order: an append-order warning, every verdict unchanged (the axioms allow it).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { reportedCodes } from '../server/src/engine/listappend/list-analysis.ts';

const all = { levels: LEVELS };

function check(text: string): { verdicts: Record<string, boolean | null>; codes: string[]; warnings: string[]; list: Set<string> } {
  const a = analyzeHistText(text, all);
  return {
    verdicts: Object.fromEntries(a.levels.map((v) => [v.level, v.consistent])),
    codes: a.findings.filter((f) => f.severity === 'error').map((f) => f.code),
    warnings: a.findings.filter((f) => f.code === 'append-order').map((f) => `${f.severity}: ${f.message}`),
    list: a.list ? reportedCodes(a.list) : new Set(),
  };
}

const lines = (...l: string[]): string => `${l.join('\n')}\n`;

describe('append-order', () => {
  const cases: [string, string, RegExp][] = [
    ['a later append without the earlier', lines('session s1', '  T1: a(x, 1) a(x, 2)', 'session s2', '  T2: r(x, [2])'),
      /^warning: T2 read x = \[2\]: it holds T1's append of 2 but not, before it, T1's earlier append of 1, which no state of x does/],
    ['one append skipped in the middle', lines('session s1', '  T1: a(x, 1) a(x, 2) a(x, 3)', 'session s2', '  T2: r(x, [1, 3])'),
      /^warning: T2 read x = \[1, 3\]: it holds T1's append of 3 but not, before it, T1's earlier append of 2/],
    ['two appends swapped before another transaction\'s', lines('session s1', '  T1: a(x, 1) a(x, 2)', '  T2: a(x, 3)', 'session s2', '  T3: r(x, [2, 1, 3])'),
      /^warning: T3 read x = \[2, 1, 3\]: it holds T1's append of 2 but not, before it, T1's earlier append of 1/],
  ];
  for (const [name, text, message] of cases) {
    test(`${name}: a warning, every level holds, no anomaly reported`, () => {
      const r = check(text);
      for (const [level, c] of Object.entries(r.verdicts)) assert.equal(c, true, level);
      assert.deepEqual(r.codes, []);
      assert.equal(r.warnings.length, 1, r.warnings.join('\n'));
      assert.match(r.warnings[0], message);
      assert.ok(!r.list.has('append-order'), 'not an anomaly of the table (expect … found cannot name it)');
    });
  }

  test('the appends in their order, whole: no warning', () => {
    assert.deepEqual(check(lines('session s1', '  T1: a(x, 1) a(x, 2)', '  T2: a(x, 3)', 'session s2', '  T3: r(x, [1, 2, 3])')).warnings, []);
    assert.deepEqual(check(lines('session s1', '  T1: a(x, 1) a(x, 2)', 'session s2', '  T2: r(x, [1])')).warnings, [], 'an intermediate read is G1b\'s');
  });

  test('an interleaving with another transaction is G0, not this warning', () => {
    const r = check(lines('session s1', '  T1: a(x, 1) a(x, 2)', 'session s2', '  T2: a(x, 3)', 'session s3', '  T3: r(x, [1, 3, 2])'));
    assert.ok(r.list.has('G0'));
    assert.deepEqual(r.warnings, []);
  });

  test('a transaction\'s read of its own appends is the internal check\'s', () => {
    const r = check(lines('session s1', '  T1: a(x, 1) a(x, 2) r(x, [2])'));
    assert.ok(r.list.has('internal'), [...r.list].join(' '));
    assert.deepEqual(r.warnings, []);
  });

  test('aborted appenders are G1a\'s, and disagreeing reads incompatible-order\'s', () => {
    assert.deepEqual(check(lines('session s1', '  T1 aborted: a(x, 1) a(x, 2)', 'session s2', '  T2: r(x, [2])')).warnings, []);
    const r = check(lines('session s1', '  T1: a(x, 1) a(x, 2)', 'session s2', '  T2: r(x, [2])', '  T3: r(x, [1])'));
    assert.ok(r.list.has('incompatible-order'));
    assert.deepEqual(r.warnings, []);
  });

  test('at most one warning per key, and the check prints it beside the table', () => {
    const text = lines('session s1', '  T1: a(x, 1) a(x, 2) a(x, 3) a(x, 4)', 'session s2', '  T2: r(x, [2, 4])');
    assert.equal(check(text).warnings.length, 1);
    const dir = mkdtempSync(join(tmpdir(), 'isocheck-append-order-'));
    try {
      writeFileSync(join(dir, 'h.hist'), text);
      const cli = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'out', 'cli.js'), 'check', join(dir, 'h.hist')], { encoding: 'utf8' });
      assert.equal(cli.status, 0, cli.stderr);
      assert.match(cli.stdout, /line 4:3: warning \[append-order\] T2 read x = \[2, 4\]: it holds T1's append of 2 but not, before it, T1's earlier append of 1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
