// Witnesses and findings too many to spread as arguments or hold in one string: a cycle of 150,000 edges, 150,000 expect lines.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck, type Io } from '../server/src/cli/check-command.ts';
import { runWitness } from '../server/src/cli/witness-command.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'isocheck-huge-witness-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function capture(): { io: Io; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t) => out.push(t.endsWith('\n') ? t : `${t}\n`), err: (t) => err.push(t), errIsTty: false }, out, err };
}

/**
 * Plume: n transactions, one per session, each reading the key its predecessor wrote and writing the
 * next (the last writes the key the first read): a ring of n wr edges, the only cycle there is.
 * (A long session is no such case: session order is transitive, a run of so edges is one edge.)
 */
function ring(n: number): string {
  const p = join(dir, `ring-${n}.txt`);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`r(${i},${i === 0 ? n : i},${i},${i})`, `w(${(i + 1) % n},${i + 1},${i},${i})`);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

/** dbcop: T1 writes x, one session reads it `reads` times, then writes y, which the first transaction read. */
function chain(reads: number): string {
  const p = join(dir, `chain-${reads}.dbcop`);
  writeFileSync(p, `[y==1]\n[x:=1]\n---\n${'[x==1]\n'.repeat(reads)}[y:=1]\n`);
  return p;
}

test('a witness cycle of 150,000 edges: the table and the DOT export are written, no stack overflow (the edges were spread as arguments)', () => {
  const file = ring(150_000);
  const table = capture();
  assert.equal(runCheck([file, '--level', 'RC'], table.io), 1, table.err.join(''));
  assert.deepEqual(table.err, []);
  const text = table.out.join('');
  assert.match(text, /RC violated \(causality-cycle\):/);
  assert.equal(text.match(/\[wr\]/g)?.length, 150_000);
  const dot = capture();
  assert.equal(runWitness([file, '--level', 'RC', '--format', 'dot'], dot.io), 0, dot.err.join(''));
  assert.ok((dot.out.join('').match(/^ {4}t\d+ \[label=/gm)?.length ?? 0) >= 150_000);
});

test('a cycle through a session of 150,000 transactions is four edges: the run of so edges is one (session order is transitive)', () => {
  const table = capture();
  assert.equal(runCheck([chain(150_000), '--level', 'RC'], table.io), 1, table.err.join(''));
  const text = table.out.join('');
  const cycle = text.split('\n').filter((l) => /^ {4}T\d+ → T\d+ \[/.test(l));
  assert.deepEqual(cycle.map((l) => /\[(\w+)\]/.exec(l)![1]), ['wr', 'so', 'wr', 'so'], text.slice(0, 2000));
  assert.match(cycle[1], /^ {4}T3 → T150003 \[so\] T3 precedes T150003 in session s2/);
});

test('a ring whose first closing edge goes round 128,000 transactions, where every other closes a two-edge cycle: the witness has two edges', () => {
  // One session; T_i reads the key T_{i+1} writes (T_{n-1} reads T_0's): each T_{i+1} →wr T_i closes
  // T_i →so T_{i+1}, but the search took T_0 →wr T_{n-1} first, whose only way back is the whole ring,
  // and its budget was spent there (a 128,000-edge witness, 61 MB of --json).
  const n = 128_000;
  const p = join(dir, `session-ring-${n}.hist`);
  const lines = ['session a'];
  for (let i = 0; i < n; i++) lines.push(`  T${i}: r(x${(i + 1) % n}, 1) w(x${i}, 1)`);
  writeFileSync(p, `${lines.join('\n')}\n`);
  const table = capture();
  assert.equal(runCheck([p, '--level', 'CC'], table.io), 1, table.err.join(''));
  const cycle = table.out.join('').split('\n').filter((l) => /^ {4}T\d+ → T\d+ \[/.test(l));
  assert.deepEqual(cycle.map((l) => /\[(\w+)\]/.exec(l)![1]).sort(), ['so', 'wr']);
});

test('--json is JSON.stringify(reports, null, 2) to the byte, written in pieces of about a megabyte (one report may outgrow a V8 string)', () => {
  const big = capture();
  assert.equal(runCheck([ring(20_000), '--json'], big.io), 1);
  assert.ok(big.out.length > 40, `${big.out.length} pieces`);
  for (const piece of big.out) assert.ok(piece.length < 1.1 * 2 ** 20, `a piece of ${piece.length} characters`);
  const json = big.out.join('');
  const reports = JSON.parse(json) as { levels: Record<string, { witness?: { cycle: unknown[] } }> }[];
  assert.ok((reports[0].levels.SER.witness?.cycle.length ?? 0) > 19_900);
  assert.equal(json, `${JSON.stringify(reports, null, 2)}\n`);
  // Many small reports, with every optional member (partial, anomalies, expectations, explanations).
  const many = capture();
  runCheck([join(import.meta.dirname, '..', 'examples'), join(import.meta.dirname, 'fixtures', 'elle'), '--json'], many.io);
  const all = many.out.join('');
  assert.equal(all, `${JSON.stringify(JSON.parse(all), null, 2)}\n`);
});

test('150,000 `expect A found` lines: one finding each, no stack overflow (they were spread into the findings)', () => {
  const text = `session s1\n  T1: append(x, 1)\n  T2: r(x, [1])\n${'expect G1c found\n'.repeat(150_000)}`;
  const a = analyzeHistText(text);
  assert.equal(a.findings.filter((f) => f.code === 'expectation-failed').length, 150_000);
});
