// List-append anomalies: the examples against the oracle, and invariants of every reported cycle on random histories.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { analyzeListAppend, edgeSentence, reportedCodes } from '../server/src/engine/listappend/list-analysis.ts';
import { ANOMALIES, anomalyRow, LIST_LEVELS, type ListLevel } from '../server/src/engine/listappend/anomaly-table.ts';
import { freePairs } from '../server/src/engine/listappend/list-levels.ts';
import { mixedListLevels } from '../server/src/engine/listappend/list-verdicts.ts';
import { oracleHolds } from './helpers/listappend-oracle.ts';
import { smallListHistory } from './helpers/listappend-random.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const listExamples = readdirSync(EXAMPLES).filter((f) => f.startsWith('la-') && f.endsWith('.hist')).sort();

describe('list-append examples', () => {
  test('every anomaly of the table but the realtime variants has an example that expects it found, and one realtime variant too', () => {
    const expected = new Set<string>();
    for (const f of listExamples) for (const e of parseHist(readFileSync(join(EXAMPLES, f), 'utf8')).directives.anomalyExpects) if (e.found) expected.add(e.anomaly);
    for (const row of ANOMALIES) if (!row.code.endsWith('-realtime')) assert.ok(expected.has(row.code), row.code);
    assert.ok([...expected].some((c) => c.endsWith('-realtime')));
  });

  for (const f of listExamples) {
    test(`${f}: every level and the mixed verdict equal the oracle's, expectations hold`, () => {
      const text = readFileSync(join(EXAMPLES, f), 'utf8');
      const p = parseHist(text);
      const h = p.history;
      const list = analyzeListAppend(h);
      for (const [i, level] of LIST_LEVELS.entries()) {
        assert.equal(list.verdicts.get(level), oracleHolds(h, new Int8Array(h.txnCount).fill(i)), level);
      }
      if (p.directives.level) {
        const lvl = mixedListLevels(h, p.directives);
        assert.equal(list.mixed(lvl), oracleHolds(h, lvl), 'mixed');
      }
      assert.deepEqual(analyzeHistText(text).findings.filter((x) => x.severity === 'error'), []);
    });
  }
});

describe('a failed anomaly expectation', () => {
  test('is an error at its directive, naming the anomaly', () => {
    const text = 'expect G0 found\nexpect G-single absent\nsession s1\n  T1: a(x, 1) a(y, 1)\nsession s2\n  T2: r(y, [1]) r(x, [])\n';
    const errs = analyzeHistText(text).findings.filter((x) => x.severity === 'error');
    assert.deepEqual(errs.map((x) => [x.code, text.slice(x.span.start, x.span.end)]), [
      ['expectation-failed', 'expect G0 found'], ['expectation-failed', 'expect G-single absent'],
    ]);
    assert.match(errs[0].message, /expected G0 to be found, but it is absent/);
    assert.match(errs[1].message, /T1 → T2 \[wr\] T2 observed T1's append of 1: T2 read y = \[1\]/);
  });

  test('G1a, G1b and future-read of register reads count as reported, as those of lists do', () => {
    const reads = 'session s1\n  T1 aborted: w(x, 1)\n  T2: w(y, 1) w(y, 2) r(z, 5) w(z, 5)\nsession s2\n  T3: r(x, 1) r(y, 1)\n';
    const found = 'expect G1a found\nexpect intermediate-read found\nexpect future-read found\n';
    assert.deepEqual(analyzeHistText(found + reads).findings.filter((x) => x.code === 'expectation-failed'), []);
    const absent = 'expect aborted-read absent\nexpect G1b absent\nexpect future-read absent\n';
    const text = absent + reads;
    const errs = analyzeHistText(text).findings.filter((x) => x.code === 'expectation-failed');
    assert.deepEqual(errs.map((x) => text.slice(x.span.start, x.span.end)), absent.trim().split('\n'));
    assert.match(errs[0].message, /expected G1a absent, but it is found: T3 read x = 1 from T1, which aborted/);
    assert.deepEqual(errs[0].related.map((r) => text.slice(r.span.start, r.span.end)), ['r(x, 1)']);
    // A history whose reads are clean finds none of them.
    const clean = analyzeHistText(`${found}session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n`);
    assert.equal(clean.findings.filter((x) => x.code === 'expectation-failed').length, 3);
  });
});

const RUNS = Number(process.env.LIST_DIFF_RUNS ?? 2000);

test(`every reported cycle on ${RUNS} random histories chains, has its class's shape, names its own edges and breaks exactly the table's levels`, () => {
  let cycles = 0;
  for (let seed = 1; seed <= RUNS; seed++) {
    const text = smallListHistory(seed);
    const h = parseHist(text).history;
    const names = new Set<string>();
    for (let t = 1; t < h.txnCount; t++) names.add(h.names.txnName(t));
    const a = analyzeListAppend(h);
    const ctx = `seed ${seed}\n${text}`;
    for (const x of a.anomalies) {
      const row = anomalyRow(x.code);
      for (const l of row.violates) assert.equal(a.verdicts.get(l), false, `${x.code} breaks ${l}: ${ctx}`);
      // The two anomalies without a cycle: a lost update names its two transactions, internal its reads.
      if (x.code === 'lost-update' || x.code === 'internal') {
        assert.equal(x.cycle.length, 0, ctx);
        continue;
      }
      cycles++;
      const c = x.cycle;
      assert.ok(c.length >= 2, ctx);
      for (let i = 0; i < c.length; i++) {
        assert.equal(c[i].to, c[(i + 1) % c.length].from, `chains: ${ctx}`);
        assert.ok(names.has(c[i].from) && names.has(c[i].to), ctx);
        const s = edgeSentence(c[i]);
        assert.ok(s.startsWith(`${c[i].from} → ${c[i].to} [${c[i].kind}] `), s);
        assert.ok(c[i].because.includes(c[i].kind === 'so' ? 'session' : c[i].kind === 'rt' ? 'ended' : c[i].to) || c[i].because.includes(c[i].from), s);
        assert.ok((row.edges ?? []).includes(c[i].kind), `${x.code} allows ${c[i].kind}: ${ctx}`);
      }
      const rw = c.map((e, i) => (e.kind === 'rw' ? i : -1)).filter((i) => i >= 0);
      const adjacent = rw.some((i) => c[(i + 1) % c.length].kind === 'rw');
      const base = x.code.replace('-realtime', '');
      if (x.code.endsWith('-realtime')) assert.ok(c.some((e) => e.kind === 'rt'), ctx);
      if (base === 'G0') assert.ok(c.every((e) => e.kind === 'ww' || e.kind === 'so' || e.kind === 'rt'));
      if (base === 'G1c') assert.ok(rw.length === 0 && c.some((e) => e.kind === 'wr'), ctx);
      if (base === 'G-single') assert.equal(rw.length, 1, ctx);
      if (base === 'G-nonadjacent') assert.ok(rw.length >= 2 && !adjacent, ctx);
      if (base === 'G2-item') assert.ok(rw.length >= 2, ctx);
    }
    // Exactly: SER (and SSER) fail iff a finding or a cycle says so; PSI and SI too when no order between unread appends is free.
    const codes = reportedCodes(a);
    const inconsistent = a.inference.inconsistent;
    const listed = (l: string): boolean => inconsistent || [...codes].some((c) => (anomalyRow(c).violates as readonly string[]).includes(l));
    const exact: ListLevel[] = ['SER', 'SSER', ...(freePairs(a.inference)?.length === 0 ? (['PSI', 'SI'] as const) : [])];
    for (const l of exact) {
      if (l === 'SSER' && h.txnTimeStart === undefined) continue;
      const v = a.verdicts.get(l);
      if (v !== null) assert.equal(v === false, listed(l), `${l}: ${ctx}`);
    }
  }
  assert.ok(cycles > RUNS / 20, `only ${cycles} cycles`);
});

test('docs/list-append.md shows the anomaly table exactly as the engine declares it', () => {
  const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'list-append.md'), 'utf8');
  for (const r of ANOMALIES) {
    const row = `| \`${r.code}\` | ${r.meaning} | ${r.violates.join(', ')} | ${r.edges ? r.edges.join(', ') : '–'} |`;
    assert.ok(doc.includes(row), row);
  }
});

