// The witness subgraph as Graphviz DOT: the cycle's transactions (clustered by session) and its edges.

import type { AnalysisResult, WitnessJson } from '../../protocol/shapes.ts';
import { dotString } from './escape.ts';
import { isRealTimeEdge, outcomeWords } from './layout.ts';

const KIND_STYLE: Record<string, string> = {
  so: 'color="#6e7781"',
  wr: 'color="#1a7f37", fontcolor="#1a7f37"',
  co: 'style=dashed, color="#cf222e", fontcolor="#cf222e"',
  ww: 'style=dashed, color="#8250df", fontcolor="#8250df"',
  rw: 'style=dashed, color="#bc4c00", fontcolor="#bc4c00"',
  rt: 'style=dotted, color="#57606a", fontcolor="#57606a"',
};

export function writeWitnessDot(a: AnalysisResult, level: string, w: WitnessJson): string {
  const name = (t: number): string => (t === 0 ? 'init' : a.transactions[t]?.name ?? `#${t}`);
  const txns = [...new Set(w.cycle.flatMap((e) => [e.from, e.to]))].sort((x, y) => x - y);
  const out: string[] = [];
  out.push(`digraph witness {`);
  out.push(`  label=${dotString(`${a.title ?? 'history'}: ${level} violated (${w.anomaly})`)};`);
  out.push('  labelloc=t; rankdir=LR; node [shape=box, style=rounded, fontname="Helvetica"]; edge [fontname="Helvetica", fontsize=10];');
  const bySession = new Map<number, number[]>();
  for (const t of txns) {
    const s = a.transactions[t]?.session ?? -1;
    let l = bySession.get(s);
    if (!l) bySession.set(s, (l = []));
    l.push(t);
  }
  for (const [s, ts] of [...bySession].sort((x, y) => x[0] - y[0])) {
    const nodes = ts.map((t) => {
      const tx = a.transactions[t];
      const lines = [name(t) + (tx?.level ? ` [${tx.level}]` : '') + (tx ? outcomeWords(tx) : ''), ...(tx?.ops ?? [])];
      return `    t${t} [label=${dotString(lines.join('\n'))}${tx?.aborted || tx?.notRun ? ', style="rounded,dashed"' : ''}];`;
    });
    // Pushed one by one: a session may hold 200,000 witness transactions, too many to spread as arguments.
    if (s < 0) {
      for (const n of nodes) out.push(n.slice(2));
      continue;
    }
    out.push(`  subgraph cluster_s${s} {`, `    label=${dotString(`session ${a.sessions[s]?.name ?? s}`)}; style=dotted;`);
    for (const n of nodes) out.push(n);
    out.push('  }');
  }
  for (const e of w.cycle) {
    const kind = isRealTimeEdge(e) ? 'rt' : e.kind;
    const label = e.key !== null ? `${kind} ${e.key}` : kind;
    out.push(`  t${e.from} -> t${e.to} [label=${dotString(label)}, tooltip=${dotString(e.because)}, penwidth=2, ${KIND_STYLE[kind] ?? ''}];`);
  }
  out.push('}');
  return out.join('\n') + '\n';
}
