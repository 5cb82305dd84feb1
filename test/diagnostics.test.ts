// Every diagnostic code with its exact range and severity (history-dsl.md, semantics.md, docs/anomalies.md).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeHistText, type Analysis, type Verdict } from '../server/src/engine/analyze.ts';
import type { Finding, Span } from '../server/src/engine/model/diagnostics.ts';
import { LEVELS, type Level } from '../server/src/engine/levels/levels.ts';
import { expected, fmtFindings, fmtSpan, marked, sorted, type Marked } from './helpers/marked.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');

/** The weak levels' verdicts (every level is evaluated by default; the strong ones follow CC). */
function verdictMap(a: Analysis, only: string[] = ['RC', 'RA', 'CC']): Record<string, boolean | null> {
  return Object.fromEntries(a.levels.filter((v) => only.includes(v.level)).map((v) => [v.level, v.consistent]));
}

function verdict(a: Analysis, level: Level): Verdict {
  const v = a.levels.find((x) => x.level === level);
  assert.ok(v, `level ${level} was evaluated`);
  return v;
}

function errors(a: Analysis): Finding[] {
  return a.findings.filter((f) => f.severity === 'error');
}

function contains(outer: Span, inner: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

const ALL: Level[] = [...LEVELS];
const NONE_HOLDS = { RC: false, RA: false, CC: false, PC: false, PSI: false, SI: false, SER: false, SSER: false };

/** The fractured read of history-dsl.md; markers: 0 = T1's header, 1 = r(y, init), 2 = r(x, 1). */
function fractured(prefix = ''): Marked {
  return marked(`${prefix}session s1
  [[T1:]] w(x, 1) w(y, 1)
session s2
  T2: [[r(y, init)]] [[r(x, 1)]]
`);
}

// ---- read consistency: every level breaks, reported at the read ----

describe('read consistency', () => {
  const cases: { code: string; text: string; mention: RegExp }[] = [
    { code: 'thin-air', text: 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: [[r(x, 42)]]\n', mention: /42/ },
    { code: 'thin-air', text: 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: [[r(x, 2) <- T1]]\n', mention: /T1/ },
    { code: 'thin-air', text: 'session s1\n  T1: w(y, 1)\nsession s2\n  T2: [[r(x) <- T1]]\n', mention: /T1/ },
    { code: 'aborted-read', text: 'session s1\n  T1 aborted: w(x, 1)\nsession s2\n  T2: [[r(x, 1)]]\n', mention: /T1/ },
    { code: 'intermediate-read', text: 'session s1\n  T1: w(x, 1) w(x, 2)\nsession s2\n  T2: [[r(x, 1)]]\n', mention: /T1/ },
    { code: 'future-read', text: 'session s1\n  T1: [[r(x, 1)]] w(x, 1)\n', mention: /T1/ },
    { code: 'own-write', text: 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(x, 2) [[r(x, 1)]]\n', mention: /2/ },
    { code: 'own-write', text: 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(x, 2) [[r(x, init)]]\n', mention: /2/ },
    { code: 'own-write', text: 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(x, 2) w(x, 3) [[r(x, 2)]]\n', mention: /3/ },
    { code: 'own-write', text: 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(x, 2) [[r(x) <- T1]]\n', mention: /T2/ },
    { code: 'aborted-read', text: 'session s1\n  T1 aborted: w(x, 1)\nsession s2\n  T2: [[r(x) <- T1]]\n', mention: /T1/ },
    { code: 'intermediate-read', text: 'session s1\n  T1: w(x, 1) w(x, 2)\nsession s2\n  T2: [[r(x, 1) <- T1]]\n', mention: /T1/ },
    { code: 'future-read', text: 'session s1\n  T1: [[r(x) <- T1]] w(x, 1)\n', mention: /T1/ },
    { code: 'thin-air', text: 'init x = 5\nsession s1\n  T1: w(x, 1)\nsession s2\n  T2: [[r(x, 6)]]\n', mention: /6/ },
  ];
  for (const c of cases) {
    test(`${c.code}: ${c.text.split('\n').at(-2)?.trim()}`, () => {
      const m = marked(c.text);
      const a = analyzeHistText(m.text, { levels: ALL });
      assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, c.code, 'error', 0)]);
      assert.match(a.findings[0].message, c.mention);
      assert.deepEqual(verdictMap(a, ALL), NONE_HOLDS, 'a read-consistency problem breaks every level');
    });
  }

  test('a read of its own latest write is fine, also with <- naming itself', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, 1) w(x, 2) r(x, 2) r(x) <- T1 r(x, 2) <- T1\n');
    assert.deepEqual(a.findings, []);
  });

  test('aborted writers constrain nothing: a session successor may miss an aborted write', () => {
    const a = analyzeHistText('session s1\n  T1 aborted: w(x, 1)\n  T2: r(x, init)\nsession s2\n  T3: w(y, 1)\n  T4 aborted: w(y, 2)\nsession s3\n  T5: r(y, 1)\n', { levels: ['RC', 'RA', 'CC'] });
    assert.deepEqual(a.findings, []);
    assert.deepEqual(verdictMap(a), { RC: true, RA: true, CC: true });
  });

  test('an aborted transaction reading from a committed one is not an error', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, 1)\nsession s2\n  T2 aborted: r(x, 1) w(y, 2)\n');
    assert.deepEqual(errors(a), []);
  });

  test('ambiguous-read: the duplicated value is a warning at both writes, the read an error', () => {
    const m = marked('session s1\n  T1: [[w(x, 1)]]\nsession s2\n  T2: [[w(x, 1)]]\nsession s3\n  T3: [[r(x, 1)]]\n');
    const a = analyzeHistText(m.text, { levels: ALL });
    assert.deepEqual(fmtFindings(m.text, a.findings), [
      expected(m, 'duplicate-write', 'warning', 0),
      expected(m, 'duplicate-write', 'warning', 1),
      expected(m, 'ambiguous-read', 'error', 2),
    ]);
    assert.match(a.findings[2].message, /<-/, 'suggests naming the writer');
    // The read is left out of the checks: the verdicts are those of the history without it.
    assert.deepEqual(verdictMap(a, ALL), { RC: true, RA: true, CC: true, PC: true, PSI: true, SI: true, SER: true, SSER: true });
  });

  test('duplicate-write alone: warnings at both writes, and reads naming their writer are fine', () => {
    const m = marked('session s1\n  T1: [[w(x, 1)]]\nsession s2\n  T2: [[w(x, 1)]]\nsession s3\n  T3: r(x, 1) <- T2\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'duplicate-write', 'warning', 0), expected(m, 'duplicate-write', 'warning', 1)]);
    assert.deepEqual(verdictMap(a), { RC: true, RA: true, CC: true });
    // each warning points at the other write
    assert.deepEqual(a.findings[0].related.map((r) => fmtSpan(m.text, r.span)), [m.at(1)]);
    assert.deepEqual(a.findings[1].related.map((r) => fmtSpan(m.text, r.span)), [m.at(0)]);
  });

  test('three writes of one value: a warning at each of them', () => {
    const m = marked('session s1\n  T1: [[w(x, 1)]]\n  T2: [[w(x, 1)]]\n  T3: [[w(x, 1)]]\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(sorted(fmtFindings(m.text, a.findings).filter((s, i, all) => all.indexOf(s) === i)),
      sorted([0, 1, 2].map((i) => expected(m, 'duplicate-write', 'warning', i))));
  });

  test('a write of the value an init line gives its key duplicates ⊥\'s write: a warning at the write, reads of the value ambiguous', () => {
    const m = marked('init x = 1, y = "s"\nsession s1\n  T1: [[w(x, 1)]] [[w(y, "s")]] w(z, 1)\nsession s2\n  T2: [[r(x, 1)]] r(x, 1) <- T1\nsession s3\n  T3: r(y, init)\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [
      expected(m, 'duplicate-write', 'warning', 0),
      expected(m, 'duplicate-write', 'warning', 1),
      expected(m, 'ambiguous-read', 'error', 2),
    ]);
    assert.match(a.findings[0].message, /initial value \(init x = 1\)/);
    assert.match(a.findings[2].message, /both the initial value .* and written by T1/);
    assert.deepEqual(verdictMap(a), { RC: true, RA: true, CC: true });
  });

  test('causality-cycle: an error at each read whose wr edge closes the cycle, the cycle as related information', () => {
    const m = marked(`session s1
  T1: [[r(x, 2)]] w(y, 1)
session s2
  T2: [[r(y, 1)]] w(x, 2)
`);
    const a = analyzeHistText(m.text, { levels: ALL });
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'causality-cycle', 'error', 0), expected(m, 'causality-cycle', 'error', 1)]);
    for (const f of a.findings) {
      assert.deepEqual(sorted(f.related.map((r) => fmtSpan(m.text, r.span))), sorted([m.at(0), m.at(1)]));
      assert.match(f.message, /T1 read x from T2/);
      assert.match(f.message, /T2 read y from T1/);
    }
    assert.deepEqual(verdictMap(a, ALL), NONE_HOLDS);
  });

  test('causality-cycle through session order: only the read whose wr edge closes it', () => {
    const m = marked('session s1\n  T1: [[r(x, 1)]]\n  T2: w(x, 1)\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'causality-cycle', 'error', 0)]);
    assert.equal(a.findings[0].related.length, 2, 'wr and so edges');
    assert.match(a.findings[0].message, /T1 precedes T2 in session s1/);
  });
});

