// SARIF rules of the list-append codes: the short description says what the anomaly is (docs/ci.md: "the short and
// full description"), not only its name (it was cut at the colon after the code: "List-append anomaly G0.").

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANOMALIES } from '../server/src/engine/listappend/anomaly-table.ts';
import { ruleDocs } from '../server/src/cli/rule-docs.ts';

const ROOT = join(import.meta.dirname, '..');

test('each list-append code explained by list-append.md: its short description carries the start of its meaning from the anomaly table', () => {
  const text = readFileSync(join(ROOT, 'docs', 'anomalies.md'), 'utf8');
  const rules = new Map(ruleDocs({ text, uri: 'file:///docs/anomalies.md' }, 'https://example.org/docs/anomalies.md').map((r) => [r.code, r]));
  for (const a of ANOMALIES) {
    const r = rules.get(a.code);
    assert.ok(r, `a rule for ${a.code}`);
    if (!r.helpUri?.includes('list-append.md')) continue; // explained by its own section of anomalies.md
    const firstWords = a.meaning.split(/[:(]/)[0].trim();
    assert.ok(r.short.includes(firstWords), `${a.code}: short description '${r.short}' says '${firstWords}'`);
    assert.ok(r.full.length >= r.short.length - 1);
  }
});
