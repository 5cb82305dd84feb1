// The language server over stdio, as an editor drives it: diagnostics, edits, hover, navigation, symbols, lenses, completion.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CodeLensRequest, CompletionRequest, DefinitionRequest, DidSaveTextDocumentNotification, DocumentSymbolRequest,
  FoldingRangeRequest, HoverRequest, ReferencesRequest, DidCloseTextDocumentNotification,
  type CompletionList, type Diagnostic, type DocumentSymbol, type MarkupContent, type Position, type Range,
} from 'vscode-languageserver-protocol/node';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { DEFAULT_GEN_OPTIONS, generateHistory, optionsForEvents } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { fileReport } from '../server/src/engine/report.ts';
import { AnalysisRequest, ReportRequest, WitnessExportRequest } from '../server/src/protocol/messages.ts';
import { CLI, ensureBuilt, fileUri, LspClient, suiteClient, ROOT } from './helpers/lsp-client.ts';

const FRACTURED = [
  'level RA',
  'session s1',
  '  T1: w(x, 1) w(y, 1)',
  'session s2',
  '  T2: r(y, init) r(x, 1)',
  '',
].join('\n');

const MANY_PROBLEMS = [
  'session s1',
  '  T1: w(x, 1)',
  '  T2: w(x, 1)',
  'session s2',
  '  T3: r(x, 1)',
  '  T4: r(x, 42) q(y, 1)',
  '  T5: r(x) <- T9',
  '',
].join('\n');

/** "[l:c..l:c]" */
function at(r: Range): string {
  return `[${r.start.line}:${r.start.character}..${r.end.line}:${r.end.character}]`;
}

const SEVERITY = ['', 'error', 'warning', 'information', 'hint'];

/** A diagnostic as one line, plus one indented line per related location: what the tests compare. */
function show(d: Diagnostic): string {
  const related = (d.relatedInformation ?? []).map((r) => `\n  ${at(r.location.range)} ${r.message.split(':')[0]}`).join('');
  return `${at(d.range)} ${SEVERITY[d.severity ?? 0]} ${String(d.code)}${related}`;
}

