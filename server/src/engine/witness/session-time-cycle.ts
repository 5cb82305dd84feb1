// A cycle of session order and real time alone: a history whose clocks contradict its sessions breaks SSER with no read involved.

import { EdgeList } from '../model/edges.ts';
import { sessionPredecessors } from '../model/happens-before.ts';
import type { History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { forEachRealTimeEdge } from '../strong/real-time.ts';
import { buildListCsr, stronglyConnected } from '../util/graph.ts';
import { realTimeEdge } from './strong-witness.ts';
import { Explainer, type WitnessEdge } from './witness.ts';

const SO = 0;
const RT = 1;

/**
 * The shortest cycle through the first node of the first cyclic component of so ∪ rt (rt into the
 * transactions `realTime` names), as witness edges; null when so ∪ rt is acyclic. Linear in the
 * history (Tarjan, then one breadth-first search), so it serves histories of any size.
 */
export function sessionTimeCycle(h: History, rf: ReadsFrom, realTime: (t: number) => boolean): WitnessEdge[] | null {
  if (!h.txnTimeStart) return null;
  const edges = new EdgeList();
  const soPrev = sessionPredecessors(h);
  for (let t = 1; t < h.txnCount; t++) if (soPrev[t] > 0 && h.txnAborted[t] === 0) edges.add(soPrev[t], t, SO);
  forEachRealTimeEdge(h, realTime, (t1, t2) => edges.add(t1, t2, RT));
  if (edges.length === 0) return null;
  const g = buildListCsr(h.txnCount, edges.from.data, edges.to.data, edges.length, 0);
  const { comp, size } = stronglyConnected(g, null);
  let root = -1;
  for (let v = 1; v < h.txnCount && root < 0; v++) if (size[comp[v]] > 1) root = v;
  if (root < 0) return null;
  // Breadth-first from root inside its component, back to root: the edge that reached each node.
  const via = new Int32Array(h.txnCount).fill(-1);
  const queue = [root];
  let closing = -1;
  for (let i = 0; i < queue.length && closing < 0; i++) {
    const v = queue[i];
    for (let p = g.start[v]; p < g.start[v + 1]; p++) {
      const w = g.target[p];
      if (comp[w] !== comp[root]) continue;
      if (w === root) {
        closing = g.edgeId[p];
        break;
      }
      if (via[w] >= 0) continue;
      via[w] = g.edgeId[p];
      queue.push(w);
    }
  }
  if (closing < 0) return null;
  const explain = new Explainer(h, rf, null);
  const ids: number[] = [closing];
  for (let v = edges.from.data[closing]; v !== root; v = edges.from.data[via[v]]) ids.push(via[v]);
  return explain.sessionRuns(ids.reverse().map((e) => {
    const from = edges.from.data[e];
    const to = edges.to.data[e];
    return edges.kind.data[e] === SO ? explain.edge({ from, to, kind: 0, a: -1, b: -1 }) : realTimeEdge(h, explain, from, to);
  }));
}
