// CC on a session longer than 2^15 transactions: the vector clocks switch from 16-bit to 32-bit entries, verdicts do not change.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzePlumeBytes } from '../server/src/engine/analyze.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { readPlume } from '../server/src/engine/readers/plume-reader.ts';
import { CheckContext } from '../server/src/engine/weak/level-check.ts';

/**
 * Session 0 writes key 1 in `writers` transactions (values 1, 2, …); session 1 then reads the value
 * of writer `first` and, in its next transaction, that of writer `second`.
 */
function plume(writers: number, first: number, second: number): Uint8Array {
  const lines: string[] = [];
  for (let i = 1; i <= writers; i++) lines.push(`w(1,${i},0,${i})`);
  lines.push(`r(1,${first},1,${writers + 1})`, `r(1,${second},1,${writers + 2})`);
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

function cc(bytes: Uint8Array): boolean | null {
  return analyzePlumeBytes(bytes, { levels: ['CC'] }).levels[0].consistent;
}

test('the clocks are 16-bit up to 2^15 transactions per session, 32-bit beyond', () => {
  const clockOf = (writers: number): Int16Array | Int32Array => {
    const h = readPlume(plume(writers, 1, 2)).history;
    return new CheckContext(h, computeReadsFrom(h)).vectorClocks()!.clock;
  };
  assert.ok(clockOf(0x7fff) instanceof Int16Array);
  assert.ok(clockOf(0x8000) instanceof Int32Array);
});

test('CC on a 40,000-transaction session: reading forward holds, reading back violates', () => {
  const writers = 40_000;
  // The so-indices involved (39,999 and 35,000) do not fit 16 bits.
  assert.equal(cc(plume(writers, 35_000, 40_000)), true);
  assert.equal(cc(plume(writers, 40_000, 35_000)), false);
  // The same pattern below the threshold, on 16-bit clocks.
  assert.equal(cc(plume(1_000, 500, 1_000)), true);
  assert.equal(cc(plume(1_000, 1_000, 500)), false);
});