/** The position of the `nth` occurrence of `needle` in text, plus `delta` characters. */
function pos(text: string, needle: string, delta = 1, nth = 0): Position {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  assert.ok(i >= 0, `no ${needle}`);
  const before = text.slice(0, i + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

function hoverText(h: { contents: unknown } | null): string {
  assert.ok(h, 'no hover');
  return (h.contents as MarkupContent).value;
}

before(() => ensureBuilt());

describe('language server over stdio', () => {
  const c = suiteClient({ settings: {} });
  const uri = fileUri('test-fractured.hist');
  const problems = fileUri('test-problems.hist');

  test('diagnostics on open: code, range, severity, link, related information', async () => {
    await c.open(uri, FRACTURED);
    const ds = await c.diagnosticsOfVersion(uri, 1);
    assert.deepEqual(ds.map(show), [
      '[4:6..4:16] error RA\n  [4:6..4:16] co\n  [2:2..2:5] so',
      '[4:6..4:16] information CC\n  [4:6..4:16] co\n  [2:2..2:5] so',
    ]);
    const ra = ds[0];
    assert.equal(ra.source, 'isocheck');
    assert.equal(ra.codeDescription?.href, `${fileUri('docs/anomalies.md')}#ra`);
    assert.match(ra.message, /^Fractured read \(RA\): .* — T1 must commit before the initial state/);
    for (const r of ra.relatedInformation ?? []) assert.equal(r.location.uri, uri);
  });

  test('read-consistency, syntax and name problems, each at its own range', async () => {
    await c.open(problems, MANY_PROBLEMS);
    const ds = await c.diagnosticsOfVersion(problems, 1);
    assert.deepEqual(ds.map(show), [
      '[1:6..1:13] warning duplicate-write\n  [2:6..2:13] the other write',
      '[2:6..2:13] warning duplicate-write\n  [1:6..1:13] the other write',
      '[4:6..4:13] error ambiguous-read',
      '[5:6..5:14] warning thin-air', // a warning: the file has a syntax error, its writer may be on a line that did not parse
      '[5:15..5:16] error syntax',
      '[6:14..6:16] error undefined-transaction',
    ]);
    assert.equal(ds[3].codeDescription?.href, `${fileUri('docs/anomalies.md')}#thin-air`);
  });

  test('the status notification summarises the verdicts', async () => {
    // Sent once the full pass is in (the strong levels), after the quick pass's diagnostics.
    const s = await c.statusFor((x) => x.uri === uri && x.state === 'done');
    assert.equal(s.version, 1);
    assert.equal(s.strongest, 'RC');
    assert.equal(s.mixed, 'violated');
    assert.match(s.text, /^RC ✓ RA ✗ CC ✗/);
    assert.equal(s.errors, 1);
    assert.ok(c.statuses.some((x) => x.uri === uri && x.state === 'checking'));
  });

  test('hover on a read: its source and the edges it contributes to each violated level, most relevant first', async () => {
    const h = await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'r(y, init)') });
    const text = hoverText(h);
    assert.match(text, /^`r\(y, init\)` in `T2` reads the initial value of `y`/);
    assert.match(text, /- \*\*RA, mixed\*\* ✗ Fractured read: .*\n {2}- step 1 of 2: T1 →co ⊥: T1 must commit before the initial state: T2 read the initial value of y and read x from T1/);
    assert.match(text, /- \*\*CC, PC, PSI, SI, SER\*\* ✗ Fractured read/);
    assert.ok(text.indexOf('**RA, mixed**') < text.indexOf('**CC, PC'), 'the weakest violated level first');
    assert.doesNotMatch(text, /none/);
    assert.match(text, /\n\nholds: RC$/);
    assert.deepEqual(h?.range, { start: { line: 4, character: 6 }, end: { line: 4, character: 16 } });

    const other = hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'r(x, 1)') }));
    assert.match(other, /`r\(x, 1\)` in `T2` reads from `T1`: `w\(x, 1\)` at line 3/);
  });

  test('hover on a transaction header and on a write', async () => {
    const t2 = hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'T2:') }));
    assert.match(t2, /^\*\*T2\*\* — 1st of 1 transaction in session `s2`/);
    assert.match(t2, /status: committed/);
    assert.match(t2, /2 operations/);
    assert.match(t2, /\*\*Commit order per level\*\*\n\n- \*\*RC\*\* ✓ holds/);
    assert.match(t2, /- \*\*RA, CC, PC, PSI, SI, SER\*\* ✗ no commit order: Fractured read: a transaction sees some of another transaction's writes but not all; a read of T2 forces step 1 of 2 of the witness cycle\n/);
    const w = hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'w(x, 1)') }));
    assert.equal(w, '`w(x, 1)` in `T1` — read by 1 read: `T2`');
    const nothing = await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 2 } });
    assert.equal(nothing, null);
  });

  test('hover on a header of a mixed history: the level and what it had to see, or why nothing works', async () => {
    const okUri = 'file:///mixed-ok.hist';
    const ok = 'session s1\n  T1 [SER]: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2 [SI]: r(x, init) r(y, init) w(y, 2)\n';
    await c.open(okUri, ok);
    await c.diagnosticsOfCheck(okUri, 1); // the commit order comes with the full pass
    const t1 = hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri: okUri }, position: pos(ok, 'T1 [') }));
    assert.match(t1, /level: `SER` \(its own tag\)/);
    assert.match(t1, /Under the commit order found\*\* \(1st of 2\), at `SER` it sees: only the initial state/);
    const t2 = hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri: okUri }, position: pos(ok, 'T2 [') }));
    assert.match(t2, /\(2nd of 2\), at `SI` it sees: only the initial state/);
    const badUri = 'file:///mixed-bad.hist';
    const bad = 'level SER\nsession s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2: r(x, init) r(y, init) w(y, 2)\n';
    await c.open(badUri, bad);
    await c.diagnosticsOfCheck(badUri, 1);
    const b1 = hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri: badUri }, position: pos(bad, 'T1:') }));
    assert.match(b1, /level: `SER` \(the file's `level`, or SER\)/);
    assert.match(b1, /No commit order\*\* satisfies every transaction's level/);
  });

  test('go to definition: from a read to the write it read', async () => {
    const d = await c.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'r(x, 1)', 3) });
    assert.deepEqual(d, { uri, range: { start: { line: 2, character: 6 }, end: { line: 2, character: 13 } } });
    const init = await c.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'r(y, init)') });
    assert.equal(init, null);
  });

  test('references: from a write to every read of it', async () => {
    const refs = await c.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'w(x, 1)'), context: { includeDeclaration: true } });
    assert.deepEqual(refs?.map((l) => at(l.range)), ['[2:6..2:13]', '[4:17..4:24]']);
    const without = await c.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'w(x, 1)'), context: { includeDeclaration: false } });
    assert.deepEqual(without?.map((l) => at(l.range)), ['[4:17..4:24]']);
    const ofTxn = await c.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: pos(FRACTURED, 'T1:'), context: { includeDeclaration: false } });
    assert.deepEqual(ofTxn?.map((l) => at(l.range)), ['[4:17..4:24]']);
  });

  test('document symbols: sessions containing their transactions', async () => {
    const symbols = (await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    const outline = symbols.map((s) => `${s.name} ${at(s.range)} ${at(s.selectionRange)}: ${(s.children ?? []).map((t) => `${t.name} ${at(t.range)} ${at(t.selectionRange)}`).join(', ')}`);
    assert.deepEqual(outline, [
      's1 [1:0..2:21] [1:0..1:10]: T1 [2:2..2:21] [2:2..2:5]',
      's2 [3:0..4:24] [3:0..3:10]: T2 [4:2..4:24] [4:2..4:5]',
    ]);
  });

  test('folding ranges by session', async () => {
    const folds = await c.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
    assert.deepEqual(folds?.map((f) => [f.startLine, f.endLine]), [[1, 2], [3, 4]]);
  });

  test('code lens: Show graph first, then one per verdict, each opening the graph at its level', async () => {
    const lenses = await c.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.ok(lenses);
    assert.deepEqual(lenses.map((l) => l.command?.title), ['Show graph', 'RC ✓', 'RA ✗', 'CC ✗', 'PC ✗', 'PSI ✗', 'SI ✗', 'SER ✗', 'mixed ✗']);
    for (const l of lenses) assert.deepEqual(l.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    const graph = lenses[0].command;
    assert.equal(graph?.command, 'isocheck.showGraph');
    assert.deepEqual(graph?.arguments, [uri]);
    for (const l of lenses.slice(1)) {
      const level = l.command?.title.split(' ')[0];
      assert.equal(l.command?.command, 'isocheck.showGraph');
      assert.deepEqual(l.command?.arguments, [uri, level]);
    }
  });

  test('completion: transactions after <-, keys in an operation, levels after level', async () => {
    const labels = async (position: Position): Promise<string[]> => {
      const r = (await c.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })) as CompletionList;
      return r.items.map((i) => i.label);
    };
    // Edit the document so that each context exists, then ask at the end of each line.
    const text = `${FRACTURED}level \nsession s3\n  T3: r(x) <- \n  T4: w(`;
    const v = await c.change(uri, text);
    await c.diagnosticsOfVersion(uri, v);
    const levels = await labels({ line: 5, character: 6 });
    assert.deepEqual(levels.slice(0, 7), ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER']);
    // (The `<-` at the line's end does not take the next line's `T4:` for its source: T4 is a transaction.)
    assert.deepEqual(await labels({ line: 7, character: 14 }), ['T1', 'T2', 'T3', 'T4']);
    assert.deepEqual(await labels({ line: 8, character: 8 }), ['x', 'y']);
    const anywhere = await labels({ line: 6, character: 0 });
    for (const w of ['session', 'history', 'expect', 'aborted', 'r', 'w', 'RA', 'x', 'T2']) assert.ok(anywhere.includes(w), `missing ${w}`);
  });

  test('didChange updates the diagnostics; incremental edits work', async () => {
    // RA holds once T2 reads y from T1 too.
    const fixed = FRACTURED.replace('r(y, init)', 'r(y, 1)');
    const v = await c.change(uri, fixed);
    assert.deepEqual(await c.diagnosticsOfVersion(uri, v), []);
    // Put the fractured read back with an incremental edit of just the value.
    const p = pos(fixed, 'r(y, 1)', 5);
    const v2 = await c.edit(uri, { start: p, end: { line: p.line, character: p.character + 1 } }, 'init');
    assert.deepEqual((await c.diagnosticsOfVersion(uri, v2)).map((d) => `${at(d.range)} ${String(d.code)}`), ['[4:6..4:16] RA', '[4:6..4:16] CC']);
  });

  test('isocheck/analysis returns the analysis as plain JSON', async () => {
    const a = await c.connection.sendRequest(AnalysisRequest.type, { uri });
    assert.ok(a);
    assert.deepEqual(JSON.parse(JSON.stringify(a)), a, 'plain JSON');
    assert.deepEqual(a.levels.map((l) => `${l.level} ${l.state}`), ['RC ok', 'RA violated', 'CC violated', 'PC violated', 'PSI violated', 'SI violated', 'SER violated']);
    assert.equal(a.strongest, 'RC');
    assert.equal(a.mixed?.state, 'violated');
    assert.deepEqual(a.sessions.map((s) => `${s.name}: ${s.transactions.map((t) => a.transactions[t].name).join(' ')}`), ['s1: T1', 's2: T2']);
    assert.deepEqual(a.transactions.map((t) => `${t.name}@${t.session}.${t.position}`), ['⊥@-1.-1', 'T1@0.0', 'T2@1.0']);
    assert.deepEqual(a.wr.map((e) => `${e.from}→${e.to} ${e.key} ${at(e.read)}`), ['0→2 y [4:6..4:16]', '1→2 x [4:17..4:24]']);
    const ra = a.forced.find((f) => f.level === 'RA');
    assert.deepEqual(ra?.edges.map((e) => `${e.from}→${e.to} ${e.key}`), ['1→0 y']);
    assert.match(ra?.edges[0].because ?? '', /^T1 must commit before the initial state/);
    const witness = a.levels[1].witness;
    assert.deepEqual(witness?.cycle.map((e) => `${e.kind} ${e.from}→${e.to} ${at(e.range)}`), ['co 1→0 [4:6..4:16]', 'so 0→1 [2:2..2:5]']);
    assert.equal(await c.connection.sendRequest(AnalysisRequest.type, { uri: fileUri('not-open.hist') }), null);
  });

  test('every example: the same diagnostics as the CLI report', async () => {
    const dir = join(ROOT, 'examples');
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.hist'))) {
      const text = readFileSync(join(dir, name), 'utf8');
      const u = fileUri(`examples/${name}`);
      await c.open(u, text);
      const got = await c.diagnosticsOfCheck(u, 1);
      const want = fileReport(name, analyzeHistText(text)).diagnostics;
      assert.deepEqual(got.map((d) => ({ code: d.code, severity: SEVERITY[d.severity ?? 0], message: d.message, range: d.range, related: d.relatedInformation?.map((r) => ({ range: r.location.range, message: r.message })) })),
        want.map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range, related: d.relatedInformation })), name);
      await c.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: u } });
    }
  });

  test('isocheck/report: every example\'s report is the CLI\'s (check --json) for that file, byte for byte', async () => {
    const dir = join(ROOT, 'examples');
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.hist'))) {
      const text = readFileSync(join(dir, name), 'utf8');
      const u = fileUri(`examples/${name}`);
      await c.open(u, text);
      await c.statusFor((s) => s.uri === u && s.state === 'done');
      const got = await c.connection.sendRequest(ReportRequest.type, { uri: u, file: `examples/${name}` });
      assert.equal(JSON.stringify(got), JSON.stringify(fileReport(`examples/${name}`, analyzeHistText(text))), name);
      await c.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: u } });
    }
    assert.equal(await c.connection.sendRequest(ReportRequest.type, { uri: fileUri('not-open.hist'), file: 'x' }), null);
  });

  test('a report asked for right after an edit describes the edited text, not the one before', async () => {
    // It answered from the analysis before the edit while the edit's check waited for its debounce timer (an audit's client: 10 of 10).
    const u = fileUri('report-after-edit.hist');
    const good = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
    const thinAir = good.replace('r(x, 1)', 'r(x, 7)');
    await c.open(u, good);
    await c.statusFor((s) => s.uri === u && s.state === 'done');
    for (const [i, text] of [thinAir, good, thinAir].entries()) {
      await c.change(u, text);
      const got = await c.connection.sendRequest(ReportRequest.type, { uri: u, file: 'r.hist' });
      assert.equal(JSON.stringify(got), JSON.stringify(fileReport('r.hist', analyzeHistText(text))), `edit ${i + 1}`);
    }
    await c.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: u } });
  });

  test('closing a document clears its diagnostics', async () => {
    const cleared = c.diagnosticsFor(problems, (p) => p.diagnostics.length === 0);
    await c.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: problems } });
    await cleared;
    assert.equal(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri: problems }, position: { line: 4, character: 7 } }), null);
  });

  test('shutdown and exit end the process with status 0', async () => {
    assert.equal(await c.stop(), 0);
  });
});

