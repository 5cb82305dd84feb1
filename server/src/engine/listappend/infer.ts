// List-append inference: which transactions count, each key's version order, non-cyclic findings, and the so/wr/ww/rw edges.

import { CappedFindings, finding, MAX_FINDINGS_PER_CODE, type Finding } from '../model/diagnostics.ts';
import { OP_APPEND, OP_LIST_READ, sourceOf, type History } from '../model/history.ts';
import { opSpan, txnSpan } from '../model/reads-from.ts';
import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';
import { appendOrderFindings } from './append-order.ts';
import { listOf, listText, listTextShort } from './list-text.ts';

export const LK_SO = 0;
export const LK_WR = 1;
export const LK_WW = 2;
export const LK_RW = 3;
export const LK_RT = 4;
export const LIST_EDGE_NAMES = ['so', 'wr', 'ww', 'rw', 'rt'] as const;
export type ListEdgeName = (typeof LIST_EDGE_NAMES)[number];

/**
 * The direct serialization graph as parallel columns. `op` is the list read that shows the edge
 * (-1 for so and rt, and for a ww edge to an append nobody read); `a`/`b` are the value ids of the
 * two elements involved (-1: none, e.g. the empty list).
 */
export class ListEdges {
  readonly from = new Int32Vec(256);
  readonly to = new Int32Vec(256);
  readonly kind = new Uint8Vec(256);
  readonly key = new Int32Vec(256);
  readonly op = new Int32Vec(256);
  readonly a = new Int32Vec(256);
  readonly b = new Int32Vec(256);
  get length(): number {
    return this.from.length;
  }
  /** A copy to extend (with a choice of commit order between unordered appends). */
  clone(): ListEdges {
    const c = new ListEdges();
    for (const col of ['from', 'to', 'key', 'op', 'a', 'b'] as const) {
      c[col].reserve(this[col].length);
      c[col].data.set(this[col].data.subarray(0, this[col].length));
      c[col].length = this[col].length;
    }
    c.kind.reserve(this.kind.length);
    c.kind.data.set(this.kind.data.subarray(0, this.kind.length));
    c.kind.length = this.kind.length;
    return c;
  }

  /** Room for n edges in every column (one growth instead of many on large histories). */
  reserve(n: number): void {
    for (const col of [this.from, this.to, this.key, this.op, this.a, this.b]) col.reserve(n);
    this.kind.reserve(n);
  }

  add(from: number, to: number, kind: number, key: number, op: number, a: number, b: number): void {
    this.from.push(from);
    this.to.push(to);
    this.kind.push(kind);
    this.key.push(key);
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
  }
}

export interface ListInference {
  h: History;
  /** 1: in the graph (committed, or unknown and observed by a transaction in the graph). */
  included: Uint8Array;
  /** 1: the key holds lists (an append or a list read). */
  listKey: Uint8Array;
  /** Each key's version order: value ids verElems[verStart[k] .. verStart[k+1]). */
  verStart: Int32Array;
  verElems: Int32Array;
  /** The list read that shows each key's whole version order (-1: none). */
  longestRead: Int32Array;
  /** Per append op: its position in its key's version order, -1 when no read observed it. */
  appendPos: Int32Array;
  /** Per list read: 1 when it is external (no earlier append of the key in its transaction). */
  external: Uint8Array;
  /** Per list read: 1 when it is a prefix of its key's version order (it has a place in it). */
  prefixRead: Uint8Array;
  /** The append op that appended value v to key k, or -1. */
  appenderOf(k: number, v: number): number;
  edges: ListEdges;
  /** Per list read of an included transaction: its source (the transaction of its wr edge), -1 for the initial state or none. */
  source: Int32Array;
  /** Per key, the included transactions whose append to it no read observed: unTxns[unStart[k] .. unStart[k+1]). */
  unStart: Int32Array;
  unTxns: Int32Array;
  /** Findings that break every level: garbage, G1a, G1b, future, duplicate, incompatible, internal, dirty update. */
  findings: Finding[];
  /**
   * Reads that disagree with their own transaction's earlier read of the key (committed
   * transactions; that read plus the transaction's own appends since, in order, is what they
   * must return): [read, earlier read] pairs. Elle's `internal` too, but not a finding above: it
   * breaks RA and the levels above, not RC (the anomaly table's `internal` row).
   */
  rereads: [number, number][];
  /** Rereads past the MAX_FINDINGS_PER_CODE kept in `rereads` (counted, not listed). */
  rereadsHidden: number;
  /** Whether a finding above makes every level fail. */
  inconsistent: boolean;
  /**
   * rw edges from readers of a key's last version to its unread appends left out past
   * MAX_UNREAD_RW (0 when none): the levels that hold on the rest are undecided (list-levels.ts).
   */
  unreadRwLeftOut: number;
}

