// List-append decisions: a catalogue anomaly decides the levels it breaks before any budget, witnesses hold in the history, and "implied" bases name a level that supports them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeHistText, type Analysis, type Verdict } from '../server/src/engine/analyze.ts';
import { anomalyRow, parseAnomaly } from '../server/src/engine/listappend/anomaly-table.ts';
import { listOf } from '../server/src/engine/listappend/infer.ts';
import { levelsBroken } from '../server/src/engine/listappend/list-analysis.ts';
import { LK_RW, LK_SO, LK_WR, LK_WW } from '../server/src/engine/listappend/infer.ts';
import { LEVELS, levelRow, weakerOrEqual, type Level } from '../server/src/engine/levels/levels.ts';
import { OP_APPEND, OP_LIST_READ } from '../server/src/engine/model/history.ts';
import { Rng } from '../server/src/engine/gen/generate.ts';
import { smallListHistory } from './helpers/listappend-random.ts';

const ROOT = join(import.meta.dirname, '..');
const EXAMPLES = join(ROOT, 'examples');

/** T0 appends 1 to x; then `n` sessions each read x = [1] and append their own element: a lost update per pair. */
function lostUpdates(n: number, header = ''): string {
  let s = `${header}session s0\n T0: a(x,1)\n`;
  for (let i = 1; i <= n; i++) s += `session s${i}\n T${i}: r(x,[1]) a(x,${i + 1})\n`;
  return s;
}

const verdict = (a: Analysis, l: Level | 'mixed'): Verdict => {
  const v = l === 'mixed' ? a.mixed : a.levels.find((x) => x.level === l);
  assert.ok(v, `${l} evaluated`);
  return v;
};

/** Problems with the list witnesses of one analysis: every cycle edge must hold in the history, a cycle-less one must be its anomaly. */
function witnessProblems(a: Analysis, label: string): string[] {
  const out: string[] = [];
  const list = a.list;
  if (!list) return out;
  const h = a.history;
  const e = list.inference.edges;
  const KIND: Record<string, number> = { so: LK_SO, wr: LK_WR, ww: LK_WW, rw: LK_RW };
  const hasEdge = (from: number, to: number, kind: number, op: number): boolean => {
    // so: session order, which is transitive (a witness shows a run of it as one edge).
    if (kind === LK_SO) return from > 0 && h.txnSession[from] === h.txnSession[to] && h.txnIndexInSession[from] < h.txnIndexInSession[to];
    for (let i = 0; i < e.length; i++) if (e.from.data[i] === from && e.to.data[i] === to && e.kind.data[i] === kind) return true;
    // wr: an appender of an element the edge's own read (a list read of `to`) returned (the spec's
    // wr; the graph keeps one per read, and the others where a cycle needs them).
    if (kind !== LK_WR || op < 0 || h.opTxn[op] !== to || h.opKind[op] !== OP_LIST_READ) return false;
    const ls = h.opListStart as Int32Array;
    const elems = h.listElems as Int32Array;
    for (let j = ls[op]; j < ls[op + 1]; j++) {
      const a = list.inference.appenderOf(h.opKey[op], elems[j]);
      if (a >= 0 && h.opTxn[a] === from) return true;
    }
    return false;
  };
  // A reread after the transaction's own appends is reported but breaks no level (levelsBroken): never a level's witness.
  const brokenBy = (l: Level): string[] => list.anomalies.filter((x) => (levelsBroken(x) as readonly string[]).includes(l)).map((x) => x.code);
  for (const v of [...a.levels, ...(a.mixed ? [a.mixed] : [])]) {
    if (v.consistent !== false || !v.witness) continue;
    const w = v.witness;
    const where = `${label} ${v.level} (${w.anomaly})`;
    for (let i = 0; i < w.edges.length; i++) {
      const x = w.edges[i];
      const next = w.edges[(i + 1) % w.edges.length];
      if (x.to !== next.from) out.push(`${where}: edge ${i} does not chain`);
      // A co edge of a list witness is real time: T1 ended before T2 started (and T1's end is known).
      const holds = x.kind === 'co'
        ? h.txnTimeEnd !== undefined && h.txnTimeStart !== undefined && h.txnUnknown?.[x.from] !== 1 && h.txnTimeEnd[x.from] < h.txnTimeStart[x.to]
        : KIND[x.kind] !== undefined && hasEdge(x.from, x.to, KIND[x.kind], x.readOp ?? -1);
      if (!holds) out.push(`${where}: edge ${h.names.txnName(x.from)} → ${h.names.txnName(x.to)} [${x.kind}] is not an edge of the history`);
    }
    const code = parseAnomaly(w.anomaly);
    if (v.level !== 'mixed' && code !== null) {
      // The witness is an anomaly (or a finding of the catalogue) that breaks the level, whenever the history has one.
      const breakers = brokenBy(v.level);
      if (breakers.length > 0 && !anomalyRow(code).violates.includes(v.level)) out.push(`${where}: ${code} does not break ${v.level}, ${breakers.join(', ')} do`);
    }
    if (code === 'lost-update') {
      // Both named transactions read one version of a key and then appended to it.
      const an = list.anomalies.find((x) => x.code === 'lost-update' && w.message === x.message);
      if (!an) {
        out.push(`${where}: not an anomaly of the analysis`);
        continue;
      }
      const reads = an.txns.map((name) => {
        let t = 1;
        while (t < h.txnCount && h.names.txnName(t) !== name) t++;
        const found: string[] = [];
        for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
          if (h.opKind[o] !== OP_LIST_READ) continue;
          let appends = false;
          for (let p = o + 1; p < h.txnOpStart[t + 1]; p++) appends ||= h.opKind[p] === OP_APPEND && h.opKey[p] === h.opKey[o];
          if (appends) found.push(`${h.opKey[o]}:${Array.from(listOf(h, o)).join(',')}`);
        }
        return found;
      });
      if (an.txns.length !== 2 || an.txns[0] === an.txns[1] || !reads[0].some((r) => reads[1].includes(r))) out.push(`${where}: ${an.txns.join(' and ')} did not both read one version and append to it`);
    }
  }
  return out;
}