describe('settings', () => {
  test('checkOn save: edits wait for a save; levels narrow the verdicts; config changes are pulled again', async () => {
    const c = await LspClient.start({ settings: { checkOn: 'save', levels: ['RC', 'read-atomic'] } });
    try {
      const uri = fileUri('test-save.hist');
      await c.open(uri, FRACTURED);
      assert.deepEqual((await c.diagnosticsOfVersion(uri, 1)).map((d) => String(d.code)), ['RA']);
      const lenses = await c.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      assert.deepEqual(lenses?.map((l) => l.command?.title), ['Show graph', 'RC ✓', 'RA ✗', 'mixed ✗']);

      const v = await c.change(uri, FRACTURED.replace('r(y, init)', 'r(y, 1)'));
      // Absence of a check in another process: no event to wait for, so a pause (mock timers cannot reach the server).
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(c.diagnostics.get(uri)?.version, 1, 'no check before the save');
      await c.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
      assert.deepEqual(await c.diagnosticsOfVersion(uri, v), []);

      // Back to checking on change, with every level: the configuration is asked for again.
      const asked = c.configurationRequests;
      c.settings = {};
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
      const v2 = await c.change(uri, FRACTURED);
      assert.deepEqual((await c.diagnosticsOfVersion(uri, v2)).map((d) => String(d.code)), ['RA', 'CC']);
      assert.ok(c.configurationRequests > asked);
    } finally {
      await c.stop();
    }
  });

  test('settings changed and changed back before the other settings\' check ends: the document ends with its own settings\' results', async () => {
    // The check for the passing settings used to publish last (SER's errors, its status and lenses) while
    // the document's settings were RC alone again: the cached result matched, and the check returned before cancelling it.
    const B = { levels: ['RC'] };
    const A = { levels: ['RC', 'RA', 'CC', 'SER'] };
    const c = await LspClient.start({ settings: null });
    try {
      const uri = fileUri('test-revert.hist');
      const text = toHistString(generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 8, transactions: 552, keys: 500, store: 'snapshot', seed: 5 }));
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { isocheck: B } });
      await c.open(uri, text);
      const before = await c.diagnosticsOfVersion(uri, 1);
      const statusB = (await c.statusFor((x) => x.uri === uri && x.state === 'done')).text;
      assert.equal(statusB, 'RC ✓');
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { isocheck: A } });
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { isocheck: B } });
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal(c.statuses.filter((x) => x.uri === uri).at(-1)!.text, statusB);
      assert.deepEqual(c.diagnostics.get(uri)?.diagnostics.map((d) => d.message), before.map((d) => d.message));
      const lenses = await c.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      assert.ok(!lenses?.some((l) => /SER/.test(l.command?.title ?? '')), JSON.stringify(lenses?.map((l) => l.command?.title)));
    } finally {
      await c.stop();
    }
  });

  test('without workspace/configuration, settings pushed with didChangeConfiguration apply', async () => {
    const c = await LspClient.start({ settings: null });
    try {
      const uri = fileUri('test-push.hist');
      await c.connection.sendNotification('workspace/didChangeConfiguration', { settings: { isocheck: { levels: ['CC'] } } });
      await c.open(uri, FRACTURED);
      await c.diagnosticsOfVersion(uri, 1);
      const lenses = await c.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      assert.deepEqual(lenses?.map((l) => l.command?.title), ['Show graph', 'CC ✗', 'mixed ✗']);
      assert.equal(c.configurationRequests, 0);
    } finally {
      await c.stop();
    }
  });
});

