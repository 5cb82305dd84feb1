// The playground page: a CodeMirror editor with the language server's diagnostics, hovers and completion, the graph view, examples, share links, files.
/// <reference lib="dom" />

import './graph-host.ts';
import '../../webview/src/main.ts';
import './style.css';
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { linter, lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Transaction } from '@codemirror/state';
import { EditorView, hoverTooltip } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import examples from 'isocheck:examples';
import workerSource from 'isocheck:worker-source';
import { DocModel } from '../../server/src/lsp/doc-model.ts';
import type { AnalysisSnapshot } from '../../server/src/lsp/snapshot.ts';
import { analysisJson } from '../../server/src/lsp/features/analysis-json.ts';
import { undecidedReason } from '../../server/src/engine/export/layout.ts';
import { completions } from '../../server/src/lsp/features/completion.ts';
import { hoverAt } from '../../server/src/lsp/features/hover.ts';
import type { AnalysisResult } from '../../server/src/protocol/shapes.ts';
import type { ExportFormat, GraphLevel } from '../../server/src/protocol/webview.ts';
import { onGraphMessage, toGraph } from './graph-host.ts';
import { isFromWorker, type FromWorker, type LevelSummary, type TextBudget, type ToWorker } from './protocol.ts';
import { histHighlighting, histLanguage } from './hist-mode.ts';
import { EDITOR_MAX } from './limits.ts';
import { decodeShare, encodeShare } from './share.ts';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const statusEl = $('levels');
const exampleSelect = $<HTMLSelectElement>('examples');
const shareButton = $<HTMLButtonElement>('share');
const shareLink = $<HTMLInputElement>('share-link');
const openInput = $<HTMLInputElement>('open');
const progressEl = $<HTMLProgressElement>('progress');
const noticeEl = $('notice');
const fileSummary = $('file-summary');

// ---- the analysis worker (a busy one is replaced when the text changes: stale analyses are cancelled) ----

let worker: Worker | null = null;
let workerUrl: string | null = null;
let busy = 0;
let nextId = 1;
let textId = 0;
let fileId = 0;
let model: DocModel | null = null;
let modelText = '';
let source: 'text' | 'file' = 'text';
let diagnosticCount = 0;
/**
 * The graph's name for the history in the editor: a new one for each history loaded (an example, a .hist file, a
 * share link), so the graph view treats it as another document (its own level, selection and zoom, as VS Code
 * gives a newly opened file), while edits keep the same one (and the level the user chose).
 */
let docSerial = 0;
const docUri = (): string => `playground:/${docSerial}/history.hist`;
const pending = new Map<number, (m: FromWorker) => void>();

function ensureWorker(): Worker {
  if (worker) return worker;
  workerUrl ??= URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  const w = new Worker(workerUrl);
  w.onmessage = (e: MessageEvent<unknown>): void => {
    // The worker is the page's own, but what it sends is checked before it is shown (protocol.ts).
    if (!isFromWorker(e.data)) {
      notice('The checker sent a message this page does not understand; it was ignored.');
      return;
    }
    const m = e.data;
    if (m.type !== 'progress') busy = Math.max(0, busy - 1);
    pending.get(m.id)?.(m);
    if (m.type !== 'progress') pending.delete(m.id);
  };
  w.onerror = (e): void => { notice(`The checker failed: ${e.message}`); };
  worker = w;
  return w;
}

function request(m: ToWorker, transfer: Transferable[] = []): Promise<FromWorker> {
  return new Promise((resolve) => {
    pending.set(m.id, (r) => { if (r.type === 'progress') showProgress(r.stage, r.done, r.total); else resolve(r); });
    busy++;
    ensureWorker().postMessage(m, transfer);
  });
}

/** The answer a request gets when its worker is terminated for newer work (an edit, another file). */
const CANCELLED = 'cancelled by newer work';

function cancelBusy(): void {
  if (!worker || busy === 0) return;
  worker.terminate();
  worker = null;
  busy = 0;
  // Every waiting request is settled, so no caller waits forever on a terminated worker.
  const waiting = [...pending];
  pending.clear();
  for (const [id, settle] of waiting) settle({ type: 'error', id, message: CANCELLED });
}

// ---- the editor ----

