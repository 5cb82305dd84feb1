// Worker lanes: a small document's strong-level searches run apart, so another small document's check never waits behind them.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { DEFAULT_GEN_OPTIONS, generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { DEFAULT_OPTIONS } from '../server/src/lsp/context.ts';
import { TWO_PASS_CHARS } from '../server/src/lsp/passes.ts';
import { buildSnapshot } from '../server/src/lsp/snapshot.ts';
import { ensureBuilt, fileUri, ROOT, suiteClient } from './helpers/lsp-client.ts';

before(() => ensureBuilt());

/** What a diagnostic says and where (its link left out). */
const shown = (ds: readonly Diagnostic[]): unknown[] => ds.map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range, related: d.relatedInformation }));

describe('small documents checked in two passes', () => {
  const c = suiteClient({ settings: {}, initializationOptions: { debounceMs: 0 } }, { noFailures: true });

  test('while a 600-transaction history runs its strong-level searches, a second small document is checked at once', async () => {
    // What `isocheck gen --sessions 64 --txns 600 --store snapshot` writes: its full pass took 3.9 s here, and the
    // other document's diagnostics came only after it (the one small lane ran both, first come, first served).
    const hard = toHistString(generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 64, transactions: 600, store: 'snapshot', seed: 1 }));
    assert.ok(hard.length >= TWO_PASS_CHARS && hard.length < DEFAULT_OPTIONS.bigDocumentChars, 'a small document, checked in two passes');
    const a = fileUri('lanes-hard.hist');
    const b = fileUri('lanes-small.hist');
    await c.open(a, hard);
    await c.diagnosticsOfVersion(a, 1, 60_000); // the quick pass: the full one starts now
    const order: string[] = [];
    const fullA = c.statusFor((s) => s.uri === a && s.state !== 'checking', 60_000).then(() => order.push('the first document\'s strong levels'));
    await c.open(b, 'session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n');
    const smallB = c.diagnosticsOfVersion(b, 1, 60_000).then((ds) => {
      order.push('the second document');
      return ds;
    });
    assert.ok((await smallB).some((d) => d.code === 'RA'), 'its fractured read');
    await fullA;
    assert.deepEqual(order, ['the second document', 'the first document\'s strong levels']);
  });

  test('the diagnostics once both passes are in: those of one analysis with the strong levels', async () => {
    const text = toHistString(generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 6, transactions: 90, keys: 12, store: 'snapshot', seed: 7 }));
    assert.ok(text.length >= TWO_PASS_CHARS);
    const uri = fileUri('lanes-same.hist');
    await c.open(uri, text);
    await c.statusFor((s) => s.uri === uri && s.state !== 'checking', 60_000);
    const docsBase = pathToFileURL(join(ROOT, 'docs', 'anomalies.md')).href;
    const { snapshot } = buildSnapshot(text, { uri, levels: undefined, maxWitnesses: 1, docsBase, maxDiagnostics: DEFAULT_OPTIONS.maxDiagnostics });
    assert.ok(snapshot.levels.some((v) => v.level === 'SER' && v.consistent === false), 'a strong level violated: its diagnostic comes from the second pass');
    assert.deepEqual(shown(c.diagnostics.get(uri)?.diagnostics ?? []), shown(snapshot.diagnostics));
  });
});