describe('answers for the text the client shows', () => {
  // Checking on save: an edit leaves the previous analysis in place, as a long re-analysis does.
  const c = suiteClient({ settings: { checkOn: 'save' } });
  const STALE = 'session s2\n  T2: r(x, 1)\nsession s1\n  T1: w(x, 1)\n';

  test('before the re-analysis, definitions and hovers from the previous one point where the edits moved the text', async () => {
    const uri = fileUri('test-stale.hist');
    await c.open(uri, STALE);
    await c.diagnosticsOfVersion(uri, 1);
    const read = { line: 1, character: 7 };
    const def = async (): Promise<unknown> => c.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: read });
    assert.deepEqual(await def(), { uri, range: { start: { line: 3, character: 6 }, end: { line: 3, character: 13 } } });
    // Two lines inserted below the read: the write moves to line 5 (0-based), "line 6" in the hover.
    await c.edit(uri, { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, '# a\n# b\n');
    assert.equal(c.diagnostics.get(uri)?.version, 1, 'still the analysis of version 1');
    assert.deepEqual(await def(), { uri, range: { start: { line: 5, character: 6 }, end: { line: 5, character: 13 } } });
    const h = await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: read });
    assert.match(hoverText(h), /reads from `T1`: `w\(x, 1\)` at line 6\b/);
    assert.deepEqual(h?.range, { start: { line: 1, character: 6 }, end: { line: 1, character: 13 } });
    // An edit of the write itself: its old location means nothing now, so no definition and no line.
    await c.edit(uri, { start: { line: 5, character: 11 }, end: { line: 5, character: 12 } }, '7');
    assert.equal(await def(), null);
    const edited = hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: read }));
    assert.match(edited, /reads from `T1`: `w\(x, 1\)`/);
    assert.doesNotMatch(edited, /at line/);
    // Past the first change nothing is served from the old analysis.
    assert.equal(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 5, character: 7 } }), null);
  });

  test('positions outside the document, and the space after a token, get no answer', async () => {
    const uri = fileUri('test-outside.hist');
    await c.open(uri, STALE);
    await c.diagnosticsOfVersion(uri, 1);
    const hover = async (line: number, character: number): Promise<unknown> => c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
    assert.equal(await hover(99, 7), null);
    assert.equal(await c.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 99, character: 7 } }), null);
    assert.equal(await hover(1, 999), null);
    assert.equal(await hover(1, 13), null, 'the end of r(x, 1) is not in it');
    assert.ok(await hover(1, 12), 'its last character is');
    assert.equal(await hover(1, 5), null, 'the space after `T2:`');
    assert.deepEqual(await c.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position: { line: 99, character: 7 }, context: { includeDeclaration: true } }), []);
  });

  test('unknown transactions are shown as written: hover, outline, graph, position in session order', async () => {
    const uri = fileUri('test-unknown.hist');
    const text = 'session s1\n  T1 unknown: w(x, 1)\n  T2: w(y, 2)\n  T5 unknown: w(z, 1)\nsession s2\n  T3: r(x, 1)\n';
    await c.open(uri, text);
    await c.diagnosticsOfVersion(uri, 1);
    const hover = async (needle: string, delta = 1): Promise<string> => hoverText(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos(text, needle, delta) }));
    assert.match(await hover('T1 unknown'), /- status: unknown \(read by `T3`: counts as committed\)/);
    const t5 = await hover('T5 unknown');
    assert.match(t5, /^\*\*T5\*\* — 3rd of 3 transactions in session `s1` \(after `T2`\)/);
    assert.match(t5, /- status: unknown \(never read: counts as not run\)/);
    assert.doesNotMatch(t5, /Commit order per level/, 'no verdict speaks of it');
    assert.match(await hover('T2:'), /2nd of 3 transactions in session `s1` \(after `T1`, before `T5`\)/);
    assert.match(await hover('w(z, 1)'), /^`w\(z, 1\)` in `T5` — no read returns this write\n\n`T5` is `unknown` .* counts as never having run/);
    const symbols = (await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(symbols.map((s) => `${s.name} ${at(s.range)}: ${(s.children ?? []).map((t) => `${t.name}(${t.detail ?? ''})`).join(' ')}`),
      ['s1 [0:0..3:21]: T1(unknown) T2() T5(unknown, not run)', 's2 [4:0..5:13]: T3()']);
    const a = await c.connection.sendRequest(AnalysisRequest.type, { uri });
    assert.ok(a);
    assert.deepEqual(a.sessions.map((s) => `${s.name}: ${s.transactions.map((t) => a.transactions[t].name).join(' ')}`), ['s1: T1 T2 T5', 's2: T3']);
    assert.deepEqual(a.transactions.map((t) => `${t.name}@${t.session}.${t.position} ${t.range ? at(t.range) : '-'}`),
      ['⊥@-1.-1 -', 'T1@0.0 [1:2..1:13]', 'T2@0.1 [2:2..2:5]', 'T3@1.0 [5:2..5:5]', 'T5@0.2 [3:2..3:13]']);
    assert.deepEqual(a.wr.map((e) => `${a.transactions[e.from].name}→${a.transactions[e.to].name} ${e.key}`), ['T1→T3 x']);
  });

  test('plume documents: transactions and sessions at their first lines, hover at 0:0 for what is written there', async () => {
    const uri = fileUri('test-first-lines.plume');
    const text = '# café 😀\nr(1,0,0,0)\nw(1,5,0,0)\n\nr(1,5,1,1)\nw(2,3,1,1)\nr(2,3,0,2)\n';
    await c.open(uri, text, 'plume');
    await c.diagnosticsOfVersion(uri, 1);
    assert.equal(await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } }), null, 'a comment');
    const first = await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 0 } });
    assert.match(hoverText(first), /^`r\(1, init\)` in `T0`/);
    const symbols = (await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(symbols.map((s) => `${s.name} ${at(s.range)} ${at(s.selectionRange)}: ${(s.children ?? []).map((t) => `${t.name} ${at(t.range)} ${at(t.selectionRange)}`).join(', ')}`), [
      's0 [1:0..6:10] [1:0..1:10]: T0 [1:0..2:10] [1:0..1:10], T2 [6:0..6:10] [6:0..6:10]',
      's1 [4:0..5:10] [4:0..4:10]: T1 [4:0..5:10] [4:0..4:10]',
    ]);
    const folds = await c.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
    assert.deepEqual(folds?.map((f) => [f.startLine, f.endLine]), [[1, 6], [4, 5]]);
    const a = await c.connection.sendRequest(AnalysisRequest.type, { uri });
    assert.deepEqual(a?.transactions.slice(1).map((t) => `${t.name} ${t.range ? at(t.range) : '-'} ${t.extent ? at(t.extent) : '-'}`),
      ['T0 [1:0..1:10] [1:0..2:10]', 'T1 [4:0..4:10] [4:0..5:10]', 'T2 [6:0..6:10] [6:0..6:10]']);
  });
});

