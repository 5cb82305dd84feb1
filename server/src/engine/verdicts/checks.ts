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

  constructor(readonly h: History, readonly rf: ReadsFrom, readonly findings: Finding[],
    readonly soften: (s: Severity) => Severity, readonly maxWitnesses: number) {
    this.ctx = new CheckContext(h, rf);
    this.explain = new Explainer(h, rf, this.ctx.baseCsr);
    const e = firstViolation(rf);
    this.readWitness = e ? { anomaly: e.code, edges: [], message: e.message, span: e.span } : null;
  }

  toWitness(anomaly: string, cycle: Int32Array, view: EdgeView, readerLevel: ((t: number) => string) | null = null): Witness {
    const edges = Array.from(cycle, (e) => this.explain.edge(view.ref(e), readerLevel));
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
      const related = relatedOf(w);
      const whole = w.edges.length <= MAX_RELATED ? w.edges.map((x) => x.because).join('; ') : null;
      for (const e of w.edges) {
        if (e.kind !== 'wr') continue;
        this.findings.push(finding('causality-cycle', this.soften('error'), whole !== null
          ? `information flows in a circle: ${whole}`
          : `information flows in a circle of ${w.edges.length} edges through this read: ${e.because} (the cycle is in the related information and in the CC witness)`, e.span, related));
      }
    }
    return this.causalityWitness;
  }

  /** The witness of a level whose own check found no cycle but that is still violated: causality, else read consistency. */
  fallbackWitness(): Witness | null {
    return this.causality() ?? this.readWitness;
  }
}
