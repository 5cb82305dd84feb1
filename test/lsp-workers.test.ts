// The server's readers and workers: plume, dbcop and .txt documents, the graph JSON and witness export off the message loop, cancellable, capped.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CancellationTokenSource, DocumentSymbolRequest, HoverRequest, LSPErrorCodes, ResponseError,
} from 'vscode-languageserver-protocol/node';
import { analyzeSource } from '../server/src/engine/analyze.ts';
import { generateHistory, optionsForEvents } from '../server/src/engine/gen/generate.ts';
import { toHistString, toPlumeString } from '../server/src/engine/gen/history-writers.ts';
import { readHistory } from '../server/src/engine/readers/registry.ts';
import { fileReport } from '../server/src/engine/report.ts';
import { SEVERITY } from '../server/src/lsp/convert.ts';
import { AnalysisRequest, WitnessExportRequest } from '../server/src/protocol/messages.ts';
import { ensureBuilt, fileUri, LspClient, suiteClient, ROOT } from './helpers/lsp-client.ts';

const PLUME = 'w(1,1,0,1)\nw(2,1,0,1)\nr(2,0,1,2)\nr(1,1,1,2)\nbad\n';
const DBCOP = readFileSync(join(ROOT, 'test', 'fixtures', 'dbcop', 'write-skew.dbcop'), 'utf8');

before(() => ensureBuilt());

describe('documents in other formats', () => {
  const c = suiteClient({ settings: {}, initializationOptions: { debounceMs: 0 } }, { noFailures: true });

  const asCli = (name: string, text: string, format?: string): unknown[] => fileReport(name, analyzeSource(readHistory({ text }, { format, fileName: name }))).diagnostics
    .map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range }));
  const got = (ds: Awaited<ReturnType<LspClient['diagnosticsOfVersion']>>): unknown[] =>
    ds.map((d) => ({ code: d.code, severity: Object.entries(SEVERITY).find(([, v]) => v === d.severity)?.[0], message: d.message, range: d.range }));

  test('a plume document (language plume): the same diagnostics as the CLI', async () => {
    const uri = fileUri('w.plume');
    await c.open(uri, PLUME, 'plume');
    const ds = await c.diagnosticsOfVersion(uri, 1);
    assert.ok(ds.some((d) => d.code === 'RA'), 'a fractured read');
    assert.ok(ds.some((d) => d.code === 'syntax' && d.range.start.line === 4));
    assert.deepEqual(got(ds), asCli('w.plume', PLUME));
    const hover = await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 2 } });
    assert.match(JSON.stringify(hover), /T2/, 'hovers work on plume documents');
  });

  test('a plain-text .txt file that looks like plume is read as plume; one of prose is left alone', async () => {
    const plume = fileUri('w.txt');
    await c.open(plume, PLUME, 'plaintext');
    assert.deepEqual(got(await c.diagnosticsOfVersion(plume, 1)), asCli('w.txt', PLUME));
    const prose = fileUri('notes.txt');
    const before = c.statuses.length;
    await c.open(prose, 'Remember: session order matters.\n', 'plaintext');
    assert.deepEqual(await c.diagnosticsOfVersion(prose, 1).catch(() => c.diagnostics.get(prose)?.diagnostics), []);
    assert.equal(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri: prose }, position: { line: 0, character: 3 } }), null);
    assert.ok(c.statuses.slice(before).every((s) => s.uri !== prose), 'no status for a file that is no history');
    const v = await c.change(prose, PLUME);
    assert.deepEqual(got(await c.diagnosticsOfVersion(prose, v)), asCli('notes.txt', PLUME), 'once it looks like plume, it is read as plume');
  });

  test('a dbcop document: dbcop verdicts; the same text as .hist: one error naming --format dbcop', async () => {
    const uri = fileUri('skew.dbcop');
    await c.open(uri, DBCOP, 'dbcop');
    const ds = await c.diagnosticsOfVersion(uri, 1);
    assert.deepEqual(ds.filter((d) => d.severity === 1), []);
    const a = await c.connection.sendRequest(AnalysisRequest.type, { uri });
    assert.equal(a?.levels.find((v) => v.level === 'CC')?.state, 'ok');
    assert.equal(a?.levels.find((v) => v.level === 'SER')?.state, 'violated');
    const asHist = fileUri('skew.hist');
    await c.open(asHist, DBCOP, 'hist');
    const errors = (await c.diagnosticsOfVersion(asHist, 1)).filter((d) => d.severity === 1);
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /--format dbcop/);
  });

  test("a .txt in AWDIT's test format is read as one: AWDIT's verdicts in the editor", async () => {
    const uri = fileUri('fractured.txt');
    await c.open(uri, readFileSync(join(ROOT, 'test', 'fixtures', 'awdit-test', 'fractured-read.txt'), 'utf8'), 'plaintext');
    assert.deepEqual((await c.diagnosticsOfVersion(uri, 1)).filter((d) => d.severity === 1), []);
    const a = await c.connection.sendRequest(AnalysisRequest.type, { uri });
    assert.deepEqual(['RC', 'RA'].map((l) => a?.levels.find((v) => v.level === l)?.state), ['ok', 'violated']);
  });

  test('the plumeInit setting reads an explicit 0 as an ordinary value', async () => {
    const text = 'w(1,0,0,1)\nr(1,0,1,2)\n';
    const zero = fileUri('zero.plume');
    await c.open(zero, text, 'plume');
    assert.ok((await c.diagnosticsOfVersion(zero, 1)).some((d) => d.code === 'ambiguous-read'));
    const c2 = await LspClient.start({ settings: { plumeInit: 'none' }, initializationOptions: { debounceMs: 0 } });
    try {
      await c2.open(zero, text, 'plume');
      assert.deepEqual((await c2.diagnosticsOfVersion(zero, 1)).filter((d) => d.severity === 1 || d.code === 'ambiguous-read'), []);
    } finally {
      await c2.stop();
    }
  });
});