describe('formats and requests the docs promise', () => {
  const c = suiteClient({ settings: {} });

  test('a Jepsen .edn document is analysed, whatever its language id; a deps.edn is left alone', async () => {
    const uri = fileUri('test-jepsen.edn');
    const edn = readFileSync(join(ROOT, 'test', 'fixtures', 'elle', 'la-internal.edn'), 'utf8');
    await c.open(uri, edn, 'clojure');
    const codes = (await c.diagnosticsOfVersion(uri, 1)).map((d) => String(d.code));
    assert.ok(codes.length > 0, 'the internal anomaly is found');
    await c.statusFor((s) => s.uri === uri && s.state === 'done');
    const deps = fileUri('deps.edn');
    await c.open(deps, '{:deps {org.clojure/clojure {:mvn/version "1.11.1"}}}\n', 'clojure');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!c.statuses.some((s) => s.uri === deps && s.state === 'done'), 'not a history');
  });

  test('isocheck/exportWitness takes level aliases, and names a bad level or format', async () => {
    const uri = fileUri('test-export.hist');
    await c.open(uri, FRACTURED);
    await c.diagnosticsOfVersion(uri, 1);
    const exp = async (params: Record<string, unknown>): Promise<{ ok: boolean; message?: string; extension?: string }> =>
      c.connection.sendRequest(WitnessExportRequest.type, { uri, ...params } as never);
    for (const level of ['RA', 'ra', 'read-atomic']) assert.deepEqual({ ...(await exp({ level, format: 'dot' })), text: undefined }, { ok: true, text: undefined, extension: 'dot' }, level);
    assert.equal((await exp({ level: 'RA' })).extension, 'json', 'json when no format is given, as the CLI');
    assert.deepEqual(await exp({ level: 'XYZ', format: 'json' }), { ok: false, message: 'unknown level "XYZ" (RC, RA, CC, PC, PSI, SI, SER, SSER, an alias of one, or mixed)' });
    assert.deepEqual(await exp({ format: 'json' }), { ok: false, message: 'unknown level null (RC, RA, CC, PC, PSI, SI, SER, SSER, an alias of one, or mixed)' });
    assert.deepEqual(await exp({ level: 'RA', format: 'pdf' }), { ok: false, message: 'unknown format "pdf" (json, dot, svg, hist)' });
    assert.ok(!c.logs.some((l) => /TypeError|Cannot read properties/.test(l)), c.logs.join('\n'));
  });
});

