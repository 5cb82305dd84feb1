// `check --output-format junit`: the JSON reports as JUnit XML, one test suite per file, one test case per claimed level, expect line and error check.

import XMLBuilder from 'fast-xml-builder';
import type { FileReport, VerdictJson } from '../engine/report.ts';
import { diagnosticLine, witnessLines } from './text-report.ts';

/** A report with the outcome of `--claim L`, when the check command was given one. */
export type JunitReport = FileReport & { claim?: { level: string; consistent: boolean | null } };

interface Case {
  name: string;
  failure?: { message: string; type: string; text: string };
  skipped?: string;
}

/** Codes whose errors the claim, mixed and expect test cases already stand for. */
const VERDICT_CODES = new Set(['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER', 'mixed', 'expectation-failed']);

export function junitXml(reports: readonly JunitReport[]): string {
  const suites = reports.map((r) => ({ file: r.file, cases: casesOf(r) }));
  const count = (cases: Case[]): Record<string, number> => ({
    '@_tests': cases.length,
    '@_failures': cases.filter((c) => c.failure).length,
    '@_errors': 0,
    '@_skipped': cases.filter((c) => c.skipped !== undefined).length,
  });
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': 'isocheck',
      ...count(suites.flatMap((s) => s.cases)),
      testsuite: suites.map((s) => ({
        '@_name': clean(s.file),
        ...count(s.cases),
        testcase: s.cases.map((c) => ({
          '@_classname': clean(s.file),
          '@_name': clean(c.name),
          ...(c.failure ? { failure: { '@_message': clean(c.failure.message), '@_type': c.failure.type, '#text': clean(c.failure.text) } } : {}),
          ...(c.skipped !== undefined ? { skipped: { '@_message': clean(c.skipped) } } : {}),
        })),
      })),
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressBooleanAttributes: false, suppressEmptyNode: true });
  return builder.build(doc);
}

function casesOf(r: JunitReport): Case[] {
  const cases: Case[] = [];
  if (r.claim) cases.push(verdictCase(`claimed level ${r.claim.level}`, r.claim.level, r.levels[r.claim.level] ?? { consistent: r.claim.consistent }));
  // A file with `expect` lines is a regression test: its expectations are its test cases (its
  // level and tags only inform, as in the exit status).
  if (r.mixed && !r.expectations) cases.push(verdictCase("the file's level and tags (mixed verdict)", 'mixed', r.mixed));
  for (const e of r.expectations ?? []) {
    const name = `expect ${e.level} ${e.expected} (line ${e.range.start.line + 1})`;
    const failed = r.diagnostics.find((d) => d.code === 'expectation-failed' && d.range.start.line === e.range.start.line);
    if (e.consistent === null) cases.push({ name, skipped: `${e.level} undecided` });
    else if (failed) cases.push({ name, failure: { message: failed.message, type: 'expectation-failed', text: verdictText(r.levels[e.level], failed.message) } });
    else cases.push({ name });
  }
  const errors = r.diagnostics.filter((d) => d.severity === 'error' && !VERDICT_CODES.has(d.code));
  cases.push(errors.length === 0 ? { name: 'no other errors' } : {
    name: 'no other errors',
    failure: { message: `${errors.length} error${errors.length === 1 ? '' : 's'}: ${errors[0].message}`, type: errors[0].code, text: errors.map(diagnosticLine).join('\n') },
  });
  return cases;
}

function verdictCase(name: string, type: string, v: VerdictJson): Case {
  if (v.consistent === true) return { name };
  if (v.consistent === null) return { name, skipped: v.note ?? 'undecided' };
  const message = `${type === 'mixed' ? 'mixed levels' : type} violated${v.witness ? `: ${v.witness.message}` : ''}`;
  return { name, failure: { message, type, text: verdictText(v, message) } };
}

function verdictText(v: VerdictJson | undefined, fallback: string): string {
  const lines = v?.witness ? witnessLines(v.witness) : [fallback];
  if (v?.note) lines.push(v.note);
  return lines.join('\n');
}

/** XML 1.0 cannot carry control characters (other than tab and newlines) or lone surrogates, even escaped. */
function clean(s: string): string {
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
