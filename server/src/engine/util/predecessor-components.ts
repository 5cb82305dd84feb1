// Strongly connected components of so ∪ wr ∪ extra (∪ ⊥'s edges) read from the history's columns, without building a CSR.

import { buildListCsr } from './graph.ts';
import { Tarjan, type Components } from './tarjan.ts';

/**
 * The components of so ∪ wr ∪ extra, and with `bottomFirst` of ⊥'s edge into every committed
 * transaction, by an iterative Tarjan over each transaction's predecessors (its session
 * predecessor, the writers its reads saw, the extra edges into it, then ⊥): the reverse graph has
 * the same components. As acyclicByPredecessors, it reads every transaction's predecessors in
 * place instead of scattering one write per read into an out-edge CSR; the numbering differs from
 * stronglyConnected's on the merged CSR, so only callers that compare components (and their
 * sizes) may use it. Measured on the bench's 4M-operation read-committed file at RA (CPU
 * profile): the CSR of so ∪ wr, the merged graph with the extra edges and ⊥'s 500,000 edges, and
 * their components took ~0.6 s; this takes ~0.15 s.
 */
export function componentsByPredecessors(txnCount: number, txnOpStart: Int32Array, txnAborted: Uint8Array, wrSource: Int32Array, soPrev: Int32Array,
  from: Int32Array, to: Int32Array, extraCount: number, bottomFirst: boolean): Components {
  const into = buildListCsr(txnCount, to, from, extraCount, 0); // extra edges grouped by target
  const tarjan = new Tarjan(txnCount);
  const { index } = tarjan;
  const callNode = new Int32Array(txnCount);
  // Per call, where its predecessor scan stands: opStart - 1 for soPrev, then its ops, then its
  // extra in-edges (cursor - opEnd into `into`), then ⊥ (one past them).
  const cursor = new Int32Array(txnCount);
  for (let root = 0; root < txnCount; root++) {
    if (index[root] >= 0) continue;
    let depth = 0;
    callNode[0] = root;
    cursor[0] = txnOpStart[root] - 1;
    tarjan.enter(root);
    while (depth >= 0) {
      const v = callNode[depth];
      const opEnd = txnOpStart[v + 1];
      const committed = txnAborted[v] === 0;
      const extraEnd = opEnd + into.start[v + 1] - into.start[v];
      let c = cursor[depth];
      let w = -1;
      while (w < 0) {
        if (c < txnOpStart[v]) {
          c = txnOpStart[v];
          if (committed) w = soPrev[v];
        } else if (c < opEnd) {
          if (committed) w = wrSource[c];
          c++;
        } else if (c < extraEnd) {
          w = into.target[into.start[v] + (c - opEnd)];
          c++;
        } else if (c === extraEnd && bottomFirst && committed && v !== 0) {
          w = 0; // ⊥ (transaction 0) precedes every committed transaction
          c++;
        } else {
          break;
        }
      }
      cursor[depth] = c;
      if (w < 0) {
        depth--;
        tarjan.leave(v, depth >= 0 ? callNode[depth] : -1);
      } else if (index[w] < 0) {
        tarjan.enter(w);
        depth++;
        callNode[depth] = w;
        cursor[depth] = txnOpStart[w] - 1;
      } else {
        tarjan.seen(v, w);
      }
    }
  }
  return tarjan.result();
}