describe('two passes for large documents', () => {
  test('RC, RA and CC are published first, then the strong levels replace them', async () => {
    const c = await LspClient.start({ settings: {} });
    try {
      const uri = 'file:///big-write-skew.hist';
      // A write skew (SER violated, CC holds) among enough other transactions to pass 4 KB.
      const padding = Array.from({ length: 120 }, (_, i) => `session p${i}\n  P${i}: w(k${i}, ${i + 10}) r(k${i}, ${i + 10})\n`).join('');
      const text = `level SER\nsession s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2: r(x, init) r(y, init) w(y, 2)\n${padding}`;
      assert.ok(text.length > 4096);
      await c.open(uri, text);
      const full = await c.diagnosticsFor(uri, (p) => p.diagnostics.some((d) => d.code === 'SER'));
      assert.ok(full.diagnostics.filter((d) => d.code === 'SER').every((d) => d.severity === 1), 'the claimed SER is an error');
      const passes = c.publications.filter((p) => p.uri === uri && p.version === 1);
      assert.equal(passes.length, 2, 'a quick pass, then the full one');
      // The status follows the diagnostics.
      await c.statusFor((x) => x.uri === uri && x.state === 'done');
      const done = c.statuses.filter((x) => x.uri === uri && x.state === 'done');
      assert.equal(done.length, 1, 'the status is done only after the full pass');
      assert.equal(done[0].mixed, 'violated');
    } finally {
      await c.stop();
    }
  });
});

