// Canonical numbering of sessions, transactions, keys and values: ids that do not depend on the order of session blocks.
//
// Every tie-break of the checkers (cycle search, saturation order, SCC choice, the minimiser) ends
// in comparing integer ids. HistoryBuilder.finish() renumbers with these orders once, so two texts
// that differ only in where their session blocks stand give the same History up to source ranges,
// and so the same verdicts and the same witnesses. Orders are arrays `order[newId] = oldId`, or
// null when the input already is in canonical order (nothing to permute: large plume files pay
// one pass).

/**
 * Compares names with digit runs as numbers (`s2` < `s10`, `T9` < `T10`), then code unit by code
 * unit; equal runs of different zero padding (`T01`, `T1`) are ordered by their plain text last.
 * Locale-free, so the order is the same on every host.
 */
export function naturalCompare(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      let ia = i;
      let jb = j;
      while (ia < n && a.charCodeAt(ia) === 48) ia++;
      while (jb < m && b.charCodeAt(jb) === 48) jb++;
      let ea = ia;
      let eb = jb;
      while (ea < n && isDigit(a.charCodeAt(ea))) ea++;
      while (eb < m && isDigit(b.charCodeAt(eb))) eb++;
      if (ea - ia !== eb - jb) return ea - ia - (eb - jb);
      for (let x = ia, y = jb; x < ea; x++, y++) {
        const d = a.charCodeAt(x) - b.charCodeAt(y);
        if (d !== 0) return d;
      }
      i = ea;
      j = eb;
      continue;
    }
    if (ca !== cb) return ca - cb;
    i++;
    j++;
  }
  if (i < n || j < m) return i < n ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * When every name (from index 1) is one common prefix followed by a number without leading
 * zeros (T1, T2, … T125000, as generators and recorders write them), those numbers: comparing
 * them is the natural order, without string work per comparison (measured: the merge of a
 * million-operation .hist file went from ~300 ms to a few). Otherwise null.
 */
export function numberedNames(names: readonly string[]): Float64Array | null {
  const out = new Float64Array(names.length);
  if (names.length < 2) return out;
  const first = names[1];
  let p = first.length;
  while (p > 0 && isDigit(first.charCodeAt(p - 1))) p--;
  const prefix = first.slice(0, p);
  for (let i = 1; i < names.length; i++) {
    const name = names[i];
    const digits = name.length - p;
    if (digits < 1 || digits > 15 || !name.startsWith(prefix) || (digits > 1 && name.charCodeAt(p) === 48)) return null;
    let v = 0;
    for (let j = p; j < name.length; j++) {
      const c = name.charCodeAt(j);
      if (!isDigit(c)) return null;
      v = v * 10 + (c - 48);
    }
    out[i] = v;
  }
  return out;
}

/** Sessions by name (natural order); equal names keep their input order. */
export function sessionOrder(names: readonly string[]): Int32Array | null {
  const order = Int32Array.from({ length: names.length }, (_, i) => i);
  order.sort((x, y) => naturalCompare(names[x], names[y]) || x - y);
  return isIdentity(order) ? null : order;
}

/**
 * Transactions as a merge of the sessions' so orders: repeatedly the session whose next
 * transaction comes first by `compare` (its name or number), ties by the session's canonical
 * rank. Ids stay increasing along so, and a file written in name order (generated ones, plume
 * files numbered by time) keeps its ids. ⊥ stays 0. O(T log S) comparisons with a binary heap.
 *
 * txnSession: per transaction its session (input ids; ⊥'s entry is ignored); sessionRank: input
 * session id → canonical rank; compare(t, u): how transactions t and u order by name.
 */
