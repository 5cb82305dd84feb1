// Language-server latency: didChange → publishDiagnostics at 1,000 and 100,000 operations with the graph closed and open, hovers during a big analysis, and list-append documents.
//
//   npm run bench:lsp [-- --small 1000 --big 100000 --trials 15 --levels RC,RA,CC|all --list 1000]
//
// Targets (issue 3): < 50 ms at 1,000 operations, < 1 s at 100,000, hover < 20 ms while a big analysis runs;
// (issue 10) < 50 ms per edit on a 1,000-transaction list-append document (a serial and a permissive one).
// Edits are made after a quiet spell, as a person's single edit is: the server then checks at once
// (a burst of typing is debounced; see server/src/lsp/scheduler.ts).
// "Graph open" does what the graph panel does (client/src/graph/graph-panel.ts): on every
// isocheck/analysisChanged notification it requests isocheck/analysis, the graph's JSON; the edit's
// latency is still measured to its diagnostics, so it shows whether the graph slows typing down.

import { HoverRequest, type Position } from 'vscode-languageserver-protocol/node';
import { AnalysisChangedNotification, AnalysisRequest } from '../server/src/protocol/messages.ts';
import { generateHistory, optionsForEvents } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { DEFAULT_LIST_GEN, generateListHistory, listHistToString } from '../server/src/engine/gen/list-append-store.ts';
import { ensureBuilt, fileUri, LspClient } from '../test/helpers/lsp-client.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const SMALL = arg('small', 1_000);
const BIG = arg('big', 100_000);
const TRIALS = arg('trials', 15);
const LIST = arg('list', 1_000);
/** The isocheck.levels setting: RC, RA and CC (decided exactly) unless `--levels all` asks for the engine's default. */
const LEVELS_ARG = process.argv.includes('--levels') ? process.argv[process.argv.indexOf('--levels') + 1] : 'RC,RA,CC';
const LEVELS = LEVELS_ARG === 'all' ? [] : LEVELS_ARG.split(',');

function stats(xs: number[]): string {
  if (xs.length === 0) return 'no data';
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(1)} ms, p90 ${q(0.9).toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms (n=${s.length})`;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A list-append document as `isocheck gen --workload list-append` writes it by default (4 sessions, 4 live keys, times, unknown outcomes), serial or permissive. */
function listDocument(txns: number, store: 'serial' | 'permissive'): string {
  const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: txns, store, seed: 7 });
  return `history "list-append ${store}"\n${listHistToString(d)}`;
}

function history(events: number): string {
  return toHistString(generateHistory(optionsForEvents(events, { store: 'causal', seed: 7 })), `${events} operations`);
}

/** A position inside the first read of the text (for hovers). */
function firstRead(text: string): Position {
  const i = text.indexOf(' r(');
  const before = text.slice(0, i + 2);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

interface Latency {
  /** didChange → publishDiagnostics per edit, and the worker's analysis time of those versions. */
  edits: number[];
  worker: number[];
}

/** The graph panel's side of the bench: whether it is open, and a wait for its pending requests. */
interface GraphSide {
  open: boolean;
  settle(): Promise<void>;
}

/**
 * didChange → publishDiagnostics, each edit after a pause longer than the debounce. With `graph`,
 * the edits come in four blocks, graph closed, open, closed, open (so warm-up and the machine's load
 * fall on both alike); a block starts once the previous block's graph requests are answered (the
 * graph fetched after an edit's analysis overlaps the next edit: that is what "open" measures).
 */
async function changeLatency(c: LspClient, uri: string, text: string, trials: number, graph: GraphSide | null = null): Promise<{ closed: Latency; open: Latency }> {
  const closed: Latency = { edits: [], worker: [] };
  const open: Latency = { edits: [], worker: [] };
  const versionsOf = new Map<number, Latency>();
  const block = Math.max(1, Math.ceil(trials / 4));
  for (let k = 0; k < trials; k++) {
    const into = graph && Math.floor(k / block) % 2 === 1 ? open : closed;
    if (graph && k % block === 0) {
      graph.open = false;
      await graph.settle();
      graph.open = into === open;
    }
    await sleep(250);
    const edited = `${text}# edit ${k}\n`;
    const t0 = performance.now();
    const v = await c.change(uri, edited);
    await c.diagnosticsOfVersion(uri, v, 60_000);
    into.edits.push(performance.now() - t0);
    versionsOf.set(v, into);
  }
  await sleep(100); // the status notification follows the diagnostics
  for (const s of c.statuses) if (s.uri === uri && s.state === 'done') versionsOf.get(s.version)?.worker.push(s.millis);
  if (graph) graph.open = false;
  return { closed, open };
}

