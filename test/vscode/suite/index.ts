// Extension tests run inside VS Code's extension host (code-server): activation, diagnostics, hover, definition, commands.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { IsoCheckApi } from '../../../client/src/extension.ts';
import type { GraphPanelInfo } from '../../../client/src/graph/graph-panel.ts';
import { EXTENSION_ID, FRACTURED, G_SINGLE_EDN, workspaceFile } from './fixtures.ts';
import { eventually, runAll, test } from './harness.ts';

let api: IsoCheckApi;
const uri = (): vscode.Uri => workspaceFile(FRACTURED.file);

function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

function raDiagnostic(file = uri()): vscode.Diagnostic | undefined {
  return vscode.languages.getDiagnostics(file).find((d) => codeOf(d) === 'RA');
}

function rangeOf(r: vscode.Range): number[] {
  return [r.start.line, r.start.character, r.end.line, r.end.character];
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
}

test('the extension activates when a .hist file opens', async () => {
  const doc = await vscode.workspace.openTextDocument(uri());
  await vscode.window.showTextDocument(doc);
  assert.equal(doc.languageId, 'hist');
  const ext = vscode.extensions.getExtension<IsoCheckApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  api = await eventually(() => (ext.isActive ? ext.exports : undefined), 'activation');
  await eventually(() => (api.client()?.isRunning() ? true : undefined), 'the language server to run');
});

test('diagnostics: the expected RA violation is information on the read r(y, init)', async () => {
  const d = await eventually(() => raDiagnostic(), 'an RA diagnostic');
  // The file's `expect RA violated` holds, so the violation is information (history-dsl.md).
  assert.equal(d.severity, vscode.DiagnosticSeverity.Information);
  assert.deepEqual(rangeOf(d.range), rangeOf(FRACTURED.readYInit));
  assert.match(d.message, /T1/);
  assert.ok((d.relatedInformation ?? []).length >= 1, 'the witness cycle is related information');
});

test('diagnostics: without expectations the claimed level’s violation is an error there', async () => {
  const claimed = workspaceFile(FRACTURED.claimedFile);
  await vscode.window.showTextDocument(claimed, { preview: false });
  const d = await eventually(() => raDiagnostic(claimed), 'an RA diagnostic in the claimed copy');
  assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
  assert.deepEqual(rangeOf(d.range), rangeOf(FRACTURED.readYInit));
  await vscode.window.showTextDocument(uri());
});

test('the status bar summary says RC holds and RA does not', async () => {
  const s = await eventually(() => { const v = api.statusBar.get(uri()); return v?.state === 'done' ? v : undefined; }, 'a finished status');
  const state = Object.fromEntries(s.levels.map((l) => [l.level, l.state]));
  assert.equal(state.RC, 'ok');
  assert.equal(state.RA, 'violated');
  assert.equal(s.strongest, 'RC');
});

test('hover on a read names the transaction it read from', async () => {
  const hovers = await eventually(async () => {
    const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri(), FRACTURED.readX1);
    return h.length > 0 ? h : undefined;
  }, 'a hover');
  assert.match(hoverText(hovers), /T1/);
});

test('go to definition leads from r(x, 1) to w(x, 1) in T1', async () => {
  const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', uri(), FRACTURED.readX1);
  assert.equal(defs.length, 1);
  const d = defs[0];
  const range = 'targetRange' in d ? (d.targetSelectionRange ?? d.targetRange) : d.range;
  const target = 'targetUri' in d ? d.targetUri : d.uri;
  assert.equal(target.toString(), uri().toString());
  assert.equal(range.start.line, FRACTURED.writeX1.start.line);
  assert.ok(range.contains(FRACTURED.writeX1.start), `definition ${range.start.line}:${range.start.character} covers w(x, 1)`);
});

test('an edit that removes the anomaly clears the RA error (checkOn: change)', async () => {
  const editor = await vscode.window.showTextDocument(uri());
  const fixed = await editor.edit((e) => e.replace(FRACTURED.readYInit, 'r(y, 1)'));
  assert.ok(fixed);
  await eventually(() => (raDiagnostic() ? undefined : true), 'the RA diagnostic to go');
  assert.ok(editor.document.isDirty, 'checked without saving');
  // An explicit edit rather than 'undo', which would act on whatever has focus in the headless page.
  const restored = await editor.edit((e) => e.replace(new vscode.Range(FRACTURED.readYInit.start, FRACTURED.readYInit.start.translate(0, 'r(y, 1)'.length)), 'r(y, init)'));
  assert.ok(restored);
  await eventually(() => raDiagnostic(), 'the RA diagnostic to come back');
});

