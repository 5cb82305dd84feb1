// Tarjan's bookkeeping (numbering, low links, the component stack), shared by the iterative walks over a CSR and over predecessors.

/** Components as Tarjan's algorithm closes them: comp[v] (-1 never visited), their count and sizes. */
export interface Components {
  comp: Int32Array;
  count: number;
  size: Int32Array;
}

/**
 * The state of one iterative Tarjan over n nodes; the caller walks the edges (its own call stack)
 * and reports each step. Ids are given as components complete, so u reaches v only if comp[u] ≥
 * comp[v]. Small methods on one class: V8 inlines them in the callers' loops.
 */
export class Tarjan {
  readonly index: Int32Array;
  private readonly low: Int32Array;
  private readonly comp: Int32Array;
  private readonly onStack: Uint8Array;
  private readonly stack: Int32Array;
  private readonly sizes: Int32Array;
  private sp = 0;
  private next = 0;
  private count = 0;

  constructor(n: number) {
    this.index = new Int32Array(n).fill(-1);
    this.low = new Int32Array(n);
    this.comp = new Int32Array(n).fill(-1);
    this.onStack = new Uint8Array(n);
    this.stack = new Int32Array(n);
    this.sizes = new Int32Array(n);
  }

  /** Numbers w (not visited before) and pushes it on the component stack. */
  enter(w: number): void {
    this.index[w] = this.low[w] = this.next++;
    this.stack[this.sp++] = w;
    this.onStack[w] = 1;
  }

  /** An edge v → w to a node already numbered: a back or cross edge within the stack lowers v's link. */
  seen(v: number, w: number): void {
    if (this.onStack[w] === 1 && this.index[w] < this.low[v]) this.low[v] = this.index[w];
  }

  /** v's edges are done: closes its component when v is its root, then passes its link to its caller u (-1: a root). */
  leave(v: number, u: number): void {
    const { low, index } = this;
    if (low[v] === index[v]) {
      let size = 0;
      let w: number;
      do {
        w = this.stack[--this.sp];
        this.onStack[w] = 0;
        this.comp[w] = this.count;
        size++;
      } while (w !== v);
      this.sizes[this.count++] = size;
    }
    if (u >= 0 && low[v] < low[u]) low[u] = low[v];
  }

  result(): Components {
    return { comp: this.comp, count: this.count, size: this.sizes.subarray(0, this.count) };
  }
}