const lint = linter(null);
let timer: ReturnType<typeof setTimeout> | undefined;
const view = new EditorView({
  parent: $('editor'),
  extensions: [
    basicSetup, histLanguage, histHighlighting, lint, lintGutter(),
    EditorView.updateListener.of((u) => {
      if (!u.docChanged) return;
      // A person's edit (typing, paste, completion, undo; not setText): the Example menu no longer names the text (and
      // choosing that example again must fire a change), and a share link shown would share the text before the edit.
      if (u.transactions.some((tr) => tr.docChanged && tr.annotation(Transaction.userEvent) !== undefined)) {
        lastEdit = performance.now();
        exampleSelect.value = '';
        shareLink.hidden = true;
      }
      schedule();
    }),
    // A file dropped onto the editor is the page's to open (below, on the document): CodeMirror's own drop handler read
    // its text and inserted it at the drop position (a plume file into the middle of the history, however large).
    // Handled here, CodeMirror leaves it; the event still bubbles to the page's handler. Dragged text drops as before.
    EditorView.domEventHandlers({ drop: (e) => (e.dataTransfer?.files.length ?? 0) > 0 }),
    hoverTooltip((v, pos) => hover(v, pos)),
    autocompletion({ override: [complete] }),
    EditorView.contentAttributes.of({ 'aria-label': 'history editor' }),
  ],
});

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(() => { void check(); }, 150);
}

/** Texts larger than this get the editor's two passes: RC/RA/CC first, then the strong levels. */
const QUICK_FIRST = 100_000;

async function check(): Promise<void> {
  const text = view.state.doc.toString();
  cancelBusy();
  if (text.length > QUICK_FIRST && !(await pass(text, 'quick'))) return;
  const shown = await pass(text, 'editor');
  // A level the editor's budget (0.5 s per strong search, as in VS Code) left undecided is searched again with the
  // CLI's, so the page ends with `isocheck check`'s verdicts (on a slower machine too); an edit cancels it.
  if (shown && [...shown.levels, ...(shown.mixed ? [shown.mixed] : [])].some((v) => v.consistent === null)) await pass(text, 'cli');
}

/** One analysis of `text` shown in the editor and the graph; null when a newer edit superseded it. */
async function pass(text: string, budget: TextBudget): Promise<AnalysisSnapshot | null> {
  const id = (textId = nextId++);
  const r = await request({ type: 'text', id, text, budget });
  if (id !== textId || r.type !== 'text') {
    if (r.type === 'error' && r.message !== CANCELLED) notice(r.message);
    return null;
  }
  model = new DocModel(docUri(), id, '', r.snapshot);
  modelText = text;
  source = 'text';
  fileSummary.hidden = true;
  const doc = view.state.doc;
  const offset = (p: { line: number; character: number }): number => {
    if (p.line >= doc.lines) return doc.length;
    const line = doc.line(p.line + 1);
    return Math.min(line.to, line.from + p.character);
  };
  const diagnostics: Diagnostic[] = r.snapshot.diagnostics.map((d) => ({
    from: offset(d.range.start), to: Math.max(offset(d.range.end), offset(d.range.start)),
    severity: d.severity === 1 ? 'error' : d.severity === 2 ? 'warning' : 'info',
    message: `${d.code ? `${String(d.code)}: ` : ''}${d.message}`,
  }));
  view.dispatch(setDiagnostics(view.state, diagnostics));
  diagnosticCount = diagnostics.length;
  const a = analysisJson(model);
  showLevels(a.levels.map((v) => ({ level: v.level, state: v.state, anomaly: v.witness?.anomaly ?? null, message: v.witness?.message ?? null })), a.mixed, r.snapshot.partial);
  graphWhenQuiet(a);
  return r.snapshot;
}

function hover(v: EditorView, pos: number): { pos: number; create: () => { dom: HTMLElement } } | null {
  if (!model || modelText !== v.state.doc.toString()) return null;
  const line = v.state.doc.lineAt(pos);
  const h = hoverAt(model, { line: line.number - 1, character: pos - line.from });
  if (!h) return null;
  const value = typeof h.contents === 'string' ? h.contents : 'value' in h.contents ? h.contents.value : '';
  return {
    pos,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'hover';
      // Markdown shown as text: user strings never become markup. Only its **bold** and `code` are drawn (as
      // elements holding text), else every hover showed the asterisks and backticks of its headings and names.
      for (const para of value.split(/\n\n+/)) {
        const p = document.createElement('p');
        appendMarkdownText(p, para);
        dom.appendChild(p);
      }
      return { dom };
    },
  };
}

