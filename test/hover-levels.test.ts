// Hover content at each level: what a read contributes to every violated level (most relevant first, no "none" noise), and a header's commit orders.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DocModel } from '../server/src/lsp/doc-model.ts';
import { hoverAt } from '../server/src/lsp/features/hover.ts';
import { buildSnapshot } from '../server/src/lsp/snapshot.ts';

const ROOT = join(import.meta.dirname, '..');

function model(name: string, source?: string): { m: DocModel; text: string } {
  const text = source ?? readFileSync(join(ROOT, 'examples', name), 'utf8');
  const { snapshot } = buildSnapshot(text, { uri: `file:///${name}`, levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 });
  return { m: new DocModel(`file:///${name}`, 1, 'k', snapshot, false, text), text };
}

/** The hover at the first occurrence of `needle` outside comments (one character in). */
function hover(name: string, needle: string, source?: string): string {
  const { m, text } = model(name, source);
  let i = -1;
  do i = text.indexOf(needle, i + 1); while (i >= 0 && text.lastIndexOf('#', i) > text.lastIndexOf('\n', i));
  assert.ok(i >= 0, needle);
  const h = hoverAt(m, m.lines.position(i + 1));
  assert.ok(h, `no hover on ${needle}`);
  return (h.contents as { value: string }).value;
}

/** Asserts the patterns occur in this order. */
function inOrder(text: string, ...patterns: RegExp[]): void {
  let at = 0;
  for (const p of patterns) {
    const m = p.exec(text.slice(at));
    assert.ok(m, `${String(p)} after offset ${at} in:\n${text}`);
    at += m.index + m[0].length;
  }
}

