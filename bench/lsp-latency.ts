// Language-server latency: didChange → publishDiagnostics at 1,000 and 100,000 operations, hovers during a big analysis, and list-append documents.
//
//   npm run bench:lsp [-- --small 1000 --big 100000 --trials 15 --levels RC,RA,CC|all --list 1000]
//
// Targets (issue 3): < 50 ms at 1,000 operations, < 1 s at 100,000, hover < 20 ms while a big analysis runs;
// (issue 10) < 50 ms per edit on a 1,000-transaction list-append document (a serial and a permissive one).
// Edits are made after a quiet spell, as a person's single edit is: the server then checks at once
// (a burst of typing is debounced; see server/src/lsp/scheduler.ts).

import { HoverRequest, type Position } from 'vscode-languageserver-protocol/node';
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

/** didChange → publishDiagnostics, each edit after a pause longer than the debounce. */
async function changeLatency(c: LspClient, uri: string, text: string, trials: number, worker: number[]): Promise<number[]> {
  const out: number[] = [];
  const versions: number[] = [];
  for (let k = 0; k < trials; k++) {
    await sleep(250);
    const edited = `${text}# edit ${k}\n`;
    const t0 = performance.now();
    const v = await c.change(uri, edited);
    await c.diagnosticsOfVersion(uri, v, 60_000);
    out.push(performance.now() - t0);
    versions.push(v);
  }
  await sleep(100); // the status notification follows the diagnostics
  for (const s of c.statuses) if (s.uri === uri && s.state === 'done' && versions.includes(s.version)) worker.push(s.millis);
  return out;
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

    const smallWorker: number[] = [];
    const smallTimes = await changeLatency(c, smallUri, small, TRIALS * 2, smallWorker);
    const bigWorker: number[] = [];
    const bigTimes = await changeLatency(c, bigUri, big, TRIALS, bigWorker);

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
      listWorker[store] = [];
      listTimes[store] = await changeLatency(c, uri, text, TRIALS * 2, listWorker[store]);
    }

    console.log('');
    for (const store of ['serial', 'permissive']) {
      console.log(`didChange → publishDiagnostics, ${LIST} list-append transactions (${store}): ${stats(listTimes[store])}   [worker analysis ${stats(listWorker[store])}]`);
    }
    console.log(`didChange → publishDiagnostics, ${SMALL} operations:   ${stats(smallTimes)}   [worker analysis ${stats(smallWorker)}]`);
    console.log(`didChange → publishDiagnostics, ${BIG} operations: ${stats(bigTimes)}   [worker analysis ${stats(bigWorker)}]`);
    console.log(`hover while the ${BIG}-operation document is re-analysed: ${stats(hoverTimes)} (${rounds} rounds)`);
    const ok = (label: string, ms: number, target: number): string => `${label}: ${ms.toFixed(1)} ms (target < ${target} ms) ${ms < target ? '✓' : '✗'}`;
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const p90 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
    console.log('');
    console.log(ok(`${SMALL} ops, median`, median(smallTimes), 50));
    console.log(ok(`${BIG} ops, median`, median(bigTimes), 1000));
    console.log(ok('hover during big analysis, p90', p90(hoverTimes), 20));
    for (const store of ['serial', 'permissive']) console.log(ok(`${LIST} list-append transactions (${store}), median`, median(listTimes[store]), 50));
  } finally {
    await c.stop();
  }
}

void main();
