// The sentence for one commit order that fails a strong or mixed level: which read breaks, and why.

import { BOTTOM, type History } from '../model/history.ts';
import { levelRow, type Level } from '../levels/levels.ts';
import { writesKey, type ReadsFrom } from '../model/reads-from.ts';
import { sessionPredecessors } from '../model/happens-before.ts';
import type { OrderFailure } from '../strong/verify-order.ts';
import type { Explainer } from './witness.ts';

/**
 * Each sentence states the order's facts in the order's own direction: "T2 … commits after T1"
 * only when T2 comes after T1 in the order listed (witness-sentences.test.ts checks this).
 */
export function orderFailureText(h: History, rf: ReadsFrom, explain: Explainer, levelOf: (t: number) => Level, order: Int32Array, f: OrderFailure): string {
  const t3 = f.txn;
  const level = levelOf(t3);
  const head = `in the commit order ${Array.from(order, (t) => explain.txn(t)).join(', ')}: ${explain.txn(t3)} (at ${level})`;
  const t2 = explain.txn(f.t2);
  // 'ext' and 'rc' name a read (readOp); 'rt' and 'vis' a transaction, which may have no reads.
  const newer = (): string => {
    const t1 = rf.wrSource[f.readOp];
    const x = explain.key(h.opKey[f.readOp]);
    return t1 === BOTTOM ? `which overwrote the initial value of ${x}` : `which also writes ${x} and commits after ${explain.txn(t1)}`;
  };
  switch (f.kind) {
    case 'ext':
      return `${head} ${explain.readPhrase(f.readOp)}, but it sees ${t2} (${whySees(h, rf, level, order, f.t2, t3, explain)}), ${newer()}`;
    case 'rc':
      return `${head} ${explain.readPhrase(f.readOp)} after it ${explain.readPhrase(f.premiseOp)}, ${newer()}`;
    case 'rt':
      return `${head} commits before ${t2}, although ${t2} finished (at ${h.txnTimeEnd?.[f.t2]}) before ${explain.txn(t3)} started (at ${h.txnTimeStart?.[t3]})`;
    case 'vis':
      return `${head} must see ${t2} (${whySees(h, rf, level, order, f.t2, t3, explain)}), but ${t2} commits after ${explain.txn(t3)}`;
  }
}

/** The transactions t sees directly (its session predecessors and the writers it read from), with the phrase for each. */
function direct(h: History, rf: ReadsFrom, soPrev: Int32Array, t: number, explain: Explainer): Map<number, string> {
  const out = new Map<number, string>();
  const name = explain.txn(t);
  for (let u = soPrev[t]; u >= 0; u = soPrev[u]) out.set(u, `${explain.txn(u)} precedes ${name} in session ${h.names.sessionName(h.txnSession[t])}`);
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
    const u = rf.wrSource[o];
    if (u > BOTTOM && !out.has(u)) out.set(u, `${name} ${explain.readPhrase(o)}`);
  }
  return out;
}

/** Why t3, running at `level`, sees t2 under `order`: the rule of its level that makes t2 visible. */
function whySees(h: History, rf: ReadsFrom, level: Level, order: Int32Array, t2: number, t3: number, explain: Explainer): string {
  const a = explain.txn(t2);
  const soPrev = sessionPredecessors(h);
  const seen = direct(h, rf, soPrev, t3, explain);
  const why = seen.get(t2);
  if (why) return why;
  const vis = levelRow(level).visibility;
  if (vis.total) return `at ${level} a transaction sees every transaction that commits before it`;
  if (vis.noConflict) {
    for (let j = rf.writeKeyStart[t3]; j < rf.writeKeyStart[t3 + 1]; j++) {
      if (writesKey(rf, t2, rf.writeKeys[j])) return `at ${level} a transaction sees the earlier writers of the keys it writes, and both write ${explain.key(rf.writeKeys[j])}`;
    }
  }
  const pos = new Map<number, number>();
  order.forEach((t, i) => pos.set(t, i));
  for (const [u, phrase] of seen) {
    if (vis.prefix && (pos.get(u) ?? -1) > (pos.get(t2) ?? -1)) {
      return `at ${level} a transaction sees every transaction that commits before one it sees, and ${a} commits before ${explain.txn(u)}: ${phrase}`;
    }
    const via = direct(h, rf, soPrev, u, explain).get(t2);
    if (vis.transitive && via) return `at ${level} a transaction sees what the transactions it sees saw: ${phrase}, and ${via}`;
  }
  return vis.prefix
    ? `at ${level} a transaction sees every transaction that commits before one it sees`
    : `at ${level} a transaction sees what the transactions it sees saw`;
}