/**
 * Problems with the "implied" bases of one report: the level named must be in the report (or,
 * when the caller narrowed the levels, be one the levels table lets decide it: its rule,
 * decideFirst, useKnown, witnessFrom or below) and its verdict must support the conclusion (stronger and
 * holding, or weaker and violated). `full` gives the verdicts of every level, for the ones not reported.
 */
function basisProblems(a: Analysis, full: Analysis, label: string): string[] {
  const out: string[] = [];
  for (const v of [...a.levels, ...(a.mixed ? [a.mixed] : [])]) {
    if (v.basis.kind !== 'implied') continue;
    const from = v.basis.from;
    const level = v.level;
    const where = `${label} ${level}: implied by ${from} (${v.note})`;
    const inReport = a.levels.find((x) => x.level === from);
    if (!inReport && level !== 'mixed') {
      const row = levelRow(level);
      const allowed: readonly Level[] = [row.rule, ...row.decideFirst, ...row.useKnown, ...row.witnessFrom, ...row.below];
      if (!allowed.includes(from)) out.push(`${where}: ${from} was not evaluated`);
    }
    const source = inReport ?? full.levels.find((x) => x.level === from);
    if (!source) {
      out.push(`${where}: no verdict of ${from}`);
      continue;
    }
    if (v.consistent === null) out.push(`${where}: an implied verdict is undecided`);
    if (source.consistent !== v.consistent) out.push(`${where}: ${from} is ${String(source.consistent)}, ${level} ${String(v.consistent)}`);
    if (level !== 'mixed') {
      if (v.consistent === true && !weakerOrEqual(level, from)) out.push(`${where}: ${from} is not stronger than ${level}`);
      if (v.consistent === false && !weakerOrEqual(from, level)) out.push(`${where}: ${from} is not weaker than ${level}`);
    }
    if (v.note !== `implied: ${from} ${v.consistent ? 'holds' : 'is violated'}`) out.push(`${where}: the note names another level`);
  }
  return out;
}

