// A recorded run in Jepsen's history shape (EDN, one event map per line): for Elle and for IsoCheck's own EDN reader.

import { writeFileAtomicOrThrow } from '../io/atomic-write.ts';
import type { RecordedOp, RecordedTxn } from './recorder.ts';

/**
 * A run's registers before any write: Driver.reset's default, the history's `init k1 = 0`. No
 * write equals it (written values are unique in the run, from 1), so a read of it is a read of
 * the initial state, which Jepsen's rw-register histories (and IsoCheck's EDN reader) write as
 * nil: a number would need a transaction that wrote it.
 */
const INITIAL_VALUE = 0;

function mop(op: RecordedOp, completed: boolean): string {
  switch (op.kind) {
    case 'r':
      return `[:r ${op.key} ${completed && op.value !== INITIAL_VALUE ? op.value : 'nil'}]`;
    case 'w':
      return `[:w ${op.key} ${op.value}]`;
    case 'a':
      return `[:append ${op.key} ${op.value}]`;
    case 'rl':
      return `[:r ${op.key} ${completed ? `[${op.list.join(' ')}]` : 'nil'}]`;
  }
}

const TYPE = { committed: ':ok', aborted: ':fail', unknown: ':info' } as const;

/**
 * Every transaction becomes an :invoke (reads nil) at its start and an :ok / :fail / :info at its
 * end, times in nanoseconds, sorted by time. Processes are sessions: a client that reconnected
 * (a new session) is a new process, as Jepsen numbers a crashed worker's successor.
 */
export function renderEdn(txns: readonly RecordedTxn[]): string {
  const process = new Map<string, number>();
  const events: { time: number; order: number; text: string }[] = [];
  for (const t of txns) {
    let p = process.get(t.session);
    if (p === undefined) {
      p = process.size;
      process.set(t.session, p);
    }
    const invoke = `[${t.ops.map((o) => mop(o, false)).join(' ')}]`;
    // Jepsen leaves the reads of a failed or indeterminate transaction unknown.
    const done = t.status === 'committed' ? `[${t.ops.map((o) => mop(o, true)).join(' ')}]` : invoke;
    events.push({ time: t.start, order: 0, text: `{:type :invoke, :f :txn, :value ${invoke}, :process ${p}, :time ${t.start * 1000}}` });
    events.push({ time: t.end, order: 1, text: `{:type ${TYPE[t.status]}, :f :txn, :value ${done}, :process ${p}, :time ${t.end * 1000}}` });
  }
  events.sort((a, b) => a.time - b.time || a.order - b.order);
  return events.map((e, i) => e.text.replace(/}$/, `, :index ${i}}`)).join('\n') + '\n';
}

/** Throws OutputError when the file cannot be written (the old file, if any, is kept). */
export function writeEdn(file: string, txns: readonly RecordedTxn[]): void {
  writeFileAtomicOrThrow(file, [renderEdn(txns)]);
}
