// Recovers the write-read relation from unique values and reports read-consistency violations.

import { CappedFindings, finding, type Finding, type Span } from './diagnostics.ts';
import { BOTTOM, INIT_VALUE, NO_VALUE, OP_READ, OP_WRITE, type History } from './history.ts';
import { WriterIndex } from './writer-index.ts';

export interface ReadsFrom {
  /** Per op: the writer of an external read usable by the level checks (committed reader, sound source), else -1. */
  wrSource: Int32Array;
  /** Per op: the write op a read observed (-1 when none or ⊥); for hovers and go-to-definition, derived from observedTxn on first use. */
  readonly observedWrite: Int32Array;
  /** Per op: the txn a read observed (⊥ = 0) whatever its soundness, or -1 when none. */
  observedTxn: Int32Array;
  /** CSR of the distinct keys each transaction writes, sorted per transaction. */
  writeKeyStart: Int32Array;
  writeKeys: Int32Array;
  findings: Finding[];
  /** Number of read-consistency errors found (every level is violated when > 0); ambiguous reads are not counted. */
  violations: number;
  /**
   * Per op, 1 for a read left out of the checks because its writer is unknown (ambiguous-read);
   * absent when there is none. A sub-history drops these reads (restrict.ts): kept, one writer of
   * the value dropped, the read would get a writer the whole history never gave it.
   */
  leftOut?: Uint8Array;
}

/** The source span of op o, or an empty span at offset 0 when the history has no ranges. */
export function opSpan(h: History, o: number): Span {
  return h.ranges ? { start: h.ranges.opStart[o], end: h.ranges.opEnd[o] } : { start: 0, end: 0 };
}

export function txnSpan(h: History, t: number): Span {
  return h.ranges && t !== BOTTOM ? { start: h.ranges.txnStart[t], end: h.ranges.txnEnd[t] } : { start: 0, end: 0 };
}