test('with isocheck.checkOn = save an edit is checked only when saved', async () => {
  const config = vscode.workspace.getConfiguration('isocheck');
  // The change event, listened for before the update (which may resolve after it fired): the language
  // client's own listener, registered at activation, runs first and sends didChangeConfiguration.
  const changed = new Promise<void>((resolve) => {
    const listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('isocheck.checkOn')) return;
      listener.dispose();
      resolve();
    });
  });
  await config.update('checkOn', 'save', vscode.ConfigurationTarget.Global);
  await changed;
  // Then the notification's way to the server (the client sends it asynchronously), whose arrival
  // nothing observable marks: a margin, no longer the only thing between the update and the edit.
  await new Promise((r) => setTimeout(r, 1000));
  const editor = await vscode.window.showTextDocument(uri());
  const fixedRange = new vscode.Range(FRACTURED.readYInit.start, FRACTURED.readYInit.start.translate(0, 'r(y, 1)'.length));
  try {
    assert.ok(await editor.edit((e) => e.replace(FRACTURED.readYInit, 'r(y, 1)')));
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(raDiagnostic(), 'unsaved edits are not checked');
    assert.ok(await editor.document.save());
    await eventually(() => (raDiagnostic() ? undefined : true), 'the RA diagnostic to go after saving');
  } finally {
    await editor.edit((e) => e.replace(fixedRange, 'r(y, init)'));
    await editor.document.save();
    await config.update('checkOn', undefined, vscode.ConfigurationTarget.Global);
  }
  await eventually(() => raDiagnostic(), 'the RA diagnostic to come back');
});

test('isocheck.levels narrows the homogeneous levels evaluated', async () => {
  const config = vscode.workspace.getConfiguration('isocheck');
  await config.update('levels', ['RC', 'RA'], vscode.ConfigurationTarget.Global);
  try {
    await eventually(() => { const s = api.statusBar.get(uri()); return s?.state === 'done' && s.levels.map((l) => l.level).join() === 'RC,RA' ? s : undefined; }, 'a status with RC and RA only');
  } finally {
    await config.update('levels', undefined, vscode.ConfigurationTarget.Global);
  }
  await eventually(() => (api.statusBar.get(uri())?.levels.length === 7 ? true : undefined), 'all seven levels again');
});

test('isocheck.exportWitness writes the CLI report shape with the RA cycle', async () => {
  const target = vscode.Uri.file(`${process.env.ISOCHECK_TEST_TMP ?? '/tmp'}/fractured.witness.json`);
  const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('isocheck.exportWitness', uri(), target);
  assert.equal(written?.fsPath, target.fsPath);
  const [report] = JSON.parse(readFileSync(target.fsPath, 'utf8')) as { levels: Record<string, { consistent: boolean | null; witness?: { cycle: { from: string; to: string; kind: string }[] } }> }[];
  assert.equal(report.levels.RC.consistent, true);
  assert.equal(report.levels.RA.consistent, false);
  const cycle = report.levels.RA.witness?.cycle.map((e) => `${e.from}-${e.kind}->${e.to}`);
  assert.deepEqual(cycle, ['T1-co->init', 'init-so->T1']);
});