test('a lost update decides PSI, SI, SER (and the levels it breaks) violated, however many sessions share it', () => {
  for (let n = 2; n <= 12; n++) {
    const a = analyzeHistText(lostUpdates(n), { levels: LEVELS });
    const codes = new Set(a.list?.anomalies.map((x) => x.code));
    assert.ok(codes.has('lost-update'), `n = ${n}: the lost update is found`);
    for (const l of ['PSI', 'SI', 'SER', 'SSER'] as const) {
      const v = verdict(a, l);
      assert.equal(v.consistent, false, `n = ${n}: ${l} (${v.note})`);
      assert.ok(v.witness, `n = ${n}: ${l} has a witness`);
    }
    for (const l of ['PSI', 'SI'] as const) assert.equal(verdict(a, l).witness?.anomaly, 'lost-update', `n = ${n}: ${l}'s witness is the lost update`);
    for (const l of ['RC', 'RA', 'CC', 'PC'] as const) assert.equal(verdict(a, l).consistent, true, `n = ${n}: ${l}`);
    assert.deepEqual(witnessProblems(a, `n = ${n}`), []);
    // Every anomaly of the catalogue decides the levels its row breaks.
    for (const x of a.list?.anomalies ?? []) for (const l of anomalyRow(x.code).violates) assert.equal(verdict(a, l).consistent, false, `n = ${n}: ${x.code} breaks ${l}`);
  }
});

test('the mixed verdict: a lost update between transactions that must see conflicting writers decides it', () => {
  for (const n of [3, 8]) {
    for (const level of ['PSI', 'SI', 'SER'] as const) {
      const a = analyzeHistText(lostUpdates(n, `level ${level}\n`));
      assert.equal(a.mixed?.consistent, false, `n = ${n}, level ${level}: ${a.mixed?.note}`);
    }
    // At PC a lost update is allowed: the mixed verdict holds.
    assert.equal(analyzeHistText(lostUpdates(n, 'level PC\n')).mixed?.consistent, true, `n = ${n}, level PC`);
  }
  // Tags: the two transactions of the reported lost update (T1, T2) at PSI and SI, the rest at PC.
  const tagged = lostUpdates(6, 'level PC\n').replace('T1:', 'T1 [PSI]:').replace('T2:', 'T2 [SI]:');
  assert.equal(analyzeHistText(tagged).mixed?.consistent, false);
});

test('an "implied" basis names a level whose verdict supports it: examples, random and lost-update list histories', () => {
  const texts: { label: string; text: string }[] = [];
  for (const f of readdirSync(EXAMPLES).filter((x) => x.endsWith('.hist')).sort()) texts.push({ label: f, text: readFileSync(join(EXAMPLES, f), 'utf8') });
  for (let seed = 1; seed <= 300; seed++) {
    const text = smallListHistory(seed);
    texts.push({ label: `seed ${seed}`, text });
    // The same with register keys beside the lists: both analyses must hold for a level to hold.
    if (seed % 3 === 0) texts.push({ label: `seed ${seed} + registers`, text: `${text}session sr\n  R1: w(reg, 1)\n  R2: r(reg, 1) w(reg, 2)\n` });
  }
  for (let n = 2; n <= 9; n++) texts.push({ label: `lost update × ${n}`, text: lostUpdates(n) });
  const problems: string[] = [];
  const rng = new Rng(2024);
  let implied = 0;
  for (const { label, text } of texts) {
    const full = analyzeHistText(text, { levels: LEVELS });
    problems.push(...basisProblems(full, full, label));
    if (full.list) problems.push(...witnessProblems(full, label));
    // One level alone (as `--level L`), and the default set (with the file's own levels).
    const one = LEVELS[rng.below(LEVELS.length)];
    for (const a of [analyzeHistText(text, { levels: [one] }), analyzeHistText(text)]) problems.push(...basisProblems(a, full, `${label} [${a.levels.map((v) => v.level).join(',')}]`));
    implied += full.levels.filter((v) => v.basis.kind === 'implied').length;
    if (problems.length > 10) break;
  }
  assert.deepEqual(problems, []);
  assert.ok(implied > 100, `only ${implied} implied verdicts were checked`);
});

