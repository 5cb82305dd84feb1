// The syntax problems of a text reader (dbcop, AWDIT test), capped: the first MAX_REPORTED, then a count of the rest.

import { finding, type Finding } from '../model/diagnostics.ts';

/** At most this many problems are reported per file; then a count of the rest. */
export const MAX_REPORTED = 100;

/** Collects a reader's problems, capped. */
export class Problems {
  readonly findings: Finding[] = [];
  private count = 0;

  add(message: string, start: number, end: number): void {
    this.count++;
    if (this.count <= MAX_REPORTED) this.findings.push(finding('syntax', 'error', message, { start, end }));
  }

  done(): Finding[] {
    if (this.count > MAX_REPORTED) {
      this.findings.push(finding('syntax', 'error', `${this.count - MAX_REPORTED} more problems not shown`, { start: 0, end: 0 }));
    }
    return this.findings;
  }
}