// ---- level violations at the forcing reads ----

describe('level violations', () => {
  test('claimed level RA: an RA error at the forcing read, CC information, RC holds', () => {
    const m = fractured('level RA\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(sorted(fmtFindings(m.text, a.findings)), sorted([expected(m, 'RA', 'error', 1), expected(m, 'CC', 'information', 1)]));
    assert.deepEqual(verdictMap(a), { RC: true, RA: false, CC: false });
    assert.equal(a.mixed?.consistent, false);
  });

  test('the witness cycle is attached as related information, one location per edge', () => {
    const m = fractured('level RA\n');
    const a = analyzeHistText(m.text);
    const ra = a.findings.find((f) => f.code === 'RA');
    const w = verdict(a, 'RA').witness;
    assert.ok(ra && w);
    assert.equal(ra.related.length, w.edges.length);
    assert.deepEqual(ra.related.map((r) => r.span), w.edges.map((e) => e.span));
    const spans = ra.related.map((r) => fmtSpan(m.text, r.span));
    assert.ok(spans.includes(m.at(1)), 'the forcing read');
    // the cycle is T1 →co ⊥ (forced at r(y, init)) and ⊥ → T1
    assert.deepEqual(w.edges.map((e) => [e.from, e.to]), [[1, 0], [0, 1]]);
    const co = w.edges.find((e) => e.kind === 'co');
    assert.ok(co);
    assert.equal(fmtSpan(m.text, co.span), m.at(1));
    assert.equal(a.history.names.keyName(co.key), 'y');
  });

  test('no level and no tags: level violations are information only', () => {
    const m = fractured();
    const a = analyzeHistText(m.text);
    assert.deepEqual(sorted(fmtFindings(m.text, a.findings)), sorted([expected(m, 'RA', 'information', 1), expected(m, 'CC', 'information', 1)]));
    assert.equal(a.mixed, null);
  });

  test('claimed level CC: CC is the error, RA information', () => {
    const m = fractured('level CC\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(sorted(fmtFindings(m.text, a.findings)), sorted([expected(m, 'RA', 'information', 1), expected(m, 'CC', 'error', 1)]));
  });

  test('claimed level RC on a fractured read: no error at all', () => {
    const m = fractured('level RC\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(errors(a), []);
    assert.equal(a.mixed?.consistent, true);
  });

  test('RC violation (non-monotonic read): at the later read, error for the claimed RC', () => {
    const m = marked('level read-committed\nsession s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(x, 1) [[r(y, init)]]\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(sorted(fmtFindings(m.text, a.findings)), sorted([
      expected(m, 'RC', 'error', 0), expected(m, 'RA', 'information', 0), expected(m, 'CC', 'information', 0),
    ]));
    const rc = a.findings.find((f) => f.code === 'RC');
    assert.match(rc?.message ?? '', /T1 must commit before/);
    assert.match(rc?.message ?? '', /after it read x from T1/);
  });

  test('an RC witness with two forced edges is reported at both forcing reads (AWDIT two-slot example)', () => {
    const m = marked(`level RC
session s1
  T7: w(x2, 72) w(x0, 70)
session s2
  T8: w(x1, 81) r(x0, 70) <- T7 w(x0, 80) w(x0, 82)
session s0
  T9: r(x2, 72) <- T7  [[r(x0, 82) <- T8]]  [[r(x0, 82) <- T8]]  [[r(x0, 70) <- T7]]
`);
    const a = analyzeHistText(m.text);
    const rc = fmtFindings(m.text, errors(a));
    assert.equal(rc.length, 2, rc.join(', '));
    assert.ok(rc.includes(expected(m, 'RC', 'error', 2)), 'the read of T7 after reads of T8');
    assert.ok(rc.includes(expected(m, 'RC', 'error', 0)) || rc.includes(expected(m, 'RC', 'error', 1)), 'a read of T8 after the read of T7');
    // the preferred witness has the fewest so/wr edges: T7 →co T8 →co T7
    const w = verdict(a, 'RC').witness;
    assert.deepEqual(w?.edges.map((e) => e.kind), ['co', 'co']);
    assert.match(a.findings.find((f) => f.span.start === m.ranges[2].start)?.message ?? '', /T8 must commit before T7/);
  });

  test('non-repeatable read: RA holds for neither order, both reads are reported', () => {
    const m = marked('session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(x, 2)\nsession s3\n  T3: [[r(x, 1)]] [[r(x, 2)]]\n');
    const a = analyzeHistText(m.text, { levels: ['RC', 'RA'] });
    assert.deepEqual(verdictMap(a), { RC: true, RA: false });
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'RA', 'information', 0), expected(m, 'RA', 'information', 1)]);
  });

  test('CC violation at the read that misses its causal past', () => {
    const m = marked('level causal\nsession alice\n  T1: w(x, 1)\nsession bob\n  T2: r(x, 1) w(y, 1)\nsession carol\n  T3: r(y, 1) [[r(x, init)]]\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'CC', 'error', 0)]);
    assert.deepEqual(verdictMap(a), { RC: true, RA: true, CC: false });
  });

  test('maxWitnesses: independent violations each get their own witness', () => {
    const m = marked(`session s1
  T1: w(x, 1)
session s2
  T2: w(x, 2)
session s3
  T3: [[r(x, 1)]] r(x, 2)
session s4
  T4: w(u, 1)
session s5
  T5: w(u, 2)
session s6
  T6: [[r(u, 1)]] r(u, 2)
`);
    const one = analyzeHistText(m.text, { levels: ['RA'], maxWitnesses: 1 });
    assert.equal(verdict(one, 'RA').consistent, false);
    const two = analyzeHistText(m.text, { levels: ['RA'], maxWitnesses: 2 });
    const at = fmtFindings(m.text, two.findings);
    assert.ok(at.includes(expected(m, 'RA', 'information', 0)) && at.includes(expected(m, 'RA', 'information', 1)), at.join(', '));
    assert.ok(fmtFindings(m.text, one.findings).length < at.length);
  });
});

