// Transitive reachability as bit rows over small dense graphs (strong-level propagation and search).

/** Strict reachability: bit b of row a is set when a reaches b. Null when the graph has a cycle. */
export function reachability(n: number, adj: readonly (readonly number[])[]): Uint32Array | null {
  const words = (n + 31) >>> 5;
  const indeg = new Int32Array(n);
  for (let v = 0; v < n; v++) for (const w of adj[v]) indeg[w]++;
  const order: number[] = [];
  for (let v = 0; v < n; v++) if (indeg[v] === 0) order.push(v);
  for (let i = 0; i < order.length; i++) for (const w of adj[order[i]]) if (--indeg[w] === 0) order.push(w);
  if (order.length < n) return null;
  const reach = new Uint32Array(n * words);
  // Reverse topological order: every successor's row is final when it is merged.
  for (let i = n - 1; i >= 0; i--) {
    const v = order[i];
    const row = v * words;
    for (const w of adj[v]) {
      reach[row + (w >>> 5)] |= 1 << (w & 31);
      const wr = w * words;
      for (let k = 0; k < words; k++) reach[row + k] |= reach[wr + k];
    }
  }
  return reach;
}

export function adjacencyOf(n: number, edges: readonly (readonly [number, number])[]): number[][] {
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) adj[a].push(b);
  return adj;
}