describe('isocheck/report on a large document', () => {
  test('asked at once, it reports the full analysis, never the quick pass\'s pending strong levels', async () => {
    const c = await LspClient.start({ settings: {} });
    try {
      const uri = 'file:///big-report.hist';
      const padding = Array.from({ length: 120 }, (_, i) => `session p${i}\n  P${i}: w(k${i}, ${i + 10}) r(k${i}, ${i + 10})\n`).join('');
      const text = `level SER\nsession s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2: r(x, init) r(y, init) w(y, 2)\n${padding}`;
      await c.open(uri, text);
      const got = await c.connection.sendRequest(ReportRequest.type, { uri, file: 'big-report.hist' });
      assert.equal(got?.levels.SER?.consistent, false);
      assert.equal(got?.levels.SI?.consistent, true);
      assert.equal(JSON.stringify(got), JSON.stringify(fileReport('big-report.hist', analyzeHistText(text))));
    } finally {
      await c.stop();
    }
  });
});

describe('cancellation', () => {
  test('edits in quick succession: the stale analyses of a big document are cancelled, only the newest is published', async () => {
    const c = await LspClient.start({ settings: { levels: ['RC', 'RA', 'CC'] }, initializationOptions: { bigDocumentChars: 20_000 } });
    try {
      const uri = fileUri('test-cancel.hist');
      const text = toHistString(generateHistory(optionsForEvents(20_000, { store: 'causal', seed: 3 })));
      await c.open(uri, text);
      await c.change(uri, `${text}# 2\n`);
      const last = await c.change(uri, `${text}# 3\n`);
      await c.diagnosticsOfVersion(uri, last, 30_000);
      // A late publication of a cancelled version would come after the newest: a pause to let one show (another process: no mock timers).
      await new Promise((r) => setTimeout(r, 300));
      const published = c.publications.filter((p) => p.uri === uri).map((p) => p.version);
      assert.ok(!published.includes(2), `version 2 was published: ${published.join(', ')}`);
      assert.equal(published.at(-1), last);
      assert.deepEqual(c.logs.filter((l) => /failed/.test(l)), []);
    } finally {
      await c.stop();
    }
  });
});