describe('hover on a read: the edges it contributes to each violated level', () => {
  test('RC: a non-monotonic read, the RC entry first, no "none" lines', () => {
    const t = hover('non-monotonic-read.hist', 'r(y, init)');
    assert.match(t, /^`r\(y, init\)` in `T2` reads the initial value of `y` from ⊥/);
    inOrder(t, /\*\*What this read contributes to each violated level\*\*/,
      /- \*\*RC\*\* ✗ Non-monotonic read: a read returns an older value than one read before it\n {2}- step 1 of 2: T1 →co ⊥: T1 must commit before the initial state: T2 read the initial value of y after it read x from T1/,
      /- \*\*RA\*\* ✗ Fractured read/, /- \*\*CC, PC, PSI, SI, SER\*\* ✗ Fractured read/);
    assert.doesNotMatch(t, /none|holds:/);
  });

  test('RA: a fractured read (with the mixed verdict of the same witness); RC, which holds, on one line', () => {
    const t = hover('fractured-read.hist', 'r(y, init)');
    inOrder(t, /- \*\*RA, mixed\*\* ✗ Fractured read: a transaction sees some of another transaction's writes but not all\n {2}- step 1 of 2: T1 →co ⊥/, /\n\nholds: RC$/);
  });

  test('CC: a causality violation through a happens-before path', () => {
    const t = hover('causality-violation.hist', 'r(x, init)');
    assert.match(t, /- \*\*CC, PC, PSI, SI, SER\*\* ✗ Causality violation: a transaction misses a write that happens before what it sees\n {2}- step 1 of 2: T1 →co ⊥: .*T1, which happens before T3 \(T1 → T2 → T3\), also writes x/);
    assert.match(t, /\n\nholds: RC, RA$/);
  });

  test('PC and SI: a long fork is a cycle of two edges forced by the two readers\' snapshots; this read forces one, before SER\'s rw step', () => {
    const t = hover('long-fork.hist', 'r(x, init)');
    inOrder(t, /- \*\*PC, SI\*\* ✗ Long fork: two readers see two independent writes in opposite orders\n {2}- step 1 of 2: T2 →co T1: T2 must commit before T1: T4 read the initial value of x, which T1 overwrites, so T1 is not in T4's snapshot, which holds T2/,
      /- \*\*SER\*\* ✗ Anti-dependency cycle \(G2\)\n {2}- step 1 of 4: T4 →rw T1: T4 must commit before T1/, /holds: RC, RA, CC, PSI$/);
  });

  test('PSI: a lost update, a cycle of the two writers\' anti-dependencies', () => {
    const t = hover('lost-update.hist', 'r(x, 100) w(x, 102)');
    inOrder(t, /- \*\*PSI, SI\*\* ✗ Lost update: T1 and T2 read the same version of x and both overwrite it\n {2}- step 1 of 2: T2 →rw T1: T2 must commit before T1: .*both write x/,
      /- \*\*SER\*\* ✗ Lost update: T1 and T2 read the same version of x and both overwrite it\n {2}- step 1 of 2: T2 →rw T1/);
  });

  test('SER: write skew, the rw edge this read makes; a read with no edge in the witness says only that', () => {
    const t = hover('write-skew.hist', 'r(y, 0) w(x');
    assert.match(t, /- \*\*SER\*\* ✗ Write skew: T1 and T2 each read what the other overwrites\n {2}- step 2 of 2: T1 →rw T2: T1 must commit before T2: T1 read the initial value of y, which T2 overwrites \(anti-dependency\)/);
    assert.match(t, /\n\nholds: RC, RA, CC, PC, PSI, SI$/);
    const other = hover('write-skew.hist', 'r(x, 0) r(y, 0) w(x');
    assert.doesNotMatch(other, /contributes/);
    assert.match(other, /\n\nviolated without an edge from this read: SER · holds: RC, RA, CC, PC, PSI, SI$/);
  });

  test('SSER: a stale read, the rw step (the rt step belongs to no read)', () => {
    const t = hover('stale-read-realtime.hist', 'r(x, 0)');
    assert.match(t, /- \*\*SSER, mixed\*\* ✗ .*\n {2}- step 1 of 2: T2 →rw T1: T2 must commit before T1: T2 read the initial value of x/);
    assert.match(t, /holds: RC, RA, CC, PC, PSI, SI, SER$/);
  });

  test('mixed: the reader\'s own level (CC) leads, then the homogeneous CC with the co edge it forces', () => {
    const t = hover('mixed-levels-violated.hist', 'r(x, init)');
    inOrder(t, /- \*\*mixed\*\* ✗ Causality violation.*\n {2}- step 1 of 2: T1 →co ⊥: .*T4 \(at CC\) read the initial value of x/,
      /- \*\*CC\*\* ✗ Fractured read.*\n {2}- co edges it forces under CC: 1\n {4}- T1 →co ⊥/,
      /violated without an edge from this read: RA, PC, PSI, SI, SER · holds: RC$/);
  });

  test('list-append: a G-single read shows its rw edge at every level the cycle breaks, after the version order', () => {
    const t = hover('la-g-single-read-skew.hist', 'r(x, [])');
    inOrder(t, /\*\*Version order of x\*\*/, /\*\*Edges this read shows\*\* \(1\)/,
      /- \*\*RC, RA, CC, PC, PSI, SI, SER\*\* ✗ G-single: a cycle with exactly one rw edge \(read skew\)\n {2}- step 2 of 2: T2 →rw T1: T2 must commit before T1: T2 read x = \\\[\\\], missing T1's append of 1/);
  });

  test('list-append: a lost update\'s ww step at the read that shows the version order', () => {
    const t = hover('la-lost-update.hist', 'r(x, [1, 2])');
    assert.match(t, /- \*\*PSI, SI, SER\*\* ✗ G-single: .*\n {2}- step \d of 2: T1 →ww T2: T1 must commit before T2: T2 appended 2 to x right after T1's 1/);
  });
});

describe('hover on a transaction header: its place in each level\'s commit order, or why none exists', () => {
  test('write skew: first in the PC / PSI / SI order, on the SER witness', () => {
    const t = hover('write-skew.hist', 'T1:');
    inOrder(t, /\*\*Commit order per level\*\*/,
      /- \*\*RC, RA, CC\*\* ✓ holds: the commit-order edges the reads force have no cycle/,
      /- \*\*PC, PSI, SI\*\* ✓ 1st of 2 in the commit order found \(first, before `T2`\)/,
      /- \*\*SER\*\* ✗ no commit order: Write skew: T1 and T2 each read what the other overwrites; T1 is on the witness cycle \(step 1 of 2\)/);
  });

  test('long fork: last in PSI\'s order; PC and SI fail at its read', () => {
    const t = hover('long-fork.hist', 'T4:');
    assert.match(t, /- \*\*PC, SI\*\* ✗ no commit order: Long fork: .*; a read of T4 forces step 1 of 2 of the witness cycle/);
    assert.match(t, /- \*\*PSI\*\* ✓ 4th of 4 in the commit order found \(after `T3`, last\)/);
  });

  test('SSER: the stale reader, and the mixed verdict\'s reason', () => {
    const t = hover('stale-read-realtime.hist', 'T2 @');
    assert.match(t, /level: `SSER` \(the file's `level`, or SER\)/);
    assert.match(t, /- \*\*SSER\*\* ✗ no commit order: .*; T2 is on the witness cycle \(step 1 of 2\)/);
    assert.match(t, /\*\*No commit order\*\* satisfies every transaction's level/);
  });

  test('list-append: a realtime anomaly by its code and meaning', () => {
    const t = hover('la-stale-read-realtime.hist', 'T1 @');
    assert.match(t, /- \*\*SSER\*\* ✗ no commit order: G-single-realtime: a G-single cycle that needs real-time \(rt\) edges; T1 is on the witness cycle \(step 1 of 2\)/);
  });

  test('an unknown transaction nobody read, in a file with a `level`: its header has a hover (the mixed check leaves it out, with no level; the hover threw)', () => {
    const text = 'level RA\nsession s1\n  T1: w(x, 1)\n  T3 info: w(y, 5)\nsession s2\n  T2: r(x, 1)\n';
    const t = hover('unknown-not-run.hist', 'T3 info', text);
    assert.match(t, /level: untagged: the file's `level`, or SER/);
    assert.match(t, /status: unknown \(never read: counts as not run\)/);
    assert.match(hover('unknown-not-run.hist', 'T1:', text), /level: `RA` \(the file's `level`, or SER\)/);
  });
});