// ---- witness sentences ----

describe('witness sentences', () => {
  test('RA with a read premise: "T2 must commit before T1", naming the read and the premise', () => {
    const m = marked('session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(x, 2)\nsession s3\n  T3: [[r(x, 1)]] r(x, 2)\n');
    const a = analyzeHistText(m.text, { levels: ['RA'] });
    const f = a.findings.find((x) => x.code === 'RA' && x.span.start === m.ranges[0].start);
    assert.ok(f, fmtFindings(m.text, a.findings).join(', '));
    assert.match(f.message, /T2 must commit before T1/);
    assert.match(f.message, /T3 read x from T1/, 'the read whose axiom forced the edge');
    assert.match(f.message, /x from T2/, 'the premise: T3 also read from T2');
    assert.match(f.message, /T2 also writes x/);
  });

  test('RA with a session premise names the session', () => {
    const m = marked('session s1\n  T1: w(x, 1)\n  T2: [[r(x, init)]]\n');
    const a = analyzeHistText(m.text, { levels: ['RA'] });
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'RA', 'information', 0)]);
    assert.match(a.findings[0].message, /T1 must commit before/);
    assert.match(a.findings[0].message, /precedes T2 in session s1/);
    assert.match(a.findings[0].message, /also writes x/);
  });

  test('CC names the happens-before path', () => {
    const m = marked('session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n  T3: w(y, 1)\nsession s3\n  T4: r(y, 1) [[r(x, init)]]\n');
    const a = analyzeHistText(m.text, { levels: ['CC'] });
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'CC', 'information', 0)]);
    assert.match(a.findings[0].message, /T1 must commit before/);
    assert.match(a.findings[0].message, /T4 read/);
    assert.match(a.findings[0].message, /T1 → T2 → T3 → T4/);
  });

  test('so and wr edges of a witness read "T1 precedes T2 in session s1" and "T3 read x from T2"', () => {
    const a = analyzeHistText('session s1\n  T1: r(y, 1)\n  T2: w(x, 1)\nsession s2\n  T3: r(x, 1) w(y, 1)\n');
    const because = verdict(a, 'RC').witness?.edges.map((e) => e.because) ?? [];
    assert.ok(because.includes('T1 precedes T2 in session s1'), because.join(' | '));
    assert.ok(because.includes('T3 read x from T2 (1)'), because.join(' | '));
    const causal = analyzeHistText('session s1\n  T1: r(x, 2) w(y, 1)\nsession s2\n  T2: r(y, 1) w(x, 2)\n');
    assert.ok(causal.findings.every((f) => /T2 read y from T1/.test(f.message) && /T1 read x from T2/.test(f.message)));
  });
});

