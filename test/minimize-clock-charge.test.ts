// The minimiser charges a clock-building check (CC, the strong levels) its transactions × sessions: a write-skew ring of one-transaction sessions stays within the work budget.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { CLOCK_ENTRIES_PER_UNIT } from '../server/src/engine/witness/minimize.ts';
import { minimizeWitness } from '../server/src/engine/witness/violation.ts';

/** T_i reads x_i and x_{i+1} initial and writes x_i, each in its own session: SER fails only with all n (a G2 ring). */
function ring(n: number): string {
  return Array.from({ length: n }, (_, i) => `session s${i}\n  T${i}: r(x${i}, init) r(x${(i + 1) % n}, init) w(x${i}, 1)\n`).join('');
}

test('a SER write-skew ring of 300 one-transaction sessions: the candidates are charged their clock tables, the whole ring is kept (it is minimal)', () => {
  const n = 300;
  const { history: h } = parseHist(ring(n));
  const work = 2_000_000;
  const m = minimizeWitness(h, computeReadsFrom(h), { level: 'SER' }, { work });
  assert.equal(m.h.txnCount - 1, n);
  // Every candidate keeps at least half the ring, so it costs at least (n/2)² / CLOCK_ENTRIES_PER_UNIT units:
  // charged ops + txns only, the minimiser checked more than 1,000 candidates of this file (seconds of clock building).
  const least = Math.ceil(((n / 2) * (n / 2)) / CLOCK_ENTRIES_PER_UNIT);
  assert.ok(m.checks <= Math.ceil(work / least) + 1, `${m.checks} candidates checked`);
  assert.equal(m.complete, false);
});

test('RC and RA build no clocks: their candidates are charged operations and transactions only (same checks as before)', () => {
  // A fractured read repeated in a ring of sessions: RA fails; the minimiser runs to its end.
  const text = 'session a\n  W: w(x, 1) w(y, 1)\nsession b\n  R: r(x, 1) r(y, init)\n' + ring(40);
  const { history: h } = parseHist(text);
  const m = minimizeWitness(h, computeReadsFrom(h), { level: 'RA' }, { work: 2_000_000 });
  assert.equal(m.complete, true);
  assert.deepEqual([...Array(m.h.txnCount - 1).keys()].map((i) => m.h.names.txnName(i + 1)).sort(), ['R', 'W']);
});
