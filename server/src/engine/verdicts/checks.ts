// What every verdict of one history shares: the check context, witness phrasing, read-consistency and causality witnesses.

import { finding, type Finding, type Severity } from '../model/diagnostics.ts';
import type { EdgeView } from '../model/edges.ts';
import type { History } from '../model/history.ts';
import { firstViolation, type ReadsFrom } from '../model/reads-from.ts';
import { causalityCycles, CheckContext } from '../weak/level-check.ts';
import { Explainer, type Witness } from '../witness/witness.ts';
import { MAX_RELATED, relatedOf } from './related.ts';

export class Checks {
  readonly ctx: CheckContext;
  readonly explain: Explainer;
  /** The first read-consistency error as a witness (it breaks every level), or null. */
  readonly readWitness: Witness | null;
  private causalityWitness: Witness | null | undefined;

  /** stop: AnalyzeOptions.stop, polled by the saturations (CheckContext). */
  constructor(readonly h: History, readonly rf: ReadsFrom, readonly findings: Finding[],
    readonly soften: (s: Severity) => Severity, readonly maxWitnesses: number, stop?: () => boolean) {
    this.ctx = new CheckContext(h, rf, stop);
    this.explain = new Explainer(h, rf, () => this.ctx.baseCsr);
    const e = firstViolation(rf);
    this.readWitness = e ? { anomaly: e.code, edges: [], message: e.message, span: e.span } : null;
  }

  toWitness(anomaly: string, cycle: Int32Array, view: EdgeView, readerLevel: ((t: number) => string) | null = null): Witness {
    const edges = this.explain.sessionRuns(Array.from(cycle, (e) => this.explain.edge(view.ref(e), readerLevel)));
    const first = edges.find((e) => e.kind === 'co') ?? edges[0];
    return { anomaly, edges, message: first.because, span: first.span };
  }

  /**
   * A cycle of so ∪ wr, looked for only when needed (a level found acyclic proves there is none);
   * its findings go out once, at each read of the cycle, with capped related information.
   */
  causality(): Witness | null {
    if (this.causalityWitness !== undefined) return this.causalityWitness;
    this.causalityWitness = null;
    if (this.ctx.causal) return null;
    for (const cycle of causalityCycles(this.ctx, this.maxWitnesses)) {
      const w = this.toWitness('causality-cycle', cycle, this.ctx.base);
      this.causalityWitness ??= w;
      this.reportCycle(w);
    }
    return this.causalityWitness;
  }

  /**
   * A short cycle: the whole cycle at each of its reads. A long one is reported once, in full (capped
   * related information), at its first read; every other read names that place and its two neighbouring edges.
   */
  private reportCycle(w: Witness): void {
    const severity = this.soften('error');
    const reads = w.edges.map((e, i) => ({ e, i })).filter((x) => x.e.kind === 'wr');
    if (w.edges.length <= MAX_RELATED) {
      const whole = w.edges.map((x) => x.because).join('; ');
      for (const { e } of reads) this.findings.push(finding('causality-cycle', severity, `information flows in a circle: ${whole}`, e.span, relatedOf(w)));
      return;
    }
    const head = reads[0].e;
    this.findings.push(finding('causality-cycle', severity, `information flows in a circle of ${w.edges.length} edges, this read among them: ${head.because} (the cycle is in the related information and in the CC witness)`, head.span, relatedOf(w)));
    const n = w.edges.length;
    for (const { e, i } of reads.slice(1)) {
      const near = [w.edges[(i + n - 1) % n], w.edges[(i + 1) % n]].map((x) => ({ span: x.span, message: `${x.kind}: ${x.because}` }));
      this.findings.push(finding('causality-cycle', severity, `information flows in a circle of ${n} edges through this read: ${e.because}`, e.span,
        [{ span: head.span, message: 'the cycle, reported here in full' }, ...near]));
    }
  }

  /** The witness of a level whose own check found no cycle but that is still violated: causality, else read consistency. */
  fallbackWitness(): Witness | null {
    return this.causality() ?? this.readWitness;
  }
}
