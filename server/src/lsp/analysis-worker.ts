// Worker-thread entry: runs analyses, graph JSON and witness exports off the server's message loop, one task at a time.

import { parentPort, workerData } from 'node:worker_threads';
import { AnalysisCache, runTask } from './worker-tasks.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

/** A few documents' latest analyses (as many as the lane says): the graph asks for the JSON of what was just analysed. */
const entries = (workerData as { cacheEntries?: unknown } | null)?.cacheEntries;
const cache = new AnalysisCache(typeof entries === 'number' ? entries : 8);

const port = parentPort;
if (port) {
  port.on('message', (m: ToWorker) => {
    let reply: FromWorker;
    let transfer: ArrayBuffer[] = [];
    try {
      const flag = new Int32Array(m.cancel);
      const done = runTask(m.task, () => Atomics.load(flag, 0) === 1, cache);
      reply = { kind: 'done', id: m.id, value: done.value };
      transfer = done.transfer;
    } catch (e) {
      reply = { kind: 'failed', id: m.id, message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) };
    }
    port.postMessage(reply, transfer);
  });
}
