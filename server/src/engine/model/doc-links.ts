// Where each diagnostic code is explained: its own `## code` section of docs/anomalies.md, or a section of docs/list-append.md.

import { ANOMALIES } from '../listappend/anomaly-table.ts';
import type { DiagnosticCode } from './diagnostics.ts';

export type DocPage = 'anomalies.md' | 'list-append.md';

/**
 * The list-append codes without a section of their own in anomalies.md (the cycle classes and the
 * read-consistency findings of list reads): their home is list-append.md. The anomaly table's codes
 * that anomalies.md also explains (lost-update, G1a/G1b's aliases) keep their anomalies.md section.
 */
const IN_ANOMALIES = new Set(['lost-update', 'aborted-read', 'intermediate-read', 'future-read']);
const LIST_APPEND: ReadonlyMap<string, string> = new Map<string, string>([
  ['mixed-key', 'the-language-additions'],
  ['append-order', 'how-the-version-order-is-recovered'],
  ...ANOMALIES.filter((a) => !IN_ANOMALIES.has(a.code)).map((a): [string, string] => [a.code, 'the-anomaly-table']),
]);

/** The page and anchor (GitHub's slug of the `##` heading) that explain a code. */
export function docSection(code: DiagnosticCode): { page: DocPage; anchor: string } {
  const list = LIST_APPEND.get(code);
  return list !== undefined ? { page: 'list-append.md', anchor: list } : { page: 'anomalies.md', anchor: code.toLowerCase() };
}

/** A code's link, given the address of docs/anomalies.md (list-append.md lies beside it). */
export function docLink(anomaliesUri: string, code: DiagnosticCode): string {
  const { page, anchor } = docSection(code);
  if (page === 'anomalies.md' || !anomaliesUri.endsWith('anomalies.md')) return `${anomaliesUri}#${page === 'anomalies.md' ? anchor : code.toLowerCase()}`;
  return `${anomaliesUri.slice(0, -'anomalies.md'.length)}list-append.md#${anchor}`;
}