export function computeReadsFrom(h: History): ReadsFrom {
  const { opCount, txnCount, keyCount, opKind, opKey, opValue, opSource, txnOpStart, txnAborted, names } = h;
  const findings = new CappedFindings();
  let violations = 0;
  const wrSource = new Int32Array(opCount).fill(-1);
  let observedWrite: Int32Array | null = null;
  const observedTxn = new Int32Array(opCount).fill(-1);

  // A transaction's final writes are exactly one per key it writes: its write set (sorted per
  // transaction), collected in the same pass.
  const writeKeyStart = new Int32Array(txnCount + 1);
  // Sized by the writes, not the operations: this pass runs at the peak of a large check.
  let writeCount = 0;
  let initWrites = false;
  for (let o = 0; o < opCount; o++) {
    if (opKind[o] !== OP_WRITE) continue;
    writeCount++;
    if (opValue[o] === INIT_VALUE) initWrites = true;
  }
  const keysFound = new Int32Array(writeCount);
  const isFinal = finalWrites(h, { start: writeKeyStart, keys: keysFound });
  // A view, not a copy: most writes are their key's final one in their transaction, so a copy would be nearly as large again.
  const writeKeys = keysFound.subarray(0, writeKeyStart[txnCount]);

  // Writer index: (key, value) → write op; duplicates make the pair ambiguous.
  const writerOf = new WriterIndex(h, isFinal);
  const warned = new Set<number>();
  // Past the cap only counted (no message built): a file may repeat one write millions of times.
  const note = (w: number, other: number): void => {
    if (findings.wants('duplicate-write')) findings.push(duplicateWrite(h, w, other));
    else findings.skip('duplicate-write', 'warning', opSpan(h, w));
  };
  for (let i = 0; i < writerOf.duplicateFirst.length; i++) {
    const first = writerOf.duplicateFirst.data[i];
    const o = writerOf.duplicateLater.data[i];
    if (!warned.has(first)) note(first, o);
    warned.add(first);
    note(o, first);
  }
  // A write of the initial value itself (value 0 in plume files, a value an `init` line gives its
  // key) cannot be told apart from ⊥, which writes it too: a duplicate write like any other.
  const inits = h.initValues;
  for (let o = 0; o < opCount && (initWrites || inits.size > 0); o++) {
    if (opKind[o] !== OP_WRITE) continue;
    const v = opValue[o];
    if (v !== INIT_VALUE && (inits.size === 0 || inits.get(opKey[o]) !== v)) continue;
    if (!findings.wants('duplicate-write')) {
      findings.skip('duplicate-write', 'warning', opSpan(h, o));
      continue;
    }
    findings.push(finding('duplicate-write', 'warning',
      `${names.txnName(h.opTxn[o])} writes ${names.keyName(opKey[o])} = ${names.valueText(v)}, the initial value${v === INIT_VALUE ? '' : ` (init ${names.keyName(opKey[o])} = ${names.valueText(v)})`}: reads of it cannot tell this write from the initial state`, opSpan(h, o)));
  }

  const named = new NamedWrites(h, isFinal);
  const ownStamp = new Int32Array(keyCount).fill(-1);
  const ownWrite = new Int32Array(keyCount);
  const fail = (code: Finding['code'], o: number, message: string, relatedOp = -1, relatedMessage = ''): void => {
    violations++;
    const related = relatedOp >= 0 ? [{ span: opSpan(h, relatedOp), message: relatedMessage }] : [];
    findings.push(finding(code, 'error', message, opSpan(h, o), related));
  };

  // An ambiguous read is an error at the read but no violation: it is left out of the checks
  // (wrSource stays -1), so the verdicts are those of the history without it.
  let leftOut: Uint8Array | undefined;
  const ambiguous = (o: number, message: string): void => {
    findings.push(finding('ambiguous-read', 'error', message, opSpan(h, o)));
    (leftOut ??= new Uint8Array(opCount))[o] = 1;
  };

  // Names are built only on the failure paths: the loop below runs once per operation.
  const tn = (t: number): string => names.txnName(t);
  const key = (x: number): string => names.keyName(x);
  const shown = (w: number): string => `${key(opKey[w])} = ${names.valueText(opValue[w])}`;
  for (let t = 1; t < txnCount; t++) {
    const committed = txnAborted[t] === 0;
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) {
      const x = opKey[o];
      if (opKind[o] === OP_WRITE) {
        ownStamp[x] = t;
        ownWrite[x] = o;
        continue;
      }
      if (opKind[o] !== OP_READ) continue;
      const v = opValue[o];
      const src = opSource ? opSource[o] : -1;
      if (v === NO_VALUE && src < 0) continue; // its `<- T` named no transaction: reported by the parser
      if (ownStamp[x] === t) {
        // Internal read: it must return this transaction's latest write of x.
        const w = ownWrite[x];
        observedTxn[o] = t;
        if ((v !== NO_VALUE && v !== opValue[w]) || (src >= 0 && src !== t)) {
          fail('own-write', o, `${tn(t)} wrote ${key(x)} = ${names.valueText(opValue[w])} earlier, so this read must return it, not ${v === NO_VALUE ? 'the write of ' + names.txnName(src) : names.valueText(v)}`, w, `${tn(t)}'s own write of ${key(x)}`);
        }
        continue;
      }
      // External read: find the write it observed.
      let w = -1;
      let t1 = -1;
      let final = 0;
      let fromInit = false;
      if (src >= 0) {
        w = named.get(src, x, v);
        if (w >= 0) {
          t1 = src;
          final = isFinal[w];
        }
        if (w < 0) {
          fail('thin-air', o, v === NO_VALUE
            ? `${tn(t)} read ${key(x)} from ${names.txnName(src)}, which never writes ${key(x)}`
            : `${tn(t)} read ${key(x)} = ${names.valueText(v)} from ${names.txnName(src)}, which never writes that value to ${key(x)}`);
          continue;
        }
      } else if (v === INIT_VALUE) {
        const w0 = writerOf.get(x, INIT_VALUE);
        if (w0 >= 0) {
          ambiguous(o, `${key(x)} = ${names.valueText(INIT_VALUE)} is both the initial value and written by ${names.txnName(h.opTxn[w0])}, so this read's writer is unknown and it is left out of the checks (a plume file that writes 0 as an ordinary value can be read with --plume-init none)`);
          continue;
        }
        fromInit = true;
      } else {
        w = writerOf.get(x, v);
        t1 = writerOf.txn;
        final = writerOf.final;
        const init = h.initValues.size > 0 ? h.initValues.get(x) : undefined;
        if (w < 0 && init === v) fromInit = true;
        else if (w < 0) {
          fail('thin-air', o, `${tn(t)} read ${key(x)} = ${names.valueText(v)}, but no transaction writes ${names.valueText(v)} to ${key(x)}`);
          continue;
        } else if (init === v && !writerOf.isDuplicated(x, v)) {
          ambiguous(o, `${key(x)} = ${names.valueText(v)} is both the initial value (init ${key(x)} = ${names.valueText(v)}) and written by ${names.txnName(h.opTxn[w])}, so this read's writer is unknown and it is left out of the checks: name it, e.g. r(${key(x)}, ${names.valueText(v)}) <- ${names.txnName(h.opTxn[w])}, or read r(${key(x)}, init)`);
          continue;
        } else if (writerOf.isDuplicated(x, v) || init === v) {
          ambiguous(o, `${key(x)} = ${names.valueText(v)} is written more than once, so this read's writer is unknown and it is left out of the checks: name it, e.g. r(${key(x)}, ${names.valueText(v)}) <- ${names.txnName(h.opTxn[w])}`);
          continue;
        }
      }
      if (fromInit) {
        observedTxn[o] = BOTTOM;
        if (committed) wrSource[o] = BOTTOM;
        continue;
      }
      observedTxn[o] = t1;
      if (t1 === t) {
        fail('future-read', o, `${tn(t)} read ${shown(w)}, which it writes itself only later`, w, 'the later write');
      } else if (!committed) {
        // An aborted transaction's reads constrain nothing; they were still checked for thin air above.
      } else if (txnAborted[t1] === 1) {
        fail('aborted-read', o, `${tn(t)} read ${shown(w)} from ${names.txnName(t1)}, which aborted (G1a)`, w, `the aborted write`);
      } else if (final === 0) {
        fail('intermediate-read', o, `${tn(t)} read ${shown(w)}, an intermediate value: ${names.txnName(t1)} overwrote it later in the same transaction (G1b)`, w, 'the overwritten write');
      } else {
        wrSource[o] = t1;
      }
    }
  }
  return {
    wrSource, observedTxn, writeKeyStart, writeKeys, findings: findings.done(), violations, ...(leftOut ? { leftOut } : {}),
    get observedWrite(): Int32Array {
      return (observedWrite ??= observedWrites(h, observedTxn));
    },
  };
}

