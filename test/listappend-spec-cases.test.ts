// List-append cases where the graph once disagreed with the spec's axioms or its catalogue (an independent oracle found them).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { reportedCodes } from '../server/src/engine/listappend/list-analysis.ts';

const all = { levels: LEVELS };

function verdicts(text: string): Record<string, boolean | null> {
  const a = analyzeHistText(text, all);
  return Object.fromEntries(a.levels.map((v) => [v.level, v.consistent]));
}

function codes(text: string): Set<string> {
  const a = analyzeHistText(text, all);
  return a.list ? reportedCodes(a.list) : new Set();
}

describe('list-append against the spec', () => {
  test('an earlier element of a read closes a causality cycle: an error, and the smallest G1c', () => {
    const text = 'session s1\n  T1: r(x, [1, 2])\n  T2: a(x, 1)\nsession s2\n  T3: a(x, 2)\n';
    const a = analyzeHistText(text, all);
    const errors = a.findings.filter((f) => f.severity === 'error');
    assert.deepEqual(errors.map((f) => f.code), ['causality-cycle']);
    assert.match(errors[0].message, /T1 → T2 \[so\].*T2 → T1 \[wr\] T1 observed T2's append of 1/);
    const g1c = a.list?.anomalies.find((x) => x.code === 'G1c');
    assert.deepEqual(g1c?.cycle.map((e) => `${e.from}>${e.to}:${e.kind}`), ['T1>T2:so', 'T2>T1:wr']);
    for (const v of a.levels) assert.equal(v.consistent, false, v.level);
  });

  test('a causality cycle through the first of 2,000 elements: found, and the smallest', () => {
    const n = 2_000;
    const list = Array.from({ length: n }, (_, i) => i + 1).join(', ');
    const appends = Array.from({ length: n - 1 }, (_, i) => `  T${i + 3}: a(x, ${i + 2})`).join('\n');
    const text = `session s1\n  T1: r(x, [${list}])\n  T2: a(x, 1)\nsession s2\n${appends}\n`;
    const a = analyzeHistText(text, { levels: ['RC'] });
    const causal = a.findings.filter((f) => f.code === 'causality-cycle');
    assert.equal(causal.length, 1);
    assert.match(causal[0].message, /^information flows in a circle: T1 → T2 \[so\][^;]*; T2 → T1 \[wr\] T1 observed T2's append of 1/);
  });

  test('a read of a transaction\'s later append that misses its earlier one orders nothing: every level holds (t2 ≠ t1)', () => {
    const text = 'session s1\n  T1: a(x, 1) a(x, 2)\nsession s2\n  T2: r(x, [2])\n';
    for (const [level, c] of Object.entries(verdicts(text))) assert.equal(c, true, level);
    assert.deepEqual([...codes(text)], []);
  });

  test('the source\'s own unread append is no overwrite in RA\'s premise either', () => {
    const text = [
      'session s2', '  T1: r(x, [2]) r(z, [])', '  T4: a(z, 1) r(z, [1]) r(x, []) r(z, [1])',
      'session s1', '  T2: a(x, 1) a(y, 1) a(x, 2) r(z, [])', '  T3 unknown: a(x, 3) a(z, 2) a(z, 3)', '  T5: a(x, 4) a(x, 5) a(y, 2)', '',
    ].join('\n');
    const v = verdicts(text);
    assert.equal(v.RC, true);
    assert.equal(v.RA, true);
    assert.equal(v.SER, false);
  });

  test('an unread append of a transaction whose other appends were read still follows every version read', () => {
    // T3's 3 follows T4's 4 (ww T4 → T3) while T4 read T3's 1 and 2 (wr T3 → T4): every level fails.
    const text = [
      'session s2', '  T1 @ 1..6: r(y, []) a(y, 1)', '  T2 @ 7..13: a(y, 4) a(y, 5) a(y, 6)', '  T5 @ 12..14: r(x, [1, 2, 4]) a(y, 7)',
      'session s1', '  T3 unknown @ 4..8: a(x, 1) a(x, 2) a(x, 3)', '  T4 @ 5..7: a(x, 4) r(x, [1, 2, 4]) a(y, 2) a(y, 3)', '',
    ].join('\n');
    for (const [level, c] of Object.entries(verdicts(text))) assert.equal(c, false, level);
  });

  test('two read skews through one transaction are no write skew (cycles are simple)', () => {
    const text = 'session s1\n  T1: a(x, 1) a(y, 1)\nsession s2\n  T2: r(x, [1]) r(y, [])\nsession s3\n  T3: r(y, [1]) r(x, [])\n';
    const c = codes(text);
    assert.ok(c.has('G-single'));
    assert.ok(!c.has('G2-item'));
    assert.ok(!c.has('G-nonadjacent'));
  });

  test('session order is transitive: a cycle may pass a transaction along so and come back to it', () => {
    // T2 →so T4 (through T3) →rw T3 →rw T2: two rw edges, a write skew.
    const text = 'session s1\n  T1 aborted: a(y, 1) a(x, 1)\nsession s3\n  T2: a(x, 2) r(y, [])\n  T3: a(z, 1) r(x, [2]) r(y, []) r(x, [])\n  T4: r(z, [])\n';
    assert.ok(codes(text).has('G2-item'));
  });

  test('an aborted last element leaves the read\'s other wr edges: a plain G-single, not its realtime variant', () => {
    const text = 'session s1\n  T1 @ 0..1: a(x, 1) a(y, 1)\nsession s2\n  T2 aborted: a(x, 2)\nsession s3\n  T3 @ 5..6: r(x, [1, 2]) r(y, [])\nsession s4\n  T4: r(y, [1])\n';
    const c = codes(text);
    assert.ok(c.has('G-single'));
    assert.ok(!c.has('G-single-realtime'));
    assert.ok(codes(text.replace(/ @ \d+\.\.\d+/g, '')).has('G-single'));
  });

  test('a read with no place in the version order keeps a wr edge from each appender it observed', () => {
    const text = 'session s2\n  T1 unknown: a(x, 1) r(x, [1, 99])\nsession s1\n  T2: r(y, []) r(x, []) a(y, 1) a(x, 2)\n  T3: r(y, [1]) r(y, []) r(x, [1, 2]) r(x, [1, 2])\n';
    assert.ok(codes(text).has('G2-item'));
  });

  test('every read list is compared with the longest, also one with another error', () => {
    const text = 'session s2\n  T1: a(x, 1) r(x, [1]) a(x, 2) r(x, [2, 1])\n  T4: r(x, [1, 2, 3])\nsession s3\n  T2: a(x, 3)\n';
    const c = codes(text);
    assert.ok(c.has('internal'));
    assert.ok(c.has('incompatible-order'));
  });

  test('the SSER witness of so against rt leaves out an unknown transaction nobody read', () => {
    const text = 'session s1\n  T1 unknown @ 15..18: a(x, 3)\n  T2 @ 9..14: r(y, [])\n  T3 @ 3..3: r(x, [])\n';
    const a = analyzeHistText(text, all);
    const sser = a.levels.find((v) => v.level === 'SSER');
    assert.equal(sser?.consistent, false);
    const names = (sser?.witness?.edges ?? []).flatMap((e) => [e.from, e.to]);
    assert.ok(names.length > 0);
    assert.ok(!names.includes(1), JSON.stringify(sser?.witness?.edges));
  });
});

describe('which cycle of a class is shown', () => {
  test('among the smallest of a class, the one with the fewest so and wr edges (whatever the names)', () => {
    // Two G-single cycles of two edges: T1 →wr T2 →rw T1 (a reread) and T4 →rw T1 →ww T4 (T4 missed
    // T1's append and its own append follows it). The second has no so or wr edge.
    const text = (a: string, b: string): string => `session s1\n  ${b}: r(k0, [1]) r(k0, [])\nsession s2\n  T3: a(k1, 2) r(k0, [1]) r(k1, [2])\n  T4: r(k0, []) r(k1, [2]) a(k0, 3)\nsession s3\n  ${a}: r(k0, []) r(k1, []) a(k0, 1)\n`;
    for (const [a, b] of [['T1', 'T2'], ['T9', 'T0']]) {
      const single = analyzeHistText(text(a, b)).list?.anomalies.find((x) => x.code === 'G-single');
      assert.deepEqual(single?.cycle.map((e) => e.kind).sort(), ['rw', 'ww'], `${a} ${b}`);
    }
  });
});

test('a list-append cycle along a session shows the run of so edges as one edge (session order is transitive)', () => {
  const text = 'session s1\n  A: a(x, 1) r(y, [1])\nsession s2\n  B: r(x, [1])\n  M1: a(m, 1)\n  M2: a(m, 2)\n  C: a(y, 1)\n';
  const a = analyzeHistText(text, { levels: ['SER'] });
  const w = a.levels.find((v) => v.level === 'SER')?.witness;
  const name = (t: number): string => a.history.names.txnName(t);
  assert.deepEqual(w?.edges.map((e) => `${name(e.from)} -${e.kind}-> ${name(e.to)}`), ['A -wr-> B', 'B -so-> C', 'C -wr-> A']);
});
