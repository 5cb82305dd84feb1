// The playground's analysis worker: the language server's snapshot for the editor's text, the engine for dropped files and exports.
/// <reference lib="dom" />

import { analyzeSource, type Analysis } from '../../server/src/engine/analyze.ts';
import { analysisData, writtenSourceOfAnalysis } from '../../server/src/engine/export/analysis-data.ts';
import { exportWitnessOfSource } from '../../server/src/engine/export/witness-of-text.ts';
import { headOf, readerForAnyFile, readerNamed } from '../../server/src/engine/readers/registry.ts';
import { DEFAULT_STRONG_BUDGET, implicitStrongBudget } from '../../server/src/engine/strong/strong-check.ts';
import { buildSnapshot } from '../../server/src/lsp/snapshot.ts';
import { diagnosticLine } from '../../server/src/cli/text-report.ts';
import { isToWorker, type FromWorker, type LevelSummary } from './protocol.ts';

const port = self as unknown as { postMessage(m: FromWorker, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<unknown>) => void) | null };
const post = (m: FromWorker, transfer: Transferable[] = []): void => port.postMessage(m, transfer);


/** The last dropped file (exports of a file that is not in the editor): read again for each export, as the CLI would. */
let file: { name: string; bytes: Uint8Array } | null = null;

/** Shown of a dropped file's errors: enough to say why nothing parsed, not a flood. */
const SHOWN_PROBLEMS = 10;

/** What `isocheck check` lists under a file: its errors (and not-checked warnings), each as the CLI prints it. */
function problems(a: Analysis): { problems: string[]; problemCount: number } {
  const listed = a.findings.filter((f) => f.severity === 'error' || (f.severity === 'warning' && f.code === 'not-checked'));
  const shown = listed.slice(0, SHOWN_PROBLEMS).map((f) => diagnosticLine({ code: f.code, severity: f.severity, message: f.message, range: a.lines.range(f.span.start, f.span.end) }));
  return { problems: shown, problemCount: listed.length };
}

function summary(a: Analysis): LevelSummary[] {
  const out: LevelSummary[] = [];
  for (const v of [...a.levels, ...(a.mixed ? [a.mixed] : [])]) {
    out.push({ level: v.level, state: v.consistent === true ? 'ok' : v.consistent === false ? 'violated' : 'unknown', anomaly: v.witness?.anomaly ?? null, message: v.witness?.message ?? v.note ?? null });
  }
  return out;
}

port.onmessage = (e: MessageEvent<unknown>): void => {
  // Only the page can post here, but every message is checked before it is used (protocol.ts).
  if (!isToWorker(e.data)) return;
  const m = e.data;
  try {
    switch (m.type) {
      case 'text': {
        // The CLI's budget as `isocheck check` sets it: the implicit one for large inputs, else the full one.
        const cli = m.budget === 'cli';
        const strongMillis = cli ? DEFAULT_STRONG_BUDGET.millis : undefined;
        const { strongTotalMillis } = cli ? implicitStrongBudget(new TextEncoder().encode(m.text).length) : {};
        const { snapshot, transfer } = buildSnapshot(m.text, {
          uri: 'playground:/history.hist', levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 1000, deferStrong: m.budget === 'quick', strongMillis, strongTotalMillis,
        });
        post({ type: 'text', id: m.id, snapshot }, transfer);
        return;
      }
      case 'file': {
        const t0 = performance.now();
        const bytes = new Uint8Array(m.bytes);
        post({ type: 'progress', id: m.id, stage: `Reading and checking ${m.name}`, done: 1, total: 3 });
        // As the CLI does: on a large input the strong levels share one search budget (then maybe undecided).
        const options = implicitStrongBudget(bytes.length);
        // The one reader registry, as the CLI and the language server use it: by ending, else by content.
        const analysis = analyzeSource(readerForAnyFile(m.name, headOf({ bytes })).read({ bytes }), options);
        file = { name: m.name, bytes };
        post({ type: 'progress', id: m.id, stage: 'Preparing the graph', done: 2, total: 3 });
        // Encoded as a URI segment (a `%`, `#` or `/` in a name would otherwise be read as URI syntax); the view decodes it.
        // The history as written, as the language server's graph and the editor's text show it: an `unknown`
        // transaction nobody read is drawn (marked as not run), not dropped as the checked history drops it.
        const data = analysisData(writtenSourceOfAnalysis(analysis, `playground:/${encodeURIComponent(m.name)}`, 1));
        const h = analysis.history;
        // The graph draws these too (dashed): the summary counts them, else it said 295 transactions above a graph of 300.
        const notRun = data.transactions.reduce((n, t) => n + (t.notRun ? 1 : 0), 0);
        post({ type: 'file', id: m.id, name: m.name, analysis: data, levels: summary(analysis), transactions: h.txnCount - 1, notRun, operations: h.opCount, millis: performance.now() - t0, ...problems(analysis) });
        return;
      }
      case 'export': {
        // `isocheck witness`'s own path: only the level asked for is evaluated (a strong level's own witness, not
        // one implied by a weaker level's), and the file's `level` directive is the mixed verdict's claim.
        const name = m.source === 'file' && file ? file.name : 'playground.hist';
        const src = m.source === 'file' && file
          ? readerForAnyFile(file.name, headOf({ bytes: file.bytes })).read({ bytes: file.bytes })
          : readerNamed('hist')!.read({ text: m.text });
        const r = exportWitnessOfSource(src, { file: name, level: m.level, format: m.format });
        post(r.ok ? { type: 'export', id: m.id, ok: true, text: r.text, extension: r.extension } : { type: 'export', id: m.id, ok: false, message: r.message });
        return;
      }
    }
  } catch (err) {
    post({ type: 'error', id: m.id, message: err instanceof Error ? err.message : String(err) });
  }
};
