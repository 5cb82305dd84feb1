// The output formats of `isocheck check` (a table for people, JSON for scripts, SARIF for code scanning, JUnit XML for test reports) and the SARIF and JUnit documents.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileReport } from '../engine/report.ts';
import { junitXml } from './report-junit.ts';
import { sarifLog } from './report-sarif.ts';
import { readAnomaliesDoc, ruleDocs } from './rule-docs.ts';
import { jsonSafe } from './terminal-text.ts';

export const OUTPUT_FORMATS = ['table', 'json', 'sarif', 'junit'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function parseOutputFormat(name: string): OutputFormat | null {
  return (OUTPUT_FORMATS as readonly string[]).includes(name) ? (name as OutputFormat) : null;
}

export interface RenderOptions {
  /** Where docs/anomalies.md is published (`--docs-url`); by default SARIF links to the file beside the bundle. */
  docsUrl?: string;
}

/**
 * The SARIF or JUnit document for `reports`. (The table and JSON are written by the check command
 * one report at a time.) SARIF gets JSON's treatment of the characters a terminal acts on.
 */
export function renderReport(format: 'sarif' | 'junit', reports: readonly FileReport[], o: RenderOptions = {}): string {
  if (format === 'junit') return junitXml(reports);
  const doc = readAnomaliesDoc();
  const docsUrl = o.docsUrl ?? doc?.uri ?? null;
  return jsonSafe(JSON.stringify(sarifLog(reports, { version: packageVersion(), rules: ruleDocs(doc, docsUrl), docsUrl }), null, 2));
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
