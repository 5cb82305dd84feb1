// Worker-thread entry: analyses documents off the server's message loop, one request at a time.

import { parentPort } from 'node:worker_threads';
import { buildSnapshot } from './snapshot.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

const port = parentPort;
if (port) {
  port.on('message', (m: ToWorker) => {
    let reply: FromWorker;
    let transfer: ArrayBuffer[] = [];
    switch (m.kind) {
      case 'analyze':
        try {
          const flag = new Int32Array(m.cancel);
          const built = buildSnapshot(m.text, m.options, () => Atomics.load(flag, 0) === 1);
          reply = { kind: 'done', id: m.id, snapshot: built.snapshot };
          transfer = built.transfer;
        } catch (e) {
          reply = { kind: 'failed', id: m.id, message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) };
        }
        break;
    }
    port.postMessage(reply, transfer);
  });
}
