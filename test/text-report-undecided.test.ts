// The text report's details name why a level is undecided (a `?` in the table alone says nothing), once per level, the claimed one as its warning.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FileReport } from '../server/src/engine/report.ts';
import { applyClaim, type ClaimedReport } from '../server/src/cli/claim.ts';
import { renderDetails } from '../server/src/cli/text-report.ts';

function report(): FileReport {
  const budget = 'the search ran out of time (2000 ms) within its budget of 4000000 states';
  return {
    file: 'h.hist', title: null, mixed: null, diagnostics: [],
    levels: {
      RC: { consistent: true }, CC: { consistent: true },
      PC: { consistent: null, note: `PC: ${budget}` },
      SI: { consistent: null, note: `SI: ${budget}` },
      SER: { consistent: null },
    },
  };
}

test('each undecided level with a reason is a line of the details, after the witnesses', () => {
  assert.deepEqual(renderDetails(report()).split('\n'), [
    '  PC undecided: PC: the search ran out of time (2000 ms) within its budget of 4000000 states',
    '  SI undecided: SI: the search ran out of time (2000 ms) within its budget of 4000000 states',
  ]);
});

test('the claimed level is undecided once, as its not-checked warning', () => {
  const r: ClaimedReport = report();
  applyClaim(r, 'SI');
  const lines = renderDetails(r).split('\n');
  assert.equal(lines.filter((l) => l.includes('SI')).length, 1, lines.join('\n'));
  assert.match(lines.find((l) => l.includes('SI')) ?? '', /warning \[not-checked\] the claimed level SI is undecided: SI: the search ran out of time/);
  assert.ok(lines.includes('  PC undecided: PC: the search ran out of time (2000 ms) within its budget of 4000000 states'));
});

test('a reason from the file is made safe for a terminal', () => {
  const r = report();
  r.levels.PC.note = 'PC: \u001b[31mred';
  assert.doesNotMatch(renderDetails(r), /\u001b/);
});