describe('graph JSON and witness export run in the workers', () => {
  const c = suiteClient({ settings: {}, initializationOptions: { debounceMs: 0, maxGraphTransactions: 4 } }, { noFailures: true });

  test('a history larger than the cap: every transaction listed, only the witnesses\' neighbourhood in full, flagged', async () => {
    const text = toHistString(generateHistory({ ...optionsForEvents(300, { store: 'read-committed', seed: 3 }), sessions: 3 }));
    const uri = fileUri('capped.hist');
    await c.open(uri, text);
    await c.diagnosticsOfVersion(uri, 1);
    const a = await c.connection.sendRequest(AnalysisRequest.type, { uri });
    assert.ok(a?.truncated, 'flagged');
    const total = a.transactions.length - 1;
    assert.equal(a.truncated.total, total);
    assert.ok(a.truncated.shown <= 4 && a.truncated.shown >= 1, JSON.stringify(a.truncated));
    assert.match(a.truncated.reason, /too large to draw whole .*neighbourhood/);
    const full = new Set(a.transactions.filter((t) => t.id > 0 && t.ops.length > 0).map((t) => t.id));
    assert.equal(full.size, a.truncated.shown);
    for (const e of a.wr) assert.ok((e.from === 0 || full.has(e.from)) && full.has(e.to), 'wr edges only inside the neighbourhood');
    const witness = a.levels.find((v) => v.witness)?.witness;
    if (witness) for (const e of witness.cycle) assert.ok(e.from === 0 || e.to === 0 || full.has(e.from) || full.has(e.to));
  });

  test('the graph\'s edge limit: a count, else the default (a limit of "x" left the edge lists uncut)', async () => {
    // 20,001 reads of T0's write: 20,001 wr edges, one more than the default limit.
    const text = `session s1\n  T0: w(x, 1)\nsession s2\n  T1:${' r(x, 1)'.repeat(20_001)}\n`;
    const uri = fileUri('graph-limit.hist');
    await c.open(uri, text);
    await c.diagnosticsOfVersion(uri, 1);
    const wr = async (limit: unknown): Promise<number> => {
      const a = await c.connection.sendRequest(AnalysisRequest.type, { uri, limit } as never);
      assert.equal(a?.wrTotal, 20_001);
      return a.wr.length;
    };
    assert.equal(await wr(undefined), 20_000);
    for (const limit of ['x', null, -5, Number.NaN, {}]) assert.equal(await wr(limit), 20_000, JSON.stringify(limit));
    assert.equal(await wr(7.9), 7);
  });

  test('hovers and symbols are answered while a witness export of a 4 MB document runs', async () => {
    const big = toPlumeString(generateHistory(optionsForEvents(200_000, { store: 'read-committed', seed: 11 })));
    assert.ok(big.length > 2_000_000);
    const bigUri = fileUri('big-export.plume');
    const small = fileUri('small-beside-export.hist');
    await c.open(small, 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n');
    await c.diagnosticsOfVersion(small, 1);
    await c.open(bigUri, big, 'plume');
    const order: string[] = [];
    const exported = c.connection.sendRequest(WitnessExportRequest.type, { uri: bigUri, level: 'CC', format: 'json' }).then((r) => {
      order.push('export');
      return r;
    });
    const hover = await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri: small }, position: { line: 3, character: 7 } });
    order.push('hover');
    const symbols = await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: small } });
    order.push('symbols');
    assert.ok(hover !== null, 'the hover has an answer');
    assert.equal(Array.isArray(symbols) ? symbols.length : 0, 2, 'two sessions');
    assert.deepEqual(order, ['hover', 'symbols'], 'both answered before the export finished');
    const answer = await exported;
    assert.deepEqual(order, ['hover', 'symbols', 'export']);
    assert.ok(answer.ok || /holds|not decided/.test(answer.message), JSON.stringify(answer).slice(0, 200));
  });

  test('a cancelled export is answered RequestCancelled at once, and the next export still works', async () => {
    const big = toPlumeString(generateHistory(optionsForEvents(200_000, { store: 'read-committed', seed: 12 })));
    const uri = fileUri('cancelled-export.plume');
    await c.open(uri, big, 'plume');
    const source = new CancellationTokenSource();
    const pending = c.connection.sendRequest(WitnessExportRequest.type, { uri, level: 'RA', format: 'json' }, source.token);
    // Requests are dispatched in order: once a later hover is answered, the export has started
    // (a cancellation that arrives before its request is dispatched is dropped by vscode-jsonrpc).
    await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
    source.cancel();
    await assert.rejects(pending, (e: unknown) => e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled);
    const small = fileUri('after-cancel.hist');
    await c.open(small, 'session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n');
    const r = await c.connection.sendRequest(WitnessExportRequest.type, { uri: small, level: 'RA', format: 'json' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.match(r.text, /"level": "RA"/);
  });
});