test('the fuzzer\'s histories: PC on two lost-update sessions is decided, not implied by a violated SER; eight sessions exit 1 under --claim PSI', () => {
  for (const levels of [LEVELS, ['PC'] as Level[]]) {
    const pc = verdict(analyzeHistText(lostUpdates(2), { levels }), 'PC');
    assert.equal(pc.consistent, true);
    assert.deepEqual(pc.basis, { kind: 'decided' }, `levels ${levels.join(',')}`);
  }
  const cli = join(ROOT, 'out', 'cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'isocheck-la-decisions-'));
  try {
    const file = join(dir, 'lu8.hist');
    writeFileSync(file, lostUpdates(8));
    const r = spawnSync(process.execPath, [cli, 'check', file, '--claim', 'PSI', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 1, r.stderr);
    const [report] = JSON.parse(r.stdout) as { levels: Record<string, { consistent: boolean | null; witness?: { anomaly: string } }>; claim: { consistent: boolean | null } }[];
    assert.equal(report.claim.consistent, false);
    for (const l of ['PSI', 'SI']) assert.equal(report.levels[l].witness?.anomaly, 'lost-update', l);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an anomaly is an error only where it breaks a level its own transactions run at (mixed runs)', () => {
  const skew = (tag: string, level = 'SER'): Analysis => analyzeHistText(`level ${level}\nsession A\n  T1${tag}: r(x, []) a(y, 1)\nsession B\n  T2${tag}: r(y, []) a(x, 2)\n`);
  const g2 = (a: Analysis) => a.findings.find((f) => f.code === 'G2-item');
  // Both at SI: SI allows write skew, whatever the file's level says of untagged transactions.
  const si = skew(' [SI]');
  assert.equal(si.mixed?.consistent, true);
  assert.equal(g2(si)?.severity, 'information');
  // Untagged, at the file's SER: an error, as the mixed run is violated.
  const ser = skew('');
  assert.equal(ser.mixed?.consistent, false);
  assert.equal(g2(ser)?.severity, 'error');
  // The reader's level decides, not the writer's: T2 [SER] reads a state T1 [RC] half changed.
  const rs = analyzeHistText('level SER\nsession a\n  T1 [RC]: a(x, 1) a(y, 1)\nsession b\n  T2 [SER]: r(x, []) r(y, [1])\n');
  assert.equal(rs.mixed?.consistent, false);
  assert.equal(rs.findings.find((f) => f.code === 'G-single')?.severity, 'error');
  // wr and ww edges are facts at every level: an RC tag on the transaction a wr edge enters does
  // not soften a read skew whose anti-dependency is an untagged (SER) transaction's.
  const wr = analyzeHistText('level SER\nsession a\n  T1: a(y, 1) a(x, 1)\nsession b\n  T2 [RC]: r(y, [1]) a(z, 1)\nsession c\n  T3: a(z, 2) r(x, [])\nsession d\n  T4: r(z, [1, 2]) r(x, [1])\n');
  assert.equal(wr.mixed?.consistent, false);
  assert.equal(wr.findings.find((f) => f.code === 'G-single')?.severity, 'error');
  // No claim at all: information.
  const none = analyzeHistText('session A\n  T1: r(x, []) a(y, 1)\nsession B\n  T2: r(y, []) a(x, 2)\n');
  assert.equal(g2(none)?.severity, 'information');
});

test('on random tagged list histories an error anomaly always comes with a violated mixed verdict', () => {
  const rng = new Rng(4711);
  let errors = 0;
  let softened = 0;
  for (let seed = 1; seed <= 1500; seed++) {
    const pick = (): string => LEVELS[rng.below(LEVELS.length)];
    const text = `level ${pick()}\n` + smallListHistory(seed).replace(/^(\s*)(T\d+)( aborted| unknown)?( @[^:]*)?:/gm,
      (_m, indent: string, id: string, status = '', times = '') => `${indent}${id}${rng.below(3) === 0 ? '' : ` [${pick()}]`}${status}${times}:`);
    const a = analyzeHistText(text);
    for (const f of a.findings) {
      if (parseAnomaly(f.code) === null || f.code === 'aborted-read' || f.code === 'intermediate-read') continue;
      if (!anomalyRow(parseAnomaly(f.code)!).edges && f.code !== 'lost-update' && f.code !== 'internal') continue;
      if (f.severity === 'error') {
        errors++;
        assert.equal(a.mixed?.consistent, false, `seed ${seed}: ${f.code} is an error but the mixed verdict holds\n${text}`);
      } else softened++;
    }
  }
  assert.ok(errors > 50 && softened > 50, `errors ${errors}, information ${softened}`);
});