test('isocheck.showGraph opens the graph beside the editor; it receives the RA witness and follows edits', async () => {
  const editor = await vscode.window.showTextDocument(uri());
  const opened = await vscode.commands.executeCommand<GraphPanelInfo | undefined>('isocheck.showGraph', uri().toString());
  assert.equal(opened?.uri, uri().toString());
  const panel = api.graphs.get(uri());
  assert.ok(panel, 'a panel for the file');
  const shown = await eventually(() => { const i = panel.info(); return i.ready && i.witnesses.RA ? i : undefined; }, 'the webview to be ready and get the analysis', 40_000);
  assert.deepEqual(shown.witnesses.RA, ['T1-co->init', 'init-so->T1']);
  assert.equal(panel.panel.viewColumn, vscode.ViewColumn.Two, 'beside the editor');
  // Live: fixing the read removes the RA witness from the panel; restoring brings it back.
  const fixedRange = new vscode.Range(FRACTURED.readYInit.start, FRACTURED.readYInit.start.translate(0, 'r(y, 1)'.length));
  assert.ok(await editor.edit((e) => e.replace(FRACTURED.readYInit, 'r(y, 1)')));
  await eventually(() => (panel.info().witnesses.RA === undefined && (panel.info().version ?? 0) > (shown.version ?? 0) ? true : undefined), 'the panel to follow the edit');
  assert.ok(await editor.edit((e) => e.replace(fixedRange, 'r(y, init)')));
  await eventually(() => (panel.info().witnesses.RA ? true : undefined), 'the witness to come back');
}, 60_000);

test('the graph reveals a clicked range in the editor, selected', async () => {
  const panel = api.graphs.get(uri());
  assert.ok(panel);
  const r = FRACTURED.readYInit;
  await panel.handle({ type: 'reveal', uri: uri().toString(), range: { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } } });
  const editor = vscode.window.activeTextEditor;
  assert.equal(editor?.document.uri.toString(), uri().toString());
  assert.deepEqual(rangeOf(editor.selection), rangeOf(r));
});

test('the graph panel follows the active .hist editor; pinned, it keeps its file', async () => {
  const panel = api.graphs.active();
  assert.ok(panel, 'the panel opened above');
  const other = workspaceFile('write-skew.hist');
  await vscode.window.showTextDocument(other, { viewColumn: vscode.ViewColumn.One });
  await eventually(() => (panel.info().uri === other.toString() && panel.info().witnesses.SER ? true : undefined), 'the panel to follow to write-skew.hist', 30_000);
  assert.equal(api.graphs.active(), panel, 'one panel');
  await panel.handle({ type: 'pin', pinned: true });
  await vscode.window.showTextDocument(uri(), { viewColumn: vscode.ViewColumn.One });
  await eventually(() => (api.statusBar.get(uri())?.state === 'done' ? true : undefined), 'fractured-read.hist analysed');
  assert.equal(panel.info().uri, other.toString(), 'pinned: it keeps write-skew.hist');
  assert.match(panel.panel.title, /\(pinned\)$/);
  await panel.handle({ type: 'pin', pinned: false });
  await vscode.window.showTextDocument(other, { viewColumn: vscode.ViewColumn.One });
  await vscode.window.showTextDocument(uri(), { viewColumn: vscode.ViewColumn.One });
  await eventually(() => (panel.info().uri === uri().toString() && panel.info().witnesses.RA ? true : undefined), 'unpinned: it follows again', 30_000);
}, 90_000);

test('code lenses: Show graph first; a level’s lens opens the graph on that level’s witness', async () => {
  const skew = workspaceFile('write-skew.hist');
  await vscode.window.showTextDocument(skew, { viewColumn: vscode.ViewColumn.One });
  const lenses = await eventually(async () => {
    const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', skew);
    return l.some((x) => x.command?.title === 'SER ✗') ? l : undefined;
  }, 'the verdict lenses of write-skew.hist', 30_000);
  assert.deepEqual(lenses.map((l) => l.command?.title), ['Show graph', 'RC ✓', 'RA ✓', 'CC ✓', 'PC ✓', 'PSI ✓', 'SI ✓', 'SER ✗']);
  assert.ok(lenses.every((l) => l.command?.command === 'isocheck.showGraph'), 'every item is clickable');
  // Back on another file first, so the lens has to bring the panel to write-skew.hist.
  await vscode.window.showTextDocument(uri(), { viewColumn: vscode.ViewColumn.One });
  await eventually(() => (api.graphs.active()?.info().uri === uri().toString() ? true : undefined), 'the panel on fractured-read.hist');
  const ser = lenses.find((l) => l.command?.title === 'SER ✗')?.command;
  assert.ok(ser);
  const opened = await vscode.commands.executeCommand<GraphPanelInfo | undefined>(ser.command, ...(ser.arguments ?? []) as unknown[]);
  assert.equal(opened?.uri, skew.toString());
  const panel = api.graphs.get(skew);
  assert.ok(panel, 'the panel shows write-skew.hist');
  const shown = await eventually(() => { const i = panel.info(); return i.ready && i.witnesses.SER ? i : undefined; }, 'the SER witness in the panel', 30_000);
  assert.equal(shown.level, 'SER', 'the view was asked to show SER');
  assert.deepEqual([...shown.witnesses.SER].sort(), ['T1-rw->T2', 'T2-rw->T1']);
  // Another level's lens on the same file: the panel stays and is asked for that level.
  const rc = lenses.find((l) => l.command?.title === 'RC ✓')?.command;
  assert.ok(rc);
  await vscode.commands.executeCommand(rc.command, ...(rc.arguments ?? []) as unknown[]);
  assert.equal(api.graphs.get(skew), panel, 'the same panel');
  await eventually(() => (panel.info().level === 'RC' ? true : undefined), 'RC asked of the view');
  // fractured-read.hist is still the active editor: switch away and back so the panel follows it again.
  await vscode.window.showTextDocument(skew, { viewColumn: vscode.ViewColumn.One });
  await vscode.window.showTextDocument(uri(), { viewColumn: vscode.ViewColumn.One });
  await eventually(() => (panel.info().uri === uri().toString() && panel.info().witnesses.RA ? true : undefined), 'the panel back on fractured-read.hist', 30_000);
}, 90_000);

