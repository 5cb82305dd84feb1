// Anomaly names: the examples' witnesses are classified by shape, and the name leads the diagnostic message.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { PATTERNS } from '../server/src/engine/witness/patterns.ts';

const ROOT = join(import.meta.dirname, '..');

/** The findings' message heads (the part before " — "), by code. */
function heads(file: string): Map<string, string[]> {
  const r = analyzeHistText(readFileSync(join(ROOT, 'examples', file), 'utf8'));
  const out = new Map<string, string[]>();
  for (const f of r.findings) out.set(f.code, [...(out.get(f.code) ?? []), f.message.split(' — ')[0] ?? '']);
  return out;
}

const CASES: [file: string, code: string, head: string][] = [
  ['write-skew.hist', 'SER', 'Write skew (SER): T1 and T2 each read what the other overwrites'],
  ['fractured-read.hist', 'RA', 'Fractured read (RA): a transaction sees some of another transaction\'s writes but not all'],
  ['long-fork.hist', 'PC', 'Long fork (PC): two readers see two independent writes in opposite orders'],
  ['lost-update.hist', 'SER', 'Lost update (SER): T1 and T2 read the same version of x and both overwrite it'],
  ['lost-update.hist', 'PSI', 'Lost update (PSI): T1 and T2 read the same version of x and both overwrite it'],
  ['causality-violation.hist', 'CC', 'Causality violation (CC): a transaction misses a write that happens before what it sees'],
];

for (const [file, code, head] of CASES) {
  test(`${file}: ${code} is named "${head.split(' (')[0] ?? ''}"`, () => {
    const got = heads(file).get(code) ?? [];
    assert.ok(got.length > 0, `no ${code} finding`);
    for (const g of got) assert.equal(g, head);
  });
}

test('every pattern has its section in docs/anomalies.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'anomalies.md'), 'utf8');
  for (const p of PATTERNS) assert.match(doc, new RegExp(`^## ${p.anchor}$`, 'm'), p.name);
});

test('each named section\'s litmus history in docs/anomalies.md is reported under that name', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'anomalies.md'), 'utf8');
  for (const p of PATTERNS) {
    const body = doc.split(`\n## ${p.anchor}\n`)[1]?.split('\n## ')[0] ?? '';
    const block = /```\n([\s\S]*?)```/.exec(body)?.[1];
    if (block === undefined) continue; // read-skew and g2 point at examples instead
    const messages = analyzeHistText(block).findings.map((f) => f.message);
    assert.ok(messages.some((m) => m.startsWith(`${p.name} (`)), `${p.name}: ${messages.join('\n')}`);
  }
});
