// The playground's highlighter builds its regexes from the TextMate grammar: each must compile without ES2025 regex modifiers, which Node 20 and Safari lack.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import grammar from '../syntaxes/hist.tmLanguage.json' with { type: 'json' };
import { sticky } from '../playground/src/hist-mode.ts';

test('every grammar pattern the playground uses compiles here (no (?i:…) groups left) and matches either case where the grammar says so', () => {
  const repo = grammar.repository as unknown as Record<string, { match?: string; begin?: string; patterns?: { match?: string }[] }>;
  const sources = [repo.level.match!, repo.session.match!, repo.transaction.match!, repo.operation.begin!, repo.values.patterns![0].match!];
  for (const s of sources) assert.doesNotThrow(() => sticky(s), s);
  const header = sticky(repo.transaction.match!);
  for (const line of ['T1 committed:', 'T1 ABORTED:', 'T2 [SI] unknown @ 10..20:', 'T3 Indeterminate:']) {
    header.lastIndex = 0;
    assert.ok(header.test(line), line);
  }
});