export function txnOrder(txnCount: number, txnSession: Int32Array, sessionRank: Int32Array, compare: (t: number, u: number) => number): Int32Array | null {
  const sessionCount = sessionRank.length;
  // Already sorted by (name, session rank) — plume files numbered in time order, or one session:
  // every session's list is sorted too, so the merge is the identity. One pass instead of the heap.
  let sorted = true;
  for (let t = 2; t < txnCount && sorted; t++) {
    const c = compare(t - 1, t);
    if (c > 0 || (c === 0 && sessionRank[txnSession[t - 1]] > sessionRank[txnSession[t]])) sorted = false;
  }
  if (sorted) return null;
  // Each session's transactions in input order (so order), by a counting sort.
  const start = new Int32Array(sessionCount + 1);
  for (let t = 1; t < txnCount; t++) start[txnSession[t] + 1]++;
  for (let s = 0; s < sessionCount; s++) start[s + 1] += start[s];
  const next = start.slice(0, sessionCount);
  const list = new Int32Array(Math.max(0, txnCount - 1));
  for (let t = 1; t < txnCount; t++) list[next[txnSession[t]]++] = t;
  next.set(start.subarray(0, sessionCount));
  // A binary heap of sessions with transactions left, keyed by their next transaction.
  const heap = new Int32Array(sessionCount);
  let size = 0;
  const less = (s: number, r: number): boolean => {
    const c = compare(list[next[s]], list[next[r]]);
    return c < 0 || (c === 0 && sessionRank[s] < sessionRank[r]);
  };
  const down = (at: number): void => {
    const s = heap[at];
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && less(heap[child + 1], heap[child])) child++;
      if (!less(heap[child], s)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = s;
  };
  for (let s = 0; s < sessionCount; s++) if (start[s] < start[s + 1]) heap[size++] = s;
  for (let at = (size >> 1) - 1; at >= 0; at--) down(at);
  const order = new Int32Array(txnCount);
  let identity = true;
  for (let i = 1; i < txnCount; i++) {
    const s = heap[0];
    const t = list[next[s]++];
    order[i] = t;
    if (t !== i) identity = false;
    if (next[s] === start[s + 1]) heap[0] = heap[--size];
    if (size > 0) down(0);
  }
  return identity ? null : order;
}

/**
 * Keys by first use in (canonical) op order, then the unused ones (named only by `init` or by a
 * rejected operation) by name.
 */
export function keyOrder(keyCount: number, opKey: Int32Array, opCount: number, keyName: (k: number) => string): Int32Array | null {
  const seen = new Uint8Array(keyCount);
  const order = new Int32Array(keyCount);
  let n = 0;
  for (let o = 0; o < opCount; o++) {
    const k = opKey[o];
    if (k >= 0 && k < keyCount && seen[k] === 0) {
      seen[k] = 1;
      order[n++] = k;
    }
  }
  return finishOrder(order, n, seen, keyName);
}

/**
 * Value ids by first use in (canonical) op order, list elements included, then the unused ones
 * (initial values, values of rejected operations) by their text. Negative ids (init, no value)
 * are not ids of the table and stay as they are.
 */
export function valueOrder(valueCount: number, opValue: Int32Array, opCount: number, opListStart: Int32Array | undefined,
  listElems: Int32Array | undefined, valueText: (v: number) => string): Int32Array | null {
  const seen = new Uint8Array(valueCount);
  const order = new Int32Array(valueCount);
  let n = 0;
  const use = (v: number): void => {
    if (v >= 0 && v < valueCount && seen[v] === 0) {
      seen[v] = 1;
      order[n++] = v;
    }
  };
  for (let o = 0; o < opCount; o++) {
    use(opValue[o]);
    if (opListStart && listElems) for (let i = opListStart[o]; i < opListStart[o + 1]; i++) use(listElems[i]);
  }
  return finishOrder(order, n, seen, valueText);
}

/** Appends the unseen ids by name after the first n, and says null when the result is the identity. */
function finishOrder(order: Int32Array, n: number, seen: Uint8Array, name: (id: number) => string): Int32Array | null {
  if (n < order.length) {
    const rest: number[] = [];
    for (let k = 0; k < seen.length; k++) if (seen[k] === 0) rest.push(k);
    const names = rest.map(name);
    const idx = rest.map((_, i) => i).sort((x, y) => naturalCompare(names[x], names[y]) || rest[x] - rest[y]);
    for (const i of idx) order[n++] = rest[i];
  }
  return isIdentity(order) ? null : order;
}

/** The inverse permutation: rank[oldId] = newId. */
export function inverse(order: Int32Array): Int32Array {
  const rank = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) rank[order[i]] = i;
  return rank;
}

function isIdentity(order: Int32Array): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}