async function main(): Promise<void> {
  ensureBuilt();
  const small = history(SMALL);
  const big = history(BIG);
  console.log(`documents: ${SMALL} operations (${(small.length / 1024).toFixed(0)} KB), ${BIG} operations (${(big.length / 1024 / 1024).toFixed(1)} MB); levels: ${LEVELS_ARG}`);
  const c = await LspClient.start({ settings: { levels: LEVELS } });
  try {
    const smallUri = fileUri('bench-small.hist');
    const bigUri = fileUri('bench-big.hist');
    await c.open(smallUri, small);
    await c.diagnosticsOfVersion(smallUri, 1, 60_000);
    const t0 = performance.now();
    await c.open(bigUri, big);
    await c.diagnosticsOfVersion(bigUri, 1, 120_000);
    console.log(`first open of the big document (worker start included): ${(performance.now() - t0).toFixed(0)} ms`);

    // The graph open: every new analysis is fetched as the panel fetches it (not awaited: the next edit may overlap it).
    const graph: GraphSide = { open: false, settle: async () => { await Promise.all([...pending]); } };
    const graphTimes = new Map<string, number[]>();
    const pending = new Set<Promise<unknown>>();
    c.connection.onNotification(AnalysisChangedNotification.type, (p) => {
      if (!graph.open) return;
      const g0 = performance.now();
      const r = c.connection.sendRequest(AnalysisRequest.type, { uri: p.uri }).then((a) => {
        if (a) graphTimes.set(p.uri, [...(graphTimes.get(p.uri) ?? []), performance.now() - g0]);
      }, () => undefined);
      pending.add(r);
      void r.finally(() => pending.delete(r));
    });
    const smallRun = await changeLatency(c, smallUri, small, TRIALS * 4, graph);
    const bigRun = await changeLatency(c, bigUri, big, TRIALS * 2, graph);
    await Promise.all([...pending]);
    const [smallTimes, smallWorker, smallGraphTimes, smallGraphWorker] = [smallRun.closed.edits, smallRun.closed.worker, smallRun.open.edits, smallRun.open.worker];
    const [bigTimes, bigWorker, bigGraphTimes, bigGraphWorker] = [bigRun.closed.edits, bigRun.closed.worker, bigRun.open.edits, bigRun.open.worker];

    // Hovers on both documents while the big one is re-analysed (the hover uses the previous analysis).
    const hoverTimes: number[] = [];
    const smallPos = firstRead(small);
    const bigPos = firstRead(big);
    let rounds = 0;
    for (let k = 0; k < 3; k++) {
      await sleep(250);
      const v = await c.change(bigUri, `${big}# hover round ${k}\n`);
      let done = false;
      const published = c.diagnosticsOfVersion(bigUri, v, 60_000).then(() => {
        done = true;
      });
      while (!done) {
        for (const [uri, position] of [[smallUri, smallPos], [bigUri, bigPos]] as const) {
          const h0 = performance.now();
          const h = await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
          hoverTimes.push(performance.now() - h0);
          if (!h) throw new Error('no hover');
        }
        rounds++;
        await sleep(5);
      }
      await published;
    }

    // List-append documents: every level, the anomaly classes and their sentences on each edit.
    const listTimes: Record<string, number[]> = {};
    const listWorker: Record<string, number[]> = {};
    for (const store of ['serial', 'permissive'] as const) {
      const uri = fileUri(`bench-list-${store}.hist`);
      const text = listDocument(LIST, store);
      await c.open(uri, text);
      await c.diagnosticsOfVersion(uri, 1, 60_000);
      const run = await changeLatency(c, uri, text, TRIALS * 2);
      listTimes[store] = run.closed.edits;
      listWorker[store] = run.closed.worker;
    }

    console.log('');
    for (const store of ['serial', 'permissive']) {
      console.log(`didChange → publishDiagnostics, ${LIST} list-append transactions (${store}): ${stats(listTimes[store])}   [worker analysis ${stats(listWorker[store])}]`);
    }
    console.log(`didChange → publishDiagnostics, ${SMALL} operations, graph closed: ${stats(smallTimes)}   [worker analysis ${stats(smallWorker)}]`);
    console.log(`didChange → publishDiagnostics, ${SMALL} operations, graph open:   ${stats(smallGraphTimes)}   [worker analysis ${stats(smallGraphWorker)}]`);
    console.log(`  the graph's JSON after each analysis (isocheck/analysis), ${SMALL} operations: ${stats(graphTimes.get(smallUri) ?? [])}`);
    console.log(`didChange → publishDiagnostics, ${BIG} operations, graph closed: ${stats(bigTimes)}   [worker analysis ${stats(bigWorker)}]`);
    console.log(`didChange → publishDiagnostics, ${BIG} operations, graph open:   ${stats(bigGraphTimes)}   [worker analysis ${stats(bigGraphWorker)}]`);
    console.log(`  the graph's JSON after each analysis (isocheck/analysis), ${BIG} operations: ${stats(graphTimes.get(bigUri) ?? [])}`);
    console.log(`hover while the ${BIG}-operation document is re-analysed: ${stats(hoverTimes)} (${rounds} rounds)`);
    const ok = (label: string, ms: number, target: number): string => `${label}: ${ms.toFixed(1)} ms (target < ${target} ms) ${ms < target ? '✓' : '✗'}`;
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
    console.log('');
    console.log(ok(`${SMALL} ops, median`, median(smallTimes), 50));
    console.log(ok(`${BIG} ops, median`, median(bigTimes), 1000));
    console.log(ok(`${SMALL} ops with the graph open, median`, median(smallGraphTimes), 50));
    console.log(ok(`${BIG} ops with the graph open, median`, median(bigGraphTimes), 1000));
    console.log(ok('hover during big analysis, p90', p90(hoverTimes), 20));
    for (const store of ['serial', 'permissive']) console.log(ok(`${LIST} list-append transactions (${store}), median`, median(listTimes[store]), 50));
  } finally {
    await c.stop();
  }
}

void main();