/** A hover paragraph's `**bold**` as <strong> and `` `code` `` as <code>, every piece inserted as text. */
function appendMarkdownText(parent: HTMLElement, text: string): void {
  for (const part of text.split(/(\*\*[^*]+\*\*|`[^`]+`)/)) {
    if (part === '') continue;
    const bold = /^\*\*([^*]+)\*\*$/.exec(part);
    const code = /^`([^`]+)`$/.exec(part);
    if (bold || code) {
      const e = document.createElement(bold ? 'strong' : 'code');
      e.textContent = (bold ?? code)![1];
      parent.appendChild(e);
    } else {
      parent.appendChild(document.createTextNode(part.replace(/`/g, '')));
    }
  }
}

function complete(ctx: CompletionContext): CompletionResult | null {
  const line = ctx.state.doc.lineAt(ctx.pos);
  const word = ctx.matchBefore(/[A-Za-z0-9_.-]*/);
  if (!word || (word.from === word.to && !ctx.explicit)) return null;
  // The last analysis, even of a slightly older text (as the language server answers from its last snapshot): its keys
  // and transaction names still fit, and while one types the text just typed is never analysed yet (150 ms debounce),
  // so requiring the current text offered no key after `r(` and no transaction after `<-`.
  const list = completions(model, line.text.slice(0, ctx.pos - line.from));
  // A name typed out in full (a transaction after `<-`, a key, a keyword): the popup offering it again made the Enter
  // that ends the line accept it instead, and the next line joined this one (`<- T1expect SER violated`). Only when
  // asked for (Ctrl+Space) are such options shown.
  const typed = ctx.state.sliceDoc(word.from, word.to);
  if (!ctx.explicit && list.items.some((i) => (i.insertText ?? i.label) === typed)) return null;
  return { from: word.from, options: list.items.map((i) => ({ label: i.label, detail: i.detail, apply: i.insertText ?? i.label })) };
}

// ---- levels, graph, notices ----

/** `partial`: the text has syntax errors, so the verdicts are only for what parsed (as VS Code's status bar and the CLI say). */
function showLevels(levels: LevelSummary[], mixed: AnalysisResult['mixed'] | null, partial = false): void {
  statusEl.replaceChildren();
  const all = [...levels, ...(mixed ? [{ level: mixed.level, state: mixed.state, anomaly: mixed.witness?.anomaly ?? null, message: mixed.witness?.message ?? null }] : [])];
  for (const v of all) {
    const b = document.createElement('button');
    b.className = `level ${v.state}`;
    b.textContent = `${v.level} ${v.state === 'ok' ? '✓' : v.state === 'violated' ? '✗' : '?'}`;
    b.title = v.state === 'violated' ? `${v.level} violated${v.anomaly ? ` (${v.anomaly})` : ''}: ${v.message ?? ''}` : v.state === 'ok' ? `${v.level} holds` : `${v.level} not decided`;
    b.dataset.level = v.level;
    b.addEventListener('click', () => selectLevel(v.level));
    statusEl.appendChild(b);
  }
  // Else a line being typed (a syntax error until it is complete) left "SER ✓" for a history that is not all read.
  if (partial && all.some((v) => v.state !== 'unknown')) {
    const p = document.createElement('span');
    p.className = 'partial';
    p.textContent = 'PARTIAL: syntax errors, verdicts only for what parsed';
    statusEl.appendChild(p);
  }
}

function selectLevel(level: GraphLevel): void {
  const select = document.querySelector<HTMLSelectElement>('select.level-select');
  if (!select) return;
  select.value = level;
  select.dispatchEvent(new Event('change'));
}

let lastAnalysis: AnalysisResult | null = null;
function graph(a: AnalysisResult): void {
  clearTimeout(graphTimer);
  lastAnalysis = a;
  toGraph({ type: 'analysis', analysis: a });
}

/** When the last person's edit was (performance.now()); the graph of a large history waits until typing pauses. */
let lastEdit = -Infinity;
let graphTimer: ReturnType<typeof setTimeout> | undefined;
/** A drawing of more transactions than this takes long enough on the page's one thread to hold up the keys typed meanwhile. */
const LARGE_DRAWING = 300;
/** How long typing must pause before a large history's graph is redrawn. */
const GRAPH_QUIET = 1000;

/**
 * The editor's analysis in the graph: at once for a small history; for a large one, once the typing pauses. Drawing
 * 1,500 transactions takes 0.5–1.5 s of the main thread, and each analysis finishing between two keys (150 ms after
 * one) redrew it: keys typed into a 180 KB history waited up to 1.9 s. The verdicts and squiggles still follow at once.
 */
function graphWhenQuiet(a: AnalysisResult): void {
  clearTimeout(graphTimer);
  const wait = lastEdit + GRAPH_QUIET - performance.now();
  if (a.transactions.length - 1 <= LARGE_DRAWING || wait <= 0) { graph(a); return; }
  graphTimer = setTimeout(() => graphWhenQuiet(a), wait);
}

function notice(text: string): void {
  noticeEl.textContent = text;
  noticeEl.hidden = text === '';
}

function showProgress(stage: string, done: number, total: number): void {
  progressEl.hidden = false;
  progressEl.max = total;
  progressEl.value = done;
  notice(stage);
}

onGraphMessage((m) => {
  switch (m.type) {
    case 'ready':
      if (lastAnalysis) toGraph({ type: 'analysis', analysis: lastAnalysis });
      return;
    case 'reveal': {
      if (source !== 'text') return;
      const doc = view.state.doc;
      const at = (p: { line: number; character: number }): number => (p.line >= doc.lines ? doc.length : Math.min(doc.line(p.line + 1).to, doc.line(p.line + 1).from + p.character));
      view.dispatch({ selection: { anchor: at(m.range.start), head: at(m.range.end) }, scrollIntoView: true });
      view.focus();
      return;
    }
    case 'export':
      void download(m.level, m.format, m.svg);
      return;
    case 'pin':
      return;
  }
});

async function download(level: GraphLevel, format: ExportFormat, svg?: string): Promise<void> {
  let text = svg;
  let extension = 'svg';
  if (text === undefined) {
    const r = await request({ type: 'export', id: nextId++, source, text: view.state.doc.toString(), level, format });
    if (r.type !== 'export') return;
    if (!r.ok) { notice(r.message); return; }
    text = r.text;
    extension = r.extension;
  }
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }));
  a.download = format === 'hist' ? `witness.${level}.min.hist` : `witness.${level}.${extension}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

// ---- examples, share, files ----

for (const name of Object.keys(examples).sort()) {
  const o = document.createElement('option');
  o.value = name;
  o.textContent = name.replace(/\.hist$/, '');
  exampleSelect.appendChild(o);
}
exampleSelect.addEventListener('change', () => {
  const text = examples[exampleSelect.value];
  if (text !== undefined) setText(text, exampleSelect.value);
});

/** Replaces the editor's text with another history (`example`: the example it is, else none). */
function setText(text: string, example = ''): void {
  docSerial++;
  exampleSelect.value = example;
  shareLink.hidden = true;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

shareButton.addEventListener('click', () => {
  void encodeShare(view.state.doc.toString()).then((hash) => {
    if (hash === null) {
      notice(`This history is over ${EDITOR_MAX / 1000} KB, more than a share link opens: save it as a file instead.`);
      return;
    }
    history.replaceState(null, '', hash);
    shareLink.value = location.href;
    shareLink.hidden = false;
    shareLink.select();
  });
});

/**
 * What reading a file gives, or null when the browser cannot read it (a dropped folder, a file deleted or changed
 * since it was chosen): the page says so instead of leaving "Reading…" and its progress bar up for good.
 */
async function readFile<T>(f: File, read: () => Promise<T>, current: () => boolean): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (current()) {
      progressEl.hidden = true;
      notice(`${f.name}: the file could not be read (${e instanceof Error ? e.message : String(e)})`);
    }
    return null;
  }
}

async function openFile(f: File): Promise<void> {
  if (/\.hist$/i.test(f.name) && f.size <= EDITOR_MAX) {
    const text = await readFile(f, () => f.text(), () => true);
    if (text !== null) setText(text);
    return;
  }
  // A check of the editor's text still waiting for its debounce would terminate the file's worker: drop it.
  clearTimeout(timer);
  cancelBusy();
  const id = (fileId = nextId++);
  showProgress(`Reading ${f.name}`, 0, 3);
  const bytes = await readFile(f, () => f.arrayBuffer(), () => id === fileId);
  if (bytes === null) return;
  const r = await request({ type: 'file', id, name: f.name, bytes }, [bytes]);
  progressEl.hidden = true;
  if (id !== fileId) return;
  if (r.type === 'error') { notice(r.message === CANCELLED ? `${f.name}: not checked (the editor was edited meanwhile)` : `${f.name}: ${r.message}`); return; }
  if (r.type !== 'file') return;
  source = 'file';
  // The page shows the file now, not the example still in the editor (choosing it again must fire a change).
  exampleSelect.value = '';
  notice('');
  fileSummary.hidden = false;
  fileSummary.replaceChildren();
  const head = document.createElement('strong');
  const notRun = r.notRun > 0 ? ` (and ${r.notRun.toLocaleString('en')} unknown ${r.notRun === 1 ? 'one' : 'ones'} that never ran, drawn dashed)` : '';
  head.textContent = `${r.name}: ${r.transactions.toLocaleString('en')} transactions${notRun}, ${r.operations.toLocaleString('en')} operations, checked in ${(r.millis / 1000).toFixed(1)} s (not opened in the editor)`;
  fileSummary.appendChild(head);
  const list = document.createElement('ul');
  for (const v of r.levels) {
    const li = document.createElement('li');
    li.dataset.level = v.level;
    li.dataset.state = v.state;
    const why = v.state === 'unknown' ? undecidedReason(v.message) : v.message;
    li.textContent = `${v.level}: ${v.state === 'ok' ? 'holds' : v.state === 'violated' ? `violated${v.anomaly ? ` (${v.anomaly})` : ''}` : 'not decided'}${v.state !== 'ok' && why ? ` — ${why}` : ''}`;
    list.appendChild(li);
  }
  fileSummary.appendChild(list);
  // Why a level is not decided or violated, when the file did not read cleanly: as `isocheck check` lists it.
  if (r.problemCount > 0) {
    const head = document.createElement('p');
    head.className = 'problems';
    head.textContent = `${r.problemCount.toLocaleString('en')} error${r.problemCount === 1 ? '' : 's'}${r.problemCount > r.problems.length ? ` (the first ${r.problems.length})` : ''}:`;
    const errors = document.createElement('ul');
    errors.className = 'problems';
    for (const line of r.problems) {
      const li = document.createElement('li');
      li.textContent = line;
      errors.appendChild(li);
    }
    fileSummary.append(head, errors);
  }
  showLevels(r.levels.filter((v) => v.level !== 'mixed'), r.analysis.mixed);
  graph(r.analysis);
}

openInput.addEventListener('change', () => {
  const f = openInput.files?.[0];
  if (f) void openFile(f);
  openInput.value = '';
});
document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dropping'); });
document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
document.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dropping');
  const f = e.dataTransfer?.files[0];
  if (f) void openFile(f);
});

/** For tests and the console: the editor's text and diagnostics count (read-only). */
(window as unknown as { isocheckPlayground: unknown }).isocheckPlayground = {
  text: (): string => view.state.doc.toString(),
  diagnostics: (): number => diagnosticCount,
};

// ---- start: a shared history, else the write-skew example; never inside another page's frame ----

/**
 * A page that frames the playground could lay its own controls over it (clickjacking). The server's
 * `frame-ancestors 'none'` header stops that where the host sends it (a meta CSP cannot); this covers hosts that do not.
 */
function framed(): boolean {
  if (window.top === window.self) return false;
  const p = document.createElement('p');
  p.className = 'framed';
  p.textContent = 'The IsoCheck playground does not run inside another page. Open it in its own tab.';
  document.body.replaceChildren(p);
  document.body.dataset.ready = 'framed';
  return true;
}

let sharedSeq = 0;

/** Opens the history of a share link's fragment; at the start, the write-skew example when it holds none. */
async function openShared(hash: string, start: boolean): Promise<void> {
  const seq = ++sharedSeq;
  const shared = await decodeShare(hash);
  if (seq !== sharedSeq) return;
  const text = shared && 'text' in shared ? shared.text : null;
  if (shared && 'tooLarge' in shared) notice(`The shared history is over ${EDITOR_MAX / 1000} KB, more than the editor takes: it was not opened.`);
  // Else the write-skew example would stand in for it without a word (a link cut short when it was copied).
  if (shared && 'broken' in shared) notice(`This share link is damaged (cut short or altered?): its history could not be read.${start ? ' Showing an example instead.' : ''}`);
  if (text !== null) {
    if (!start) notice('');
    setText(text);
  } else if (start) {
    setText(examples['write-skew.hist'] ?? '', 'write-skew.hist');
  }
}

if (!framed()) {
  void openShared(location.hash, true).then(() => { document.body.dataset.ready = 'true'; });
  // A link pasted into this tab's address bar (or Back) differs only in its fragment: the browser does not reload.
  window.addEventListener('hashchange', () => { void openShared(location.hash, false); });
}