// ---- severities: claimed level, other levels, expectations ----

describe('severity rules', () => {
  test('with expect lines every other finding is information', () => {
    const m = fractured('level RA\nexpect RA violated\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(sorted(fmtFindings(m.text, a.findings)), sorted([expected(m, 'RA', 'information', 1), expected(m, 'CC', 'information', 1)]));
  });

  test('with expect lines read-consistency problems and duplicate writes are information', () => {
    const m = marked('expect RC violated\nsession s1\n  T1: [[w(x, 1)]]\nsession s2\n  T2: [[w(x, 1)]]\nsession s3\n  T3: [[r(x, 1)]] [[r(y, 9)]]\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [
      expected(m, 'duplicate-write', 'information', 0),
      expected(m, 'duplicate-write', 'information', 1),
      expected(m, 'ambiguous-read', 'information', 2),
      expected(m, 'thin-air', 'information', 3),
    ]);
  });

  test('with expect lines a causality cycle is information', () => {
    const a = analyzeHistText('expect CC violated\nsession s1\n  T1: r(x, 2) w(y, 1)\nsession s2\n  T2: r(y, 1) w(x, 2)\n');
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]), [['causality-cycle', 'information'], ['causality-cycle', 'information']]);
  });

  test('with expect lines the file\'s own errors stay errors', () => {
    const m = marked(`expect RC ok
level [[RR]]
session s1
  T1: w(x, 1) [[q]](x, 2)
session s2
  [[T1]]: r(x) <- [[T9]]
`);
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [
      expected(m, 'unknown-level', 'error', 0),
      expected(m, 'syntax', 'error', 1),
      expected(m, 'duplicate-name', 'error', 2),
      expected(m, 'undefined-transaction', 'error', 3),
    ]);
  });

  test('expectation-failed: an error at the directive, with the witness as related information', () => {
    const m = fractured('level RA\n[[expect RA ok]]\nexpect RC ok\n[[expect CC ok]]\n');
    const a = analyzeHistText(m.text);
    // markers: 0, 1 = the failing expectations, then the fractured read's markers shift by two
    assert.deepEqual(fmtFindings(m.text, errors(a)), [expected(m, 'expectation-failed', 'error', 0), expected(m, 'expectation-failed', 'error', 1)]);
    const [ra, cc] = errors(a);
    assert.match(ra.message, /RA/);
    assert.match(ra.message, /violated/);
    assert.ok(ra.related.length > 0, 'the RA witness');
    assert.ok(ra.related.some((r) => fmtSpan(m.text, r.span) === m.at(3)), 'the related information shows the forcing read');
    assert.match(cc.message, /CC/);
    assert.deepEqual(sorted(fmtFindings(m.text, a.findings, ['RA', 'CC'])), sorted([expected(m, 'RA', 'information', 3), expected(m, 'CC', 'information', 3)]));
  });

  test('expectation-failed when a level expected violated holds', () => {
    const m = marked('[[expect RC violated]]\nexpect RA ok\nsession s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'expectation-failed', 'error', 0)]);
    assert.match(a.findings[0].message, /RC/);
  });

  test('expectations of a read-consistency problem: every level is violated', () => {
    const a = analyzeHistText('expect RC violated\nexpect CC violated\nexpect SER violated\nsession s1\n  T1: r(x, 1) w(x, 1)\n');
    assert.deepEqual(errors(a), []);
  });

  test('expectations are checked against the homogeneous verdict, whatever the tags', () => {
    const text = readFileSync(join(EXAMPLES, 'mixed-levels.hist'), 'utf8');
    const a = analyzeHistText(text.replace('expect RA violated', 'expect RA ok'));
    assert.deepEqual(errors(a).map((f) => f.code), ['expectation-failed']);
  });

  test('the mixed verdict\'s findings are information in a file with expect lines', () => {
    const text = readFileSync(join(EXAMPLES, 'mixed-levels-violated.hist'), 'utf8');
    const a = analyzeHistText(text);
    assert.deepEqual(errors(a), []);
    assert.ok(a.findings.some((f) => f.code === 'mixed' && f.severity === 'information'));
  });

  test('list-append findings are information in a file with expect lines', () => {
    const a = analyzeHistText('expect RC violated\nsession s1\n  T1: a(l, 1) w(x, 1)\nsession s2\n  T2: r(l, [2]) r(x, 1)\n');
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]), [['garbage-read', 'information']]);
  });
});