/**
 * rw edges from readers of a key's whole version order to the appends nobody read (one per pair:
 * n readers that each append unread make n²; 8,000 of them, a 332 KB file, made 64M edges and
 * 6 GB) kept at most: past it the rest are left out and counted, and no level is said to hold.
 */
export const MAX_UNREAD_RW = 8_000_000;

const NO_SPAN = { start: 0, end: 0 };

export function hasListOps(h: History): boolean {
  for (let o = 0; o < h.opCount; o++) if (h.opKind[o] === OP_APPEND || h.opKind[o] === OP_LIST_READ) return true;
  return false;
}

/** maxUnreadRw: MAX_UNREAD_RW unless a test asks for less. */
export function inferListAppend(h: History, maxUnreadRw = MAX_UNREAD_RW): ListInference {
  const { opCount, opKind, opKey, opValue, opTxn, txnCount, txnOpStart, txnAborted } = h;
  const unknown = h.txnUnknown ?? new Uint8Array(txnCount);
  const names = h.names;
  const findings = new CappedFindings();
  const listKey = new Uint8Array(h.keyCount);
  let valueCount = 0;
  for (let o = 0; o < opCount; o++) {
    if (opKind[o] === OP_APPEND || opKind[o] === OP_LIST_READ) listKey[opKey[o]] = 1;
    if (opValue[o] + 1 > valueCount) valueCount = opValue[o] + 1;
  }
  const elemsAll = h.listElems ?? new Int32Array(0);
  for (let i = 0; i < elemsAll.length; i++) if (elemsAll[i] + 1 > valueCount) valueCount = elemsAll[i] + 1;

  // Who appended each element: values are usually unique across keys, so one array and a map for the rest.
  const byValue = new Int32Array(valueCount).fill(-1);
  const byKeyValue = new Map<number, number>();
  const appenderOf = (k: number, v: number): number => {
    if (v < 0 || v >= valueCount) return -1;
    const o = byValue[v];
    if (o >= 0 && opKey[o] === k) return o;
    return byKeyValue.get(k * valueCount + v) ?? -1;
  };
  for (let o = 0; o < opCount; o++) {
    if (opKind[o] !== OP_APPEND) continue;
    const k = opKey[o];
    const v = opValue[o];
    const prev = appenderOf(k, v);
    if (prev >= 0) {
      findings.push(finding('duplicate-element', 'error',
        `${names.valueText(v)} is appended to ${names.keyName(k)} twice (also by ${names.txnName(opTxn[prev])}): elements must be unique per key`, opSpan(h, o),
        [{ span: opSpan(h, prev), message: 'the first append' }]));
      continue;
    }
    if (byValue[v] < 0) byValue[v] = o;
    else byKeyValue.set(k * valueCount + v, o);
  }

  // Inclusion: committed transactions, and unknown ones whose effects an included read observed.
  const included = new Uint8Array(txnCount);
  const work = new Int32Vec(64);
  for (let t = 1; t < txnCount; t++) {
    if (txnAborted[t] === 0 && unknown[t] === 0) {
      included[t] = 1;
      work.push(t);
    }
  }
  // Only an element appended by a transaction outside the graph (and not aborted) can include one:
  // mark those values, so the scan below is one byte lookup per element (most histories mark none).
  const ls = h.opListStart ?? new Int32Array(opCount + 1);
  const maybe = new Uint8Array(valueCount);
  let anyMaybe = false;
  for (let o = 0; o < opCount; o++) {
    if (opKind[o] !== OP_APPEND || included[opTxn[o]] === 1 || txnAborted[opTxn[o]] === 1 || opValue[o] < 0) continue;
    maybe[opValue[o]] = 1;
    anyMaybe = true;
  }
  if (!anyMaybe) work.length = 0;
  while (work.length > 0) {
    const t = work.data[--work.length];
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) {
      if (opKind[o] !== OP_LIST_READ) continue;
      for (let i = ls[o]; i < ls[o + 1]; i++) {
        if (maybe[elemsAll[i]] !== 1) continue;
        const a = appenderOf(opKey[o], elemsAll[i]);
        if (a < 0) continue;
        const u = opTxn[a];
        if (included[u] === 0 && txnAborted[u] === 0) {
          included[u] = 1;
          work.push(u);
        }
      }
    }
  }

  // The version order of each key: its longest read among the included transactions' reads.
  const longestRead = new Int32Array(h.keyCount).fill(-1);
  for (let o = 0; o < opCount; o++) {
    if (opKind[o] !== OP_LIST_READ || included[opTxn[o]] === 0) continue;
    const k = opKey[o];
    const cur = longestRead[k];
    if (cur < 0 || listLength(h, o) > listLength(h, cur)) longestRead[k] = o;
  }
  const verStart = new Int32Array(h.keyCount + 1);
  for (let k = 0; k < h.keyCount; k++) verStart[k + 1] = verStart[k] + (longestRead[k] >= 0 ? listLength(h, longestRead[k]) : 0);
  const verElems = new Int32Array(verStart[h.keyCount]);
  const appendPos = new Int32Array(opCount).fill(-1);
  /** The append op of each version (appenderOf, looked up once: the passes below read it). */
  const verApp = new Int32Array(verElems.length);
  for (let k = 0; k < h.keyCount; k++) {
    if (longestRead[k] < 0) continue;
    const list = listOf(h, longestRead[k]);
    verElems.set(list, verStart[k]);
    for (let i = 0; i < list.length; i++) {
      const a = appenderOf(k, list[i]);
      verApp[verStart[k] + i] = a;
      if (a >= 0 && appendPos[a] < 0) appendPos[a] = i;
    }
  }

  // Per key: how many leading versions are clean (appended once, by a transaction that did not
  // abort). A read that is a prefix of the version order within them needs no per-element checks.
  const cleanLen = new Int32Array(h.keyCount);
  const seen = new Int32Array(valueCount).fill(-1);
  for (let k = 0; k < h.keyCount; k++) {
    let i = verStart[k];
    for (; i < verStart[k + 1]; i++) {
      const v = verElems[i];
      const a = verApp[i];
      if (a < 0 || txnAborted[opTxn[a]] === 1 || seen[v] === k) break;
      seen[v] = k;
    }
    cleanLen[k] = i - verStart[k];
  }
  seen.fill(-1);

  // Per-read checks, at the read: duplicates, garbage, G1a, future, internal, G1b, incompatible order.
  // Spans, key names and list subarrays are made only for a finding: this loop runs once per read.
  const external = new Uint8Array(opCount);
  const rereads: [number, number][] = [];
  let rereadsHidden = 0;
  /** 1: the list read is a prefix of its key's version order (it has a place in it). */
  const prefixRead = new Uint8Array(opCount);
  const incompatibleKeys = new Uint8Array(h.keyCount);
  for (let t = 1; t < txnCount; t++) {
    if (included[t] === 0) continue;
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) {
      if (opKind[o] !== OP_LIST_READ) continue;
      const k = opKey[o];
      const ls0 = ls[o];
      const n = ls[o + 1] - ls0;
      const v0 = verStart[k];
      const verLen = verStart[k + 1] - v0;
      // d: the length of the common prefix of the read and the version order.
      let d = 0;
      while (d < n && d < verLen && elemsAll[ls0 + d] === verElems[v0 + d]) d++;
      if (d === n) prefixRead[o] = 1;
      // Own appends of k before this read, in program order.
      let ownBefore = 0;
      for (let p = txnOpStart[t]; p < o; p++) if (opKind[p] === OP_APPEND && opKey[p] === k) ownBefore++;
      external[o] = ownBefore === 0 ? 1 : 0;
      let ownSeen = 0;
      let bad = false;
      let internal = false;
      let fast = d === n && n <= cleanLen[k];
      if (fast) {
        // Clean prefix: the elements this transaction appended are its appends placed before n.
        for (let p = txnOpStart[t]; p < txnOpStart[t + 1]; p++) {
          if (opKind[p] !== OP_APPEND || opKey[p] !== k || appendPos[p] < 0 || appendPos[p] >= n) continue;
          if (p > o) fast = false; // a future read: the general loop below reports it
          else ownSeen++;
        }
      }
      const list = fast ? elemsAll : listOf(h, o);
      const span = fast ? NO_SPAN : opSpan(h, o);
      const keyName = fast ? '' : names.keyName(k);
      if (!fast) ownSeen = 0;
      for (let i = 0; i < list.length && !fast; i++) {
        const v = list[i];
        if (seen[v] === o) {
          findings.push(finding('duplicate-element', 'error', `${names.valueText(v)} appears twice in this read of ${keyName}`, span));
          bad = true;
          continue;
        }
        seen[v] = o;
        const a = appenderOf(k, v);
        if (a < 0) {
          // Past the cap only counted: a read of n garbage elements is n findings.
          if (findings.wants('garbage-read')) findings.push(finding('garbage-read', 'error', `${keyName} = ${listTextShort(h, list)} holds ${names.valueText(v)}, which no transaction appended to ${keyName}`, span));
          else findings.skip('garbage-read', 'error', span);
          bad = true;
          continue;
        }
        const u = opTxn[a];
        if (txnAborted[u] === 1) {
          findings.push(finding('aborted-read', 'error', `read ${names.valueText(v)} from ${keyName}, appended by ${names.txnName(u)}, which aborted (G1a)`, span,
            [{ span: opSpan(h, a), message: 'the aborted append' }]));
          bad = true;
        } else if (u === t) {
          if (a > o) {
            findings.push(finding('future-read', 'error', `read ${names.valueText(v)} from ${keyName} before this transaction appends it`, span,
              [{ span: opSpan(h, a), message: 'the later append' }]));
            bad = true;
          } else ownSeen++;
        }
      }
      // Internal: after own appends, the list ends with exactly them, in order (reported beside
      // garbage or aborted elements in the same read, as Elle does).
      if (ownBefore > 0 || ownSeen > 0) {
        let ok = ownSeen === ownBefore && n >= ownBefore;
        if (ok) {
          let i = ls0 + n - ownBefore;
          for (let p = txnOpStart[t]; p < o && ok; p++) if (opKind[p] === OP_APPEND && opKey[p] === k) ok = elemsAll[i++] === opValue[p];
        }
        if (!ok) {
          const keyName = names.keyName(k);
          findings.push(finding('internal', 'error',
            `${keyName} = ${listTextShort(h, listOf(h, o))} does not end with this transaction's own ${ownBefore} earlier append${ownBefore === 1 ? '' : 's'} to ${keyName}`, opSpan(h, o)));
          internal = true;
        }
      }
      // Internal, read after read: an earlier read of k in this transaction, plus the own appends
      // since (their values were just checked as this list's tail), is what this read must return
      // (also when the list holds garbage, as Elle reports).
      if (txnAborted[t] === 0 && !internal) {
        let since = 0;
        let prev = -1;
        for (let p = o - 1; p >= txnOpStart[t] && prev < 0; p--) {
          if (opKey[p] !== k) continue;
          if (opKind[p] === OP_APPEND) since++;
          else if (opKind[p] === OP_LIST_READ) prev = p;
        }
        if (prev >= 0) {
          const p0 = ls[prev];
          const m = ls[prev + 1] - p0;
          let same = n === m + since;
          for (let i = 0; i < m && same; i++) same = elemsAll[ls0 + i] === elemsAll[p0 + i];
          if (!same && rereads.length < MAX_FINDINGS_PER_CODE) rereads.push([o, prev]);
          else if (!same) rereadsHidden++;
        }
      }
      // G1b: the last element's writer appended to k again later (a read with a bad element or a
      // wrong tail has no version to be intermediate).
      if (!bad && !internal && external[o] === 1 && n > 0) {
        const a = d === n ? verApp[v0 + n - 1] : appenderOf(k, elemsAll[ls0 + n - 1]);
        const u = opTxn[a];
        for (let p = a + 1; p < txnOpStart[u + 1]; p++) {
          if (opKind[p] === OP_APPEND && opKey[p] === k) {
            const list = listOf(h, o);
            findings.push(finding('intermediate-read', 'error',
              `read ${names.keyName(k)} = ${listTextShort(h, list)}, ending with ${names.valueText(list[list.length - 1])}, which ${names.txnName(u)} followed with ${names.valueText(opValue[p])} (G1b)`, opSpan(h, o),
              [{ span: opSpan(h, p), message: 'the later append' }]));
            break;
          }
        }
      }
      // `r(k, [… e]) <- T` names the read's source, as `r(k, v) <- T` does a register's writer: T
      // must have appended e (the last element); `[]` is the initial state's list, no one's append.
      const named = sourceOf(h, o);
      const last = named >= 0 && n > 0 ? appenderOf(k, elemsAll[ls0 + n - 1]) : -1;
      if (named >= 0 && (n === 0 || (last >= 0 && opTxn[last] !== named))) {
        const list = listOf(h, o);
        const shown = `${names.keyName(k)} = ${listTextShort(h, list)}`;
        findings.push(finding('thin-air', 'error', n === 0
          ? `${names.txnName(t)} read ${shown} from ${names.txnName(named)}, but the empty list is the initial state, which no transaction appended`
          : `${names.txnName(t)} read ${shown} from ${names.txnName(named)}, but its last element ${names.valueText(list[n - 1])} was appended by ${names.txnName(opTxn[last])}`,
        opSpan(h, o), last >= 0 ? [{ span: opSpan(h, last), message: 'the append of the last element' }] : []));
      }
      // Every read is a prefix of the longest one: also a read with a bad element or a wrong tail
      // (Elle compares every read of a key), so whether it is reported does not depend on the others.
      if (d < n) {
        const list = listOf(h, o);
        const span = opSpan(h, o);
        const keyName = names.keyName(k);
        const ver = verElems.subarray(verStart[k], verStart[k + 1]);
        const other = longestRead[k];
        const msg = (mine: Int32Array, theirs: Int32Array, at: number): string =>
          `incompatible order of ${keyName}: ${listTextShort(h, mine)} and ${listTextShort(h, theirs)} differ at position ${at + 1} (${names.valueText(mine[at])} vs ${at < theirs.length ? names.valueText(theirs[at]) : 'nothing'}): neither is a prefix of the other`;
        // At the reading transactions' headers (the spec's place for it), the two reads related.
        findings.push(finding('incompatible-order', 'error', msg(list, ver, d), txnSpan(h, t),
          [{ span, message: `this read of ${keyName}` }, { span: opSpan(h, other), message: `the longest read of ${keyName}` }]));
        if (incompatibleKeys[k] === 0) {
          incompatibleKeys[k] = 1;
          findings.push(finding('incompatible-order', 'error', msg(ver, list, d), txnSpan(h, opTxn[other]),
            [{ span: opSpan(h, other), message: `the longest read of ${keyName}` }, { span, message: `a read of ${keyName} that disagrees` }]));
        }
      }
    }
  }

  appendOrderFindings(h, { verStart, verApp, longestRead, incompatibleKeys }, findings);

  // Dirty update: a committed append after an aborted element in the version order.
  for (let k = 0; k < h.keyCount; k++) {
    let abortedAt = -1;
    for (let i = verStart[k]; i < verStart[k + 1]; i++) {
      const a = verApp[i];
      if (a < 0) continue;
      const u = opTxn[a];
      if (txnAborted[u] === 1) {
        if (abortedAt < 0) abortedAt = a;
      } else if (abortedAt >= 0 && included[u] === 1) {
        findings.push(finding('dirty-update', 'error',
          `${names.txnName(u)} appended ${names.valueText(verElems[i])} to ${names.keyName(k)} after ${names.valueText(opValue[abortedAt])}, appended by ${names.txnName(opTxn[abortedAt])}, which aborted`,
          opSpan(h, a), [{ span: opSpan(h, abortedAt), message: 'the aborted append' }]));
        break;
      }
    }
  }

  const found = findings.done();
  const { edges, source, unStart, unTxns, unreadRwLeftOut } = buildEdges(h, included, verStart, verElems, verApp, longestRead, appendPos, external, prefixRead, appenderOf, maxUnreadRw);
  return {
    h, included, listKey, verStart, verElems, longestRead, appendPos, external, prefixRead, appenderOf, edges, source, unStart, unTxns,
    findings: found, rereads, rereadsHidden, unreadRwLeftOut,
    inconsistent: found.some((f) => f.severity === 'error'),
  };
}

