// Every sentence that explains a strong or mixed violation says what its commit order says (issue 8 defect 2).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory, Rng } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';

/** Problems with one "in the commit order A, B, …: …" sentence: each "X commits after/before Y" must match the order. */
function orderProblems(sentence: string, names: Set<string>): string[] {
  const m = /^in the commit order ([^:]+): /.exec(sentence);
  if (!m) return [`not an order sentence: ${sentence}`];
  const order = m[1].split(', ');
  const pos = new Map(order.map((t, i) => [t, i]));
  const out: string[] = [];
  for (const f of sentence.matchAll(/(\S+) commits (after|before) (\S+?)(?=[,:;)]|$)/g)) {
    const [, a, dir, b] = f;
    if (!names.has(a) || !names.has(b)) continue;
    const ok = dir === 'after' ? pos.get(a)! > pos.get(b)! : pos.get(a)! < pos.get(b)!;
    if (!ok) out.push(`"${a} commits ${dir} ${b}" contradicts the order ${m[1]}: ${sentence}`);
  }
  // "T3 (at L) … but it sees T2": whatever T3 sees commits before it.
  const sees = /: (\S+) \(at \w+\) .*?, but it sees (\S+) \(/.exec(sentence);
  if (sees && !(pos.get(sees[2])! < pos.get(sees[1])!)) out.push(`${sees[1]} sees ${sees[2]}, which commits after it: ${sentence}`);
  return out;
}

const LOST_UPDATE_SI = `level SI
init x = 0, y = 0
session s1
  A: r(x, 0) r(y, 0) w(x, 1)
session s2
  B: r(x, 0) r(y, 0) w(x, 2)
`;

test('a lost update under SI: each order names the reader, the writer it must see, and that writer commits first', () => {
  const a = analyzeHistText(LOST_UPDATE_SI, { levels: ['SI'] });
  const v = a.levels[0];
  assert.equal(v.consistent, false);
  const ex = v.witness!.explanation!;
  assert.deepEqual(ex, [
    'in the commit order A, B: B (at SI) read the initial value of x, but it sees A (at SI a transaction sees the earlier writers of the keys it writes, and both write x), which overwrote the initial value of x',
    'in the commit order B, A: A (at SI) read the initial value of x, but it sees B (at SI a transaction sees the earlier writers of the keys it writes, and both write x), which overwrote the initial value of x',
  ]);
});

test('a long fork under PC names the transaction whose predecessors are seen, in the order\'s direction', () => {
  const text = `init x = 0, y = 0
session s1
  T1: w(x, 1)
session s2
  T2: w(y, 1)
session s3
  T3: r(x, 1) r(y, 0)
session s4
  T4: r(x, 0) r(y, 1)
`;
  const ex = analyzeHistText(text, { levels: ['PC'] }).levels[0].witness!.explanation!;
  assert.equal(ex[0], 'in the commit order T1, T2, T3, T4: T4 (at PC) read the initial value of x, but it sees T1 (at PC a transaction sees every transaction that commits before one it sees, and T1 commits before T2: T4 read y from T2), which overwrote the initial value of x');
  for (const s of ex) assert.deepEqual(orderProblems(s, new Set(['T1', 'T2', 'T3', 'T4'])), []);
});

test('1,500 generated histories: every order sentence of PC, PSI, SI and mixed witnesses agrees with its order', () => {
  let sentences = 0;
  const problems: string[] = [];
  for (let seed = 1; seed <= 1500 && problems.length === 0; seed++) {
    const rng = new Rng(seed * 104729);
    const g = generateHistory({
      sessions: 2 + rng.below(3), transactions: 2 + rng.below(5), opsPerTxn: 1.5 + rng.below(3), keys: 1 + rng.below(3),
      distribution: 'uniform', zipfS: 0.8, readRatio: 0.5, store: 'permissive', seed,
    });
    const fallback = LEVELS[3 + rng.below(4)];
    const text = `level ${fallback}\n` + toHistString(g).replace(/^(\s*)(T\d+):/gm, (_m, indent: string, id: string) =>
      `${indent}${id}${rng.below(2) === 0 ? '' : ` [${LEVELS[rng.below(LEVELS.length)]}]`}:`);
    const a = analyzeHistText(text, { levels: ['PC', 'PSI', 'SI'] });
    const names = new Set<string>();
    for (let t = 1; t < a.history.txnCount; t++) names.add(a.history.names.txnName(t));
    for (const v of [...a.levels, ...(a.mixed ? [a.mixed] : [])]) {
      for (const s of v.witness?.explanation ?? []) {
        sentences++;
        problems.push(...orderProblems(s, names).map((p) => `seed ${seed} ${v.level}: ${p}`));
      }
    }
  }
  assert.deepEqual(problems.slice(0, 3), []);
  assert.ok(sentences > 150, `only ${sentences} sentences`);
});

test('PC, PSI and SI witnesses are cycles of forced edges, each naming the read that forces it (spec: a small cycle before the unsatisfiable core)', () => {
  const longFork = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(y, 1)\nsession s3\n  T3: r(x, 1) r(y, init)\nsession s4\n  T4: r(y, 1) r(x, init)\n';
  const lost = 'session s1\n  T1: r(x, init) w(x, 1)\nsession s2\n  T2: r(x, init) w(x, 2)\n';
  for (const [text, level, readers] of [[longFork, 'PC', ['T4', 'T3']], [longFork, 'SI', ['T4', 'T3']], [lost, 'PSI', ['T2', 'T1']], [lost, 'SI', ['T2', 'T1']]] as const) {
    const a = analyzeHistText(text, { levels: [level] });
    const w = a.levels[0].witness!;
    const name = (t: number): string => a.history.names.txnName(t);
    assert.equal(w.edges.length, 2, `${level}: ${w.message}`);
    for (const [i, e] of w.edges.entries()) {
      assert.equal(e.to, w.edges[(i + 1) % 2].from, 'the cycle chains');
      // A long fork's edges are co edges of the readers' snapshots (their sources read nothing of the key); a lost update's are the writers' own anti-dependencies.
      if (text === longFork) assert.deepEqual([e.kind, e.bySnapshot], ['co', true]);
      else assert.deepEqual([e.kind, e.bySnapshot], ['rw', undefined]);
      assert.ok(e.because.startsWith(`${name(e.from)} must commit before ${name(e.to)}: `), e.because);
    }
    assert.deepEqual(w.edges.map((e) => name(a.history.opTxn[e.readOp])), readers, `${level}: the reads that force the edges`);
  }
});

test('a mixed witness through a weak reader: its rule forces the edge (RA: a session predecessor wrote the key it read older)', () => {
  const text = 'session s1\n  T1 [SSER] @ 10..11: w(x, 2)\n  T3 [RA]: r(x, 1)\nsession s2\n  T2 [RA] @ 0..1: w(x, 1)\n';
  const a = analyzeHistText(text);
  const w = a.mixed!.witness!;
  const name = (t: number): string => a.history.names.txnName(t);
  assert.deepEqual(w.edges.map((e) => `${name(e.from)}→${name(e.to)} ${e.kind}`), ['T1→T2 ww', 'T2→T1 co']);
  assert.match(w.edges[0].because, /^T1 must commit before T2: T1 precedes T3 in its session, and T3 \(at RA\) read x from T2/);
  assert.match(w.edges[1].because, /T2 finished \(at 1\) before T1 started \(at 10\)/);
});