test('isocheck.exportWitnessAs writes a minimised .hist that still violates RA, and DOT', async () => {
  const dir = process.env.ISOCHECK_TEST_TMP ?? '/tmp';
  const hist = vscode.Uri.file(`${dir}/fractured.RA.min.hist`);
  const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('isocheck.exportWitnessAs', uri(), { level: 'RA', format: 'hist' }, hist);
  assert.equal(written?.fsPath, hist.fsPath);
  const text = readFileSync(hist.fsPath, 'utf8');
  assert.match(text, /^# Minimised witness/);
  assert.match(text, /expect RA violated/);
  const dot = vscode.Uri.file(`${dir}/fractured.RA.witness.dot`);
  await vscode.commands.executeCommand('isocheck.exportWitnessAs', uri(), { level: 'RA', format: 'dot' }, dot);
  assert.match(readFileSync(dot.fsPath, 'utf8'), /^digraph witness \{/);
});

test('isocheck.checkWorkspace checks every example', async () => {
  const summary = await vscode.commands.executeCommand<{ files: number; checked: number; withErrors: string[] }>('isocheck.checkWorkspace');
  assert.ok(summary.files >= 20, `found ${summary.files} histories`);
  assert.equal(summary.checked, summary.files);
  // Every example meets its expectations; only the copy without them has errors.
  assert.ok(!summary.withErrors.includes(FRACTURED.file), FRACTURED.file);
  assert.ok(summary.withErrors.includes(FRACTURED.claimedFile), FRACTURED.claimedFile);
}, 90_000);

test('isocheck.checkWorkspace past VS Code’s 50 background documents: every file counted, its errors kept in Problems', async () => {
  // VS Code closes the oldest of the documents an extension opened without an editor beyond 50; the server then
  // drops their diagnostics. 60 copies of the claimed file (an RA error each) plus the examples go past that.
  const claimed = await vscode.workspace.fs.readFile(workspaceFile(FRACTURED.claimedFile));
  const copies = Array.from({ length: 60 }, (_, i) => workspaceFile(`many/claimed-${String(i).padStart(2, '0')}.hist`));
  for (const c of copies) await vscode.workspace.fs.writeFile(c, claimed);
  try {
    const summary = await vscode.commands.executeCommand<{ files: number; checked: number; withErrors: string[] }>('isocheck.checkWorkspace');
    assert.ok(summary.files >= 100, `found ${summary.files} histories`);
    assert.equal(summary.checked, summary.files, 'every file counted, those VS Code closed during the check too');
    for (const c of copies) assert.ok(summary.withErrors.includes(vscode.workspace.asRelativePath(c)), `${c.path} listed with errors`);
    const closed = copies.filter((c) => !vscode.workspace.textDocuments.some((d) => d.uri.toString() === c.toString()));
    assert.ok(closed.length > 0, 'VS Code closed some of the documents the check opened');
    for (const c of copies) {
      const ra = vscode.languages.getDiagnostics(c).filter((d) => codeOf(d) === 'RA' && d.severity === vscode.DiagnosticSeverity.Error);
      assert.equal(ra.length, 1, `${c.path}: its RA error stays in Problems, once`);
    }
    // Opened again, the file's live diagnostics replace the kept ones (no duplicates).
    await vscode.window.showTextDocument(closed[0]);
    await eventually(() => (api.workspaceDiagnostics.shown(closed[0]).length === 0 ? true : undefined), 'the kept findings to give way');
    await eventually(() => (vscode.languages.getDiagnostics(closed[0]).filter((d) => codeOf(d) === 'RA').length === 1 ? true : undefined), 'one RA diagnostic, the server’s');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceFile('many'), { recursive: true });
    for (const c of copies) api.workspaceDiagnostics.forget(c);
  }
}, 180_000);

test('isocheck.checkWorkspace keeps no stale findings: a file the user had open, or one edited or changed on disk after the check', async () => {
  const claimed = await vscode.workspace.fs.readFile(workspaceFile(FRACTURED.claimedFile));
  const mine = workspaceFile('stale/mine.hist');
  const other = workspaceFile('stale/other.hist');
  await vscode.workspace.fs.writeFile(mine, claimed);
  await vscode.workspace.fs.writeFile(other, claimed);
  try {
    // Open in an editor before the check: its findings are the server's live ones, never kept.
    await vscode.window.showTextDocument(mine);
    await vscode.commands.executeCommand('isocheck.checkWorkspace');
    assert.equal(api.workspaceDiagnostics.shown(mine).length, 0, 'nothing kept for a document the user had open');
    // A file the check opened, then changed on disk: its kept findings go.
    await vscode.workspace.fs.writeFile(other, new TextEncoder().encode('session a\n  T1: w(x, 1)\n'));
    await eventually(() => (api.workspaceDiagnostics.shown(other).length === 0 && vscode.languages.getDiagnostics(other).every((d) => codeOf(d) !== 'RA') ? true : undefined), 'the stale RA finding of the changed file to go');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceFile('stale'), { recursive: true });
    api.workspaceDiagnostics.forget(mine);
    api.workspaceDiagnostics.forget(other);
  }
}, 120_000);