// ---- PC, PSI, SI, SER ----

describe('strong levels', () => {
  for (const level of ['PC', 'PSI', 'SI', 'SER'] as const) {
    test(`check ${level} when it holds: decided, no note and no error`, () => {
      const a = analyzeHistText(`check ${level}\nsession s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n`);
      assert.equal(verdict(a, level).consistent, true);
      assert.equal(a.findings.filter((f) => f.code === 'not-checked').length, 0);
      assert.deepEqual(errors(a), []);
    });

    test(`level ${level} when CC is violated: ${level} violated, an error at CC's forcing read`, () => {
      const m = marked(`level ${level}\nsession a\n  T1: w(x, 1)\nsession b\n  T2: r(x, 1) w(y, 1)\nsession c\n  T3: r(y, 1) [[r(x, init)]]\n`);
      const a = analyzeHistText(m.text);
      assert.equal(verdict(a, level).consistent, false);
      assert.equal(verdict(a, 'CC').consistent, false);
      assert.deepEqual(a.levels.map((v) => v.witness?.edges.length ?? 0).slice(-1), [2]);
      assert.deepEqual(fmtFindings(m.text, errors(a)), [expected(m, level, 'error', 0)]);
      assert.ok(a.findings.some((f) => f.code === 'CC' && f.severity === 'information'));
      assert.equal(a.findings.filter((f) => f.code === 'not-checked').length, 0, 'decided: nothing is left unchecked');
      assert.equal(a.mixed?.consistent, false);
    });
  }

  test('level SI on a lost update: SI errors at the reads, PC holds', () => {
    const m = marked('level SI\nsession s1\n  T1: [[r(x, init)]] w(x, 1)\nsession s2\n  T2: [[r(x, init)]] w(x, 2)\n');
    const a = analyzeHistText(m.text);
    assert.equal(a.mixed?.consistent, false);
    assert.equal(verdict(a, 'PC').consistent, true);
    assert.equal(verdict(a, 'PSI').consistent, false);
    const si = errors(a).filter((f) => f.code === 'SI');
    assert.ok(si.length >= 1, 'an SI error');
    for (const f of si) assert.ok(m.ranges.some((r) => contains(r, f.span)), `at a read: ${fmtSpan(m.text, f.span)}`);
    assert.match(verdict(a, 'SI').witness?.message ?? '', /no commit order/);
  });

  test('write skew: only SER is violated, with the cycle of two anti-dependencies', () => {
    const a = analyzeHistText('check SER SI\nsession s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2: r(x, init) r(y, init) w(y, 2)\n');
    assert.deepEqual(verdictMap(a, ALL), { RC: true, RA: true, CC: true, PC: true, PSI: true, SI: true, SER: false });
    const w = verdict(a, 'SER').witness!;
    assert.deepEqual(w.edges.map((e) => e.kind), ['rw', 'rw']);
    assert.ok(w.edges.every((e) => /must commit before/.test(e.because)));
    assert.ok(a.findings.some((f) => f.code === 'SER' && f.severity === 'information'));
  });

  test('expect SER ok on a serializable history: nothing to report', () => {
    const a = analyzeHistText('expect SER ok\nsession s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n');
    assert.deepEqual(a.findings, []);
  });

  test('expect SER ok fails when CC is violated', () => {
    const m = marked('[[expect SER ok]]\nsession s1\n  T1: w(x, 1)\n  T2: r(x, init)\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, errors(a)), [expected(m, 'expectation-failed', 'error', 0)]);
  });

  test('a read-consistency problem makes the strong levels violated too', () => {
    const a = analyzeHistText('check PC PSI SI SER\nsession s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 3)\n', { levels: ALL });
    assert.deepEqual(verdictMap(a, ALL), NONE_HOLDS);
  });

  test('a mixed verdict with a tag above CC is decided', () => {
    const a = analyzeHistText('session s1\n  T1 [SER]: w(x, 1)\nsession s2\n  T2 [RA]: r(x, 1)\n');
    assert.equal(a.mixed?.consistent, true);
    assert.equal(a.findings.filter((f) => f.code === 'not-checked').length, 0);
  });
});

// ---- mixed verdicts ----

describe('mixed verdicts', () => {
  const MIXED_VIOLATED = `level RC
session s1
  T1: w(x, 1) w(y, 1)
session s2
  T2: [[r(y, init)]] r(x, 1)
session s3
  T3 [RA]: r(x, 1) w(z, 1)
session s4
  T4 [CC]: r(z, 1) [[r(x, init)]]
`;

  test('no level and no tags: no mixed verdict', () => {
    assert.equal(analyzeHistText(fractured().text).mixed, null);
  });

  test('tags among RC/RA/CC: the mixed violation is a `mixed` error at the reading transaction\'s read', () => {
    const m = marked(MIXED_VIOLATED);
    const a = analyzeHistText(m.text);
    assert.equal(a.mixed?.consistent, false);
    assert.deepEqual(fmtFindings(m.text, errors(a)), [expected(m, 'mixed', 'error', 1)]);
    assert.deepEqual(fmtFindings(m.text, a.findings, ['RA']), [expected(m, 'RA', 'information', 0)]);
    assert.ok(fmtFindings(m.text, a.findings, ['CC']).every((s) => s.startsWith('CC information')));
    assert.deepEqual(verdictMap(a), { RC: true, RA: false, CC: false });
    const w = a.mixed?.witness;
    assert.ok(w);
    assert.ok(w.edges.some((e) => e.kind === 'co' && fmtSpan(m.text, e.span) === m.at(1)));
  });

  test('each forced edge of a mixed witness says which level\'s axiom forced it', () => {
    const m = marked(MIXED_VIOLATED);
    const a = analyzeHistText(m.text);
    const f = a.findings.find((x) => x.code === 'mixed');
    assert.ok(f);
    assert.match(f.message, /\bCC\b/, 'docs/anomalies.md#mixed: "T4 (CC) read x from ⊥"');
  });

  test('isolation autonomy: each transaction only at its own level (mixed holds while RA and CC fail)', () => {
    const m = marked(`level RA
session s1
  T1 [CC]: w(x, 1) w(y, 1)
session s2
  T2 [RC]: r(y, init) r(x, 1)
session s3
  T3 [CC]: r(x, 1) w(z, 1)
session s4
  T4: r(z, 1) r(x, init)
`);
    const a = analyzeHistText(m.text);
    assert.equal(a.mixed?.consistent, true);
    assert.deepEqual(verdictMap(a), { RC: true, RA: false, CC: false });
    assert.deepEqual(errors(a), []);
    assert.ok(a.findings.every((f) => f.severity === 'information'));
  });

  test('the same history with T4 tagged CC violates the mixed verdict', () => {
    const a = analyzeHistText(`level RA
session s1
  T1 [CC]: w(x, 1) w(y, 1)
session s2
  T2 [RC]: r(y, init) r(x, 1)
session s3
  T3 [CC]: r(x, 1) w(z, 1)
session s4
  T4 [CC]: r(z, 1) r(x, init)
`);
    assert.equal(a.mixed?.consistent, false);
    assert.deepEqual(errors(a).map((f) => f.code), ['mixed']);
  });

  test('a level directive and no tags: the mixed verdict is that level, reported under its code', () => {
    const m = fractured('level RA\n');
    const a = analyzeHistText(m.text);
    assert.equal(a.mixed?.consistent, verdict(a, 'RA').consistent);
    assert.deepEqual(a.findings.filter((f) => f.code === 'mixed'), []);
  });

  test('every transaction tagged with one level and no level directive: reported under that level\'s code', () => {
    const m = marked('session s1\n  T1 [RA]: w(x, 1) w(y, 1)\nsession s2\n  T2 [RA]: [[r(y, init)]] r(x, 1)\n');
    const a = analyzeHistText(m.text);
    assert.equal(a.mixed?.consistent, false);
    assert.deepEqual(fmtFindings(m.text, errors(a)), [expected(m, 'RA', 'error', 0)]);
  });

  test('tags and no level: untagged transactions run at SER (so a causal miss is a mixed error)', () => {
    const m = marked('session s1\n  T1 [RA]: w(x, 1) w(y, 1)\nsession s2\n  T2: [[r(y, init)]] r(x, 1)\n');
    const a = analyzeHistText(m.text);
    assert.equal(a.mixed?.consistent, false);
    assert.deepEqual(fmtFindings(m.text, errors(a)), [expected(m, 'mixed', 'error', 0)]);
  });

  test('tags and no level: the untagged transactions run at SER', () => {
    const a = analyzeHistText('session s1\n  T1 [RA]: w(x, 1)\nsession s2\n  T2: r(x, 1)\n');
    assert.equal(a.mixed?.consistent, true);
    assert.deepEqual(errors(a), []);
    // A write skew between an untagged (SER) transaction and an SI one: allowed, the SER one commits first.
    const b = analyzeHistText('session s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2 [SI]: r(x, init) r(y, init) w(y, 2)\n');
    assert.equal(b.mixed?.consistent, true);
    // Both at SER: violated.
    const c = analyzeHistText('session s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2 [SER]: r(x, init) r(y, init) w(y, 2)\n');
    assert.equal(c.mixed?.consistent, false);
  });

  test('a mixed history with a read-consistency problem is violated', () => {
    const a = analyzeHistText('level RC\nsession s1\n  T1 [RA]: w(x, 1)\nsession s2\n  T2 [CC]: r(x, 5)\n');
    assert.equal(a.mixed?.consistent, false);
    assert.deepEqual(errors(a).map((f) => f.code), ['thin-air']);
  });
});

// ---- the lattice ----

describe('the level lattice', () => {
  const stronger: Record<Level, Level[]> = {
    RC: ['RA'], RA: ['CC'], CC: ['PC', 'PSI'], PC: ['SI'], PSI: ['SI'], SI: ['SER'], SER: ['SSER'], SSER: [],
  };
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.hist')).sort();

  test('there are examples to check', () => {
    assert.ok(files.length > 0);
  });

  for (const file of files) {
    test(`${file}: CC ok ⇒ RA ok ⇒ RC ok, and a violation propagates to every stronger level`, () => {
      const a = analyzeHistText(readFileSync(join(EXAMPLES, file), 'utf8'), { levels: ALL });
      const v = verdictMap(a, ALL);
      assert.deepEqual(Object.keys(v), ALL);
      if (v.CC === true) assert.equal(v.RA, true);
      if (v.RA === true) assert.equal(v.RC, true);
      for (const l of ALL) {
        for (const s of stronger[l]) {
          if (v[l] === false) assert.equal(v[s], false, `${l} violated ⇒ ${s} violated`);
          if (v[s] === true) assert.notEqual(v[l], false, `${s} holds ⇒ ${l} not violated`);
        }
      }
      for (const l of ['RC', 'RA', 'CC'] as const) assert.notEqual(v[l], null, `${l} is always decided`);
      for (const l of ALL) {
        const x = verdict(a, l);
        if (x.consistent === false) assert.ok(x.witness, `${l} violated with a witness`);
      }
    });
  }
});

describe('severities the spec fixes (a conformance audit found these)', () => {
  test('a file whose only expect lines name anomalies is a regression test too: its other findings are information', () => {
    const a = analyzeHistText('expect G-single absent\nsession s1\n  T1: r(x, 5)\n');
    assert.deepEqual(errors(a), []);
    assert.ok(a.findings.some((f) => f.code === 'thin-air' && f.severity === 'information'));
    const failed = analyzeHistText('expect G-single found\nsession s1\n  T1: w(x, 1)\n');
    assert.deepEqual(errors(failed).map((f) => f.code), ['expectation-failed']);
  });

  test('a re-read internal anomaly is an error only where it breaks a claimed level (RA and above, not RC)', () => {
    const body = 'session s0\n  T0: a(x, 1)\nsession s9\n  T9: a(x, 2)\nsession s1\n  T1: r(x, [1]) r(x, [1, 2])\n';
    const rc = analyzeHistText(`level RC\n${body}`);
    assert.deepEqual(errors(rc), []);
    assert.ok(rc.findings.some((f) => f.code === 'internal' && f.severity === 'information'));
    const ra = analyzeHistText(`level RA\n${body}`);
    assert.ok(errors(ra).some((f) => f.code === 'internal'));
    // An append the transaction itself missed breaks every level: an error whatever is claimed.
    assert.ok(errors(analyzeHistText('level RC\nsession s1\n  T1: a(x, 2) r(x, [])\n')).some((f) => f.code === 'internal'));
  });

  test('a level violated by implication is reported at its witness\'s read when the level it is implied from is not reported', () => {
    const text = 'session s1\n  T1: w(x, 1)\n  T2: r(x, init)\n';
    const ser = analyzeHistText(text, { levels: ['SER'] });
    assert.equal(verdict(ser, 'SER').basis.kind, 'implied');
    assert.deepEqual(ser.findings.filter((f) => f.code === 'SER').map((f) => text.slice(f.span.start, f.span.end)), ['r(x, init)']);
    // Reported with CC, where it is implied from: once, at CC.
    const both = analyzeHistText(text, { levels: ['CC', 'SER'] });
    assert.deepEqual(both.findings.filter((f) => f.code === 'SER'), []);
    assert.equal(both.findings.filter((f) => f.code === 'CC').length, 1);
    // Unless the file names it in `check`: the spec reports those levels' violations.
    const named = analyzeHistText(`level RA\ncheck RC CC SER\n${text}`);
    assert.deepEqual(named.findings.filter((f) => f.code === 'SER' || f.code === 'CC').map((f) => [f.code, f.severity]), [['CC', 'information'], ['SER', 'information']]);
  });
});

describe('list-append places the spec fixes', () => {
  test('incompatible-order is reported at the headers of the two transactions whose reads disagree, the reads related', () => {
    const text = 'session s1\n  T1: a(x, 1)\nsession s2\n  T2: a(x, 2)\nsession s3\n  T3: r(x, [1, 2])\nsession s4\n  T4: r(x, [2, 1])\n';
    const a = analyzeHistText(text);
    const found = a.findings.filter((f) => f.code === 'incompatible-order');
    assert.deepEqual(found.map((f) => text.slice(f.span.start, f.span.end)).sort(), ['T3:', 'T4:']);
    for (const f of found) assert.deepEqual(f.related.map((r) => text.slice(r.span.start, r.span.end)).sort(), ['r(x, [1, 2])', 'r(x, [2, 1])']);
  });

  test('a cycle of session order and observed appends is a causality-cycle error at each of its reads, as in register histories', () => {
    const text = 'session s1\n  T1: a(x, 1) r(y, [2])\nsession s2\n  T2: a(y, 2) r(x, [1])\n';
    const a = analyzeHistText(text);
    assert.deepEqual(errors(a).filter((f) => f.code === 'causality-cycle').map((f) => text.slice(f.span.start, f.span.end)).sort(), ['r(x, [1])', 'r(y, [2])']);
    assert.ok(a.findings.some((f) => f.code === 'G1c'), 'also the G1c anomaly');
    // A G1c through a ww edge is no so ∪ wr cycle: no causality-cycle.
    const g1c = analyzeHistText('session s1\n  T1: a(x, 1) a(y, 1)\nsession s2\n  T2: a(x, 2) r(y, [1])\nsession s3\n  T3: r(x, [1, 2])\n');
    assert.ok(!g1c.findings.some((f) => f.code === 'causality-cycle'));
  });
});

test('a re-read internal in a mixed history is an error only when its reader\'s own level forbids it', () => {
  const body = (tag: string): string => `level SER\nsession s1\n  T0: a(x, 1)\n  T2: a(x, 2)\nsession s2\n  T1 [${tag}]: r(x, [1]) r(x, [1, 2])\n`;
  const rc = analyzeHistText(body('RC'));
  assert.equal(rc.mixed?.consistent, true);
  assert.deepEqual(rc.findings.filter((f) => f.code === 'internal').map((f) => f.severity), ['information']);
  const ra = analyzeHistText(body('RA'));
  assert.equal(ra.mixed?.consistent, false);
  assert.deepEqual(ra.findings.filter((f) => f.code === 'internal').map((f) => f.severity), ['error']);
});