function listLength(h: History, o: number): number {
  const s = h.opListStart as Int32Array;
  return s[o + 1] - s[o];
}

function buildEdges(h: History, included: Uint8Array, verStart: Int32Array, verElems: Int32Array, verApp: Int32Array, longestRead: Int32Array,
  appendPos: Int32Array, external: Uint8Array, prefixRead: Uint8Array, appenderOf: (k: number, v: number) => number, maxUnreadRw: number): { edges: ListEdges; source: Int32Array; unStart: Int32Array; unTxns: Int32Array; unreadRwLeftOut: number } {
  const { opCount, opKind, opKey, opValue, opTxn, txnCount, txnOpStart } = h;
  const e = new ListEdges();
  const ls = h.opListStart ?? new Int32Array(opCount + 1);
  const elems = h.listElems ?? new Int32Array(0);
  // so ≤ one per transaction, wr and rw about one per read, ww about one per version: one allocation.
  let reads = 0;
  for (let o = 0; o < opCount; o++) if (opKind[o] === OP_LIST_READ) reads++;
  e.reserve(txnCount + 2 * reads + verElems.length + 16);
  // so: consecutive included transactions of each session.
  for (let s = 0; s < h.sessionCount; s++) {
    let last = -1;
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      if (included[t] === 0) continue;
      if (last >= 0) e.add(last, t, LK_SO, -1, -1, -1, -1);
      last = t;
    }
  }
  // Unobserved appenders per key (first unobserved append of each transaction), as a CSR.
  const unStart = new Int32Array(h.keyCount + 1);
  const lastKeyOfTxn = new Int32Array(h.keyCount).fill(-1);
  const isUnobserved = (o: number): boolean => opKind[o] === OP_APPEND && appendPos[o] < 0 && included[opTxn[o]] === 1 && appenderOf(opKey[o], opValue[o]) === o;
  for (let o = 0; o < opCount; o++) {
    if (!isUnobserved(o)) continue;
    if (lastKeyOfTxn[opKey[o]] === opTxn[o]) continue;
    lastKeyOfTxn[opKey[o]] = opTxn[o];
    unStart[opKey[o] + 1]++;
  }
  for (let k = 0; k < h.keyCount; k++) unStart[k + 1] += unStart[k];
  const unOps = new Int32Array(unStart[h.keyCount]);
  const fill = unStart.slice(0, h.keyCount);
  lastKeyOfTxn.fill(-1);
  for (let o = 0; o < opCount; o++) {
    if (!isUnobserved(o)) continue;
    if (lastKeyOfTxn[opKey[o]] === opTxn[o]) continue;
    lastKeyOfTxn[opKey[o]] = opTxn[o];
    unOps[fill[opKey[o]]++] = o;
  }
  // ww: consecutive versions by different transactions; the last version's writer precedes every unobserved append.
  for (let k = 0; k < h.keyCount; k++) {
    let prevTxn = -1;
    let prevVal = -1;
    for (let i = verStart[k]; i < verStart[k + 1]; i++) {
      const a = verApp[i];
      if (a < 0 || included[opTxn[a]] === 0) {
        prevTxn = -1;
        continue;
      }
      const t = opTxn[a];
      if (prevTxn >= 0 && prevTxn !== t) e.add(prevTxn, t, LK_WW, k, longestRead[k], prevVal, verElems[i]);
      prevTxn = t;
      prevVal = verElems[i];
    }
    if (prevTxn < 0) continue;
    for (let j = unStart[k]; j < unStart[k + 1]; j++) {
      const u = opTxn[unOps[j]];
      if (u !== prevTxn) e.add(prevTxn, u, LK_WW, k, -1, prevVal, opValue[unOps[j]]);
    }
  }
  // wr: from the appender of the last element the read did not append itself (the read's source).
  // The appenders of the earlier elements precede it in ww, which stands in for their edges on
  // reachability; the levels that need every observed appender (RC, RA, CC premises) read them
  // from the lists, and the cycle search adds them where a cycle can use one (causality.ts).
  const source = new Int32Array(opCount).fill(-1);
  // rw edges to unread appends: kept up to MAX_UNREAD_RW, then counted (a reader's whole set either way).
  let unreadRw = 0;
  let unreadRwLeftOut = 0;
  for (let t = 1; t < txnCount; t++) {
    if (included[t] === 0) continue;
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) {
      if (opKind[o] !== OP_LIST_READ) continue;
      const k = opKey[o];
      // A prefix of the version order has its appenders in verApp.
      const pre = prefixRead[o] === 1;
      const off = verStart[k] - ls[o];
      // The source: the last element's appender, past the read's own appends and aborted ones (a
      // G1a error already; the read still shows what it observed of the others).
      let src = -1;
      for (let i = ls[o + 1] - 1; i >= ls[o] && src < 0; i--) {
        const a = pre ? verApp[off + i] : appenderOf(k, elems[i]);
        if (a < 0 || opTxn[a] === t || included[opTxn[a]] === 0) continue;
        src = opTxn[a];
        source[o] = src;
        e.add(src, t, LK_WR, k, o, elems[i], -1);
      }
      if (external[o] === 0) continue;
      const n = ls[o + 1] - ls[o];
      const verLen = verStart[k + 1] - verStart[k];
      // Only reads that are a prefix of the version order have a place in it.
      if (prefixRead[o] === 0) continue;
      const last = n > 0 ? elems[ls[o] + n - 1] : -1;
      // Never to the source itself: the axioms' t2 ≠ t1 (a read of a transaction's later append that
      // misses its earlier one orders nothing; by the axioms every level holds there).
      if (n < verLen) {
        const a = verApp[verStart[k] + n];
        if (a >= 0 && included[opTxn[a]] === 1 && opTxn[a] !== t && opTxn[a] !== src) e.add(t, opTxn[a], LK_RW, k, o, last, verElems[verStart[k] + n]);
      } else if (unreadRw + unStart[k + 1] - unStart[k] > maxUnreadRw) {
        unreadRwLeftOut += unStart[k + 1] - unStart[k];
      } else {
        unreadRw += unStart[k + 1] - unStart[k];
        for (let j = unStart[k]; j < unStart[k + 1]; j++) {
          const u = opTxn[unOps[j]];
          if (u !== t && u !== src) e.add(t, u, LK_RW, k, o, last, opValue[unOps[j]]);
        }
      }
    }
  }
  return { edges: e, source, unStart, unTxns: unOps.map((o) => opTxn[o]), unreadRwLeftOut };
}

export { listOf, listText, listTextShort };
