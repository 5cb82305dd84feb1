// The CLI's JSON report of one file (declared once, engine report.ts), as the editor's export writes it.

import type { FileReport } from '../../server/src/engine/report.ts';

/** How many witness cycles a report holds (for the confirmation message). */
export function witnessCount(r: FileReport): number {
  return [...Object.values(r.levels), ...(r.mixed ? [r.mixed] : [])].filter((v) => v.witness).length;
}
