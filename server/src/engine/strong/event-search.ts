// PC, SI and SER at scale before the exhaustive search: necessary conditions, then a guided completion checked exactly.

import type { History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { EventGraph } from './event-propagation.ts';

export type EventDecision =
  | { kind: 'violated' }
  | { kind: 'consistent'; order: Int32Array }
  /** Undecided here: what the exhaustive search should know (sound event edges, a rank per event), if anything. */
  | { kind: 'search'; events: { from: Int32Array; to: Int32Array; length: number } | null; rank: Int32Array | null; tooLarge?: string }
  | { kind: 'stopped' };

export interface EventSearchInput {
  h: History;
  rf: ReadsFrom;
  mode: Uint8Array;
  precedence: { from: Int32Array; to: Int32Array; length: number };
  /** True when an order that passes the event check is a valid order (no CC or PSI readers beside snapshot levels). */
  exact: boolean;
  maxEntries: number;
  /** True once the time is up or the analysis was stopped: the answer is then 'stopped' (undecided), never another one. */
  timeUp: () => boolean;
  /** Per transaction: 1 for PSI readers (their lost updates are ruled out too); see EventGraphInput.psi. */
  psi?: Uint8Array;
  /** Phases and their figures (work, not time: the engine reads no clock but through timeUp), for the bench. */
  log?: (line: string) => void;
}

/** Work bounds in merged clock entries (machine-independent, so they never make the answer depend on load). */
const SOUND_STEPS = 6e9;
const COMPLETION_STEPS = 12e9;
/** Completion passes: check the order, guess a side for each failed constraint, propagate. */
const REPAIR_ROUNDS = 40;

/**
 * 1. Unit propagation of the polygraph constraints (EventGraph) to a fixpoint: a cycle proves a
 *    violation. 2. The order of events closest to the sessions running side by side, checked
 *    exactly; each failing constraint gets a guess (the side that moves its events least, else
 *    the other side), propagated at once; a guess whose two sides both contradict ends this step
 *    (no backtracking over earlier guesses: this step can only find orders, never refute).
 *    3. Whatever is left goes to the exhaustive search, with the sound edges and the last order
 *    as its rank.
 */
export function decideByEvents(input: EventSearchInput): EventDecision {
  const log = input.log;
  const lap = (what: string): void => log?.(what);
  const built = EventGraph.build({ h: input.h, rf: input.rf, mode: input.mode, precedence: input.precedence, maxEntries: input.maxEntries, psi: input.psi });
  lap('event graph and clocks');
  if (built === 'violated') return { kind: 'violated' };
  if ('tooLarge' in built) return { kind: 'search', events: null, rank: null, tooLarge: built.tooLarge };
  const g = built;
  // The order of the sessions side by side, checked exactly before any propagation: many recorded
  // histories hold in it. The completion below would take the same order first (an order that
  // passes respects every derived edge, so the same greedy choice picks the same event at every
  // step), but only after the propagation, whose derived edges can be quadratic: 1,000
  // one-transaction sessions reading one key's initial value and writing it, at PC, took 3 s.
  if (input.exact) {
    const first = g.linearOrder();
    const failures = g.check(first, null);
    lap(`the sessions side by side: ${failures === 0 ? 'consistent' : `${failures} failed constraints`}`);
    if (failures === 0) return { kind: 'consistent', order: commitOrder(first) };
  }
  const timeUp = input.timeUp;
  const r = g.propagateAll(SOUND_STEPS, timeUp, log);
  lap(`necessary conditions (${g.edgeCount} edges, ${(g.steps / 1e6).toFixed(0)}M steps, ${g.examined} looks): ${r}`);
  if (r === 'violated') return { kind: 'violated' };
  if (r === 'timeout') return { kind: 'stopped' };
  const events = g.soundEdges();
  let order = g.linearOrder();
  if (!input.exact || r === 'stopped') return { kind: 'search', events, rank: rankOf(order, g.nodes) };
  for (let attempt = 0; attempt < REPAIR_ROUNDS; attempt++) {
    const pos = rankOf(order, g.nodes);
    const fixes = new Int32Vec(64);
    const failures = g.check(order, (a, b, c, d) => {
      fixes.push(a);
      fixes.push(b);
      fixes.push(c);
      fixes.push(d);
    });
    lap(`completion pass ${attempt + 1}: ${failures} failed constraints`);
    if (failures === 0) return { kind: 'consistent', order: commitOrder(order) };
    const f = fixes.data;
    for (let i = 0; i < fixes.length; i += 4) {
      const [a, b, c, d] = [f[i], f[i + 1], f[i + 2], f[i + 3]];
      if ((g.reach(a, b) && a !== b) || (g.reach(c, d) && c !== d)) continue;
      const [x, y] = g.prefer(a, b, c, d, pos);
      const [ox, oy] = x === a && y === b ? [c, d] : [a, b];
      const mark = g.checkpoint();
      let p = g.guess(x, y, COMPLETION_STEPS, timeUp);
      if (p === 'violated') {
        g.undo(mark[0], mark[1]);
        p = g.guess(ox, oy, COMPLETION_STEPS, timeUp);
      }
      if (p === 'timeout') return { kind: 'stopped' };
      if (p !== 'done') {
        lap(`completion gave up (${p})`);
        return { kind: 'search', events, rank: pos };
      }
    }
    order = g.linearOrder();
  }
  return { kind: 'search', events, rank: rankOf(order, g.nodes) };
}

/**
 * PSI (beside RC, RA, CC) at any size, necessary conditions only: the event rules for PSI readers'
 * reads of keys they also write. 'violated' is a proof; 'open' decides nothing.
 */
export function refuteByEvents(input: EventSearchInput): 'violated' | 'open' | 'stopped' {
  const built = EventGraph.build({ h: input.h, rf: input.rf, mode: input.mode, precedence: input.precedence, maxEntries: input.maxEntries, psi: input.psi });
  if (built === 'violated') return 'violated';
  if ('tooLarge' in built) return 'open';
  const timeUp = input.timeUp;
  const r = built.propagateAll(SOUND_STEPS, timeUp);
  input.log?.(`PSI necessary conditions (${built.edgeCount} edges, ${(built.steps / 1e6).toFixed(0)}M steps): ${r}`);
  return r === 'violated' ? 'violated' : r === 'timeout' ? 'stopped' : 'open';
}

function rankOf(order: Int32Array, nodes: number): Int32Array {
  const rank = new Int32Array(nodes).fill(0x7fffffff);
  for (let i = 0; i < order.length; i++) rank[order[i]] = i;
  return rank;
}

/** The transactions in the order of their commit events. */
function commitOrder(order: Int32Array): Int32Array {
  const out = new Int32Array(order.length >> 1);
  let n = 0;
  for (let i = 0; i < order.length; i++) if ((order[i] & 1) === 1) out[n++] = order[i] >> 1;
  return out;
}