test('histories of other languages (.edn): the status bar shows their verdicts; Show Graph and the panel follow them', async () => {
  const edn = workspaceFile('g-single.edn');
  await vscode.workspace.fs.writeFile(edn, new TextEncoder().encode(G_SINGLE_EDN));
  try {
    await vscode.window.showTextDocument(uri(), { viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('isocheck.showGraph', uri().toString());
    const panel = await eventually(() => api.graphs.get(uri()), 'the panel on fractured-read.hist');
    const doc = await vscode.window.showTextDocument(edn, { viewColumn: vscode.ViewColumn.One });
    assert.notEqual(doc.document.languageId, 'hist');
    await eventually(() => (api.statusBar.get(edn)?.state === 'done' ? true : undefined), 'the EDN history analysed');
    await eventually(() => (api.statusBar.shown()?.includes('PSI ✗') ? true : undefined), 'the status bar showing the EDN verdicts');
    assert.equal(api.statusBar.activeIsHistory(), true, 'the menus\' context key (isocheck.activeHistory) is set for the EDN editor');
    await eventually(() => (panel.info().uri === edn.toString() && panel.info().witnesses.PSI ? true : undefined), 'the panel to follow to the EDN file', 30_000);
    const shown = await vscode.commands.executeCommand<GraphPanelInfo | undefined>('isocheck.showGraph');
    assert.equal(shown?.uri, edn.toString(), 'Show Graph without an argument takes the active EDN editor');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(edn);
  }
}, 90_000);

test('isocheck.restartServer brings the server back with diagnostics and hovers', async () => {
  const before = api.client();
  await vscode.commands.executeCommand('isocheck.restartServer');
  const after = api.client();
  assert.ok(after && after !== before && after.isRunning());
  await eventually(() => raDiagnostic(), 'diagnostics after the restart');
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri(), FRACTURED.readX1);
  assert.ok(hovers.length > 0);
});

/** Called by VS Code's test runner in the extension host. */
export function run(): Promise<void> {
  return runAll(process.env.ISOCHECK_TEST_RESULTS);
}