/**
 * Per op, 1 for its transaction's last write of its key (a reverse scan with per-key stamps); with
 * `sets`, also each transaction's write set, sorted: sets.keys[sets.start[t] .. sets.start[t + 1]).
 */
function finalWrites(h: History, sets: { start: Int32Array; keys: Int32Array } | null = null): Uint8Array {
  const { opKind, opKey, txnOpStart } = h;
  const isFinal = new Uint8Array(h.opCount);
  const stamp = new Int32Array(h.keyCount).fill(-1);
  let n = 0;
  for (let t = 1; t < h.txnCount; t++) {
    for (let o = txnOpStart[t + 1] - 1; o >= txnOpStart[t]; o--) {
      const x = opKey[o];
      if (opKind[o] !== OP_WRITE || stamp[x] === t) continue;
      stamp[x] = t;
      isFinal[o] = 1;
      if (sets) sets.keys[n++] = x;
    }
    if (!sets) continue;
    sets.start[t + 1] = n;
    sortSegment(sets.keys, sets.start[t], n);
  }
  return isFinal;
}

/**
 * The write op each read observed, from the transaction it observed: its own latest write of the
 * key, else that transaction's write the read names (as computeReadsFrom found it: a value written
 * once, or the `<- T` writer's). Derived on first use (hovers, go to definition, the graph's JSON,
 * lost-update seeds): a check of a large file never asks, and a column kept from the start cost 4
 * bytes an operation at its peak.
 */
