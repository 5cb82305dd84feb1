// The output formats of `isocheck check`: a table for people, JSON for scripts, SARIF for code scanning, JUnit XML for test reports.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileReport } from '../engine/report.ts';
import { junitXml } from './report-junit.ts';
import { sarifLog } from './report-sarif.ts';
import { readAnomaliesDoc, ruleDocs } from './rule-docs.ts';
import { renderDetails, renderTable } from './text-report.ts';

export const OUTPUT_FORMATS = ['table', 'json', 'sarif', 'junit'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(name: string): OutputFormat | null {
  return (OUTPUT_FORMATS as readonly string[]).includes(name) ? (name as OutputFormat) : null;
}

export interface RenderOptions {
  /** Where docs/anomalies.md is published (`--docs-url`); by default SARIF links to the file beside the bundle. */
  docsUrl?: string;
}

/** Everything `check` prints on standard output for `reports`, in `format` (the table: '' without reports). */
export function renderReports(format: OutputFormat, reports: readonly FileReport[], o: RenderOptions = {}): string {
  switch (format) {
    case 'json':
      return JSON.stringify(reports, null, 2);
    case 'sarif': {
      const doc = readAnomaliesDoc();
      const docsUrl = o.docsUrl ?? doc?.uri ?? null;
      return JSON.stringify(sarifLog(reports, { version: packageVersion(), rules: ruleDocs(doc, docsUrl), docsUrl }), null, 2);
    }
    case 'junit':
      return junitXml(reports);
    case 'table': {
      if (reports.length === 0) return '';
      const out = [renderTable(reports)];
      for (const r of reports) {
        const details = renderDetails(r);
        if (details) out.push(`\n${r.file}${r.title ? ` — ${r.title}` : ''}\n${details}`);
      }
      return out.join('\n');
    }
  }
}

/** The version in package.json beside the bundle (out/ → package root) or the sources. */
export function packageVersion(): string {
  for (const p of [join(__dirname, '..', 'package.json'), join(__dirname, '..', '..', '..', 'package.json')]) {
    if (!existsSync(p)) continue;
    try {
      const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'isocheck' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not ours or unreadable: try the next candidate
    }
  }
  return '0.0.0';
}