describe('internal: a read against its own transaction\'s earlier appends and reads (the oracle decides the levels)', () => {
  const cases: { name: string; body: string; internal: boolean; rc: boolean }[] = [
    { name: 'a re-read that gained another transaction\'s append', body: 'session s1\n  T0: a(x, 1)\n  T2: a(x, 2)\nsession s2\n  T1: r(x, [1]) r(x, [1, 2])\n', internal: true, rc: true },
    { name: 'a re-read that lost an element', body: 'session s1\n  T0: a(x, 1)\n  T2: a(x, 2)\nsession s2\n  T1: r(x, [1, 2]) r(x, [1])\n', internal: true, rc: false },
    { name: 'a re-read after the empty list', body: 'session s1\n  T0: a(x, 1)\nsession s2\n  T1: r(x, []) r(x, [1])\n', internal: true, rc: true },
    { name: 'a re-read with exactly the own appends since', body: 'session s1\n  T0: a(x, 1)\nsession s2\n  T1: r(x, [1]) a(x, 5) a(x, 6) r(x, [1, 5, 6]) r(x, [1, 5, 6])\n', internal: false, rc: true },
    { name: 'own appends since, but another element before them', body: 'session s1\n  T0: a(x, 1)\n  T2: a(x, 2)\nsession s2\n  T1: r(x, [1]) a(x, 5) r(x, [1, 2, 5])\n', internal: true, rc: true },
    { name: 'a re-read in an aborted transaction constrains nothing', body: 'session s1\n  T0: a(x, 1)\n  T2: a(x, 2)\nsession s2\n  T1 aborted: r(x, [1]) r(x, [1, 2])\n', internal: false, rc: true },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const h = parseHist(c.body).history;
      const list = analyzeListAppend(h);
      assert.equal(reportedCodes(list).has('internal'), c.internal, 'internal reported');
      for (const [i, level] of LIST_LEVELS.entries()) assert.equal(list.verdicts.get(level), oracleHolds(h, new Int8Array(h.txnCount).fill(i)), level);
      assert.equal(list.verdicts.get('RC'), c.rc, 'RC');
      if (c.internal) {
        assert.equal(list.verdicts.get('RA'), false, 'RA');
        const a = list.anomalies.find((x) => x.code === 'internal');
        if (a) assert.match(a.message, /^internal: T1 read x = \[.*\], but it read x = \[.*\] earlier/);
      }
    });
  }

  test('a read missing its own append is internal even when its list also holds garbage (Elle reports both)', () => {
    const h = parseHist('session s1\n  T1: a(x, 2) r(x, [7])\n').history;
    const codes = analyzeListAppend(h).inference.findings.map((f) => f.code).sort();
    assert.deepEqual(codes, ['garbage-read', 'internal']);
  });
});