function observedWrites(h: History, observedTxn: Int32Array): Int32Array {
  const { opKind, opKey, opValue, txnOpStart } = h;
  const out = new Int32Array(h.opCount).fill(-1);
  const named = new NamedWrites(h, finalWrites(h));
  const stamp = new Int32Array(h.keyCount).fill(-1);
  const last = new Int32Array(h.keyCount);
  for (let t = 1; t < h.txnCount; t++) {
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) {
      const x = opKey[o];
      if (opKind[o] === OP_WRITE) {
        stamp[x] = t;
        last[x] = o;
      } else if (opKind[o] === OP_READ && observedTxn[o] > BOTTOM) {
        const t1 = observedTxn[o];
        out[o] = t1 === t && stamp[x] === t ? last[x] : named.get(t1, x, opValue[o]);
      }
    }
  }
  return out;
}

/** Transactions of at most this many operations are scanned for a named write; larger ones get an index. */
const SCAN_OPS = 32;

/**
 * The write a `r(x, v) <- T` or `r(x) <- T` read names: T's first write of v to x, or its final
 * write of x when v is NO_VALUE; -1 when T has none. A small transaction is scanned; a large one
 * is indexed once, the first time it is named: scanning it for every read that names it made
 * n reads `r(x) <- W` of an n-write transaction W quadratic (128,000 of them, a 2 MB file: 14 s).
 */
class NamedWrites {
  private readonly index = new Map<number, { final: Map<number, number>; byValue: Map<number, Map<number, number>> }>();

  constructor(private readonly h: History, private readonly isFinal: Uint8Array) {}

  get(t: number, x: number, v: number): number {
    const { h, isFinal } = this;
    const start = h.txnOpStart[t];
    const end = h.txnOpStart[t + 1];
    if (end - start <= SCAN_OPS) {
      for (let o = start; o < end; o++) {
        if (h.opKind[o] !== OP_WRITE || h.opKey[o] !== x) continue;
        if (v === NO_VALUE ? isFinal[o] === 1 : h.opValue[o] === v) return o;
      }
      return -1;
    }
    let ix = this.index.get(t);
    if (!ix) {
      ix = { final: new Map<number, number>(), byValue: new Map<number, Map<number, number>>() };
      for (let o = start; o < end; o++) {
        if (h.opKind[o] !== OP_WRITE) continue;
        const k = h.opKey[o];
        if (isFinal[o] === 1) ix.final.set(k, o);
        let values = ix.byValue.get(k);
        if (!values) ix.byValue.set(k, (values = new Map<number, number>()));
        // The first write of the value in program order, as the scan finds it.
        if (!values.has(h.opValue[o])) values.set(h.opValue[o], o);
      }
      this.index.set(t, ix);
    }
    return (v === NO_VALUE ? ix.final.get(x) : ix.byValue.get(x)?.get(v)) ?? -1;
  }
}

function duplicateWrite(h: History, o: number, other: number): Finding {
  const { names } = h;
  return finding('duplicate-write', 'warning',
    `${names.txnName(h.opTxn[o])} writes ${names.keyName(h.opKey[o])} = ${names.valueText(h.opValue[o])}, a value ${names.txnName(h.opTxn[other])} also writes: reads of it cannot tell the writers apart`,
    opSpan(h, o), [{ span: opSpan(h, other), message: 'the other write' }]);
}

/** Sorts a[lo..hi): insertion sort for the usual handful of keys, the built-in sort beyond. */
function sortSegment(a: Int32Array, lo: number, hi: number): void {
  if (hi - lo > 32) {
    a.subarray(lo, hi).sort();
    return;
  }
  for (let i = lo + 1; i < hi; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

/** The first read-consistency error that violates every level (ambiguous reads are errors but only left out), or null. */
export function firstViolation(rf: ReadsFrom): Finding | null {
  return rf.findings.find((f) => f.severity === 'error' && f.code !== 'ambiguous-read') ?? null;
}

/** Whether txn t writes key x (binary search in its sorted write keys). */
export function writesKey(rf: ReadsFrom, t: number, x: number): boolean {
  let lo = rf.writeKeyStart[t];
  let hi = rf.writeKeyStart[t + 1] - 1;
  const keys = rf.writeKeys;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = keys[mid];
    if (k === x) return true;
    if (k < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