describe('failures', () => {
  test('an analysis that times out is reported on the document, and the server carries on', async () => {
    const c = await LspClient.start({ settings: {}, initializationOptions: { analysisTimeoutMs: 1, bigDocumentChars: 0 } });
    try {
      const uri = fileUri('test-timeout.hist');
      await c.open(uri, toHistString(generateHistory(optionsForEvents(20_000, { store: 'causal', seed: 5 }))));
      const ds = await c.diagnosticsOfVersion(uri, 1);
      assert.equal(ds.length, 1);
      assert.equal(ds[0].severity, 2);
      assert.match(ds[0].message, /^IsoCheck could not analyse this document: the analysis took longer than 1 ms/);
      assert.equal((await c.statusFor((s) => s.uri === uri && s.state !== 'checking')).state, 'failed');
      assert.ok(c.logs.some((l) => /timed out/.test(l)));
      assert.ok(Array.isArray(await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })));
    } finally {
      await c.stop();
    }
  });
});

describe('isocheck lsp --stdio', () => {
  test('the CLI starts the same server, with or without --stdio', async () => {
    for (const args of [[CLI, 'lsp', '--stdio'], [CLI, 'lsp']]) {
      const c = await LspClient.start({ args, settings: {} });
      const uri = fileUri('test-cli.hist');
      await c.open(uri, FRACTURED);
      assert.deepEqual((await c.diagnosticsOfVersion(uri, 1)).map((d) => `${at(d.range)} ${String(d.code)}`), ['[4:6..4:16] RA', '[4:6..4:16] CC']);
      assert.equal(await c.stop(), 0);
    }
  });
});
