// `check --output-format junit`: the JSON reports as JUnit XML, one test suite per file, one test case per claimed level, expect line and error check.

import XMLBuilder from 'fast-xml-builder';
import type { FileReport, VerdictJson } from '../engine/report.ts';
import { LEVELS } from '../engine/levels/levels.ts';
import { diagnosticLine, witnessLines } from './text-report.ts';

/** A report with the outcome of `--claim L`, when the check command was given one. */
export type JunitReport = FileReport & { claim?: { level: string; consistent: boolean | null } };

interface Case {
  name: string;
  failure?: { message: string; type: string; text: string };
  skipped?: string;
}

/** Codes whose errors the claim and mixed test cases already stand for: every level's, and mixed. */
const VERDICT_CODES: ReadonlySet<string> = new Set<string>([...LEVELS, 'mixed']);

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
        '@_name': attribute(s.file),
        ...count(s.cases),
        testcase: s.cases.map((c) => ({
          '@_classname': attribute(s.file),
          '@_name': attribute(c.name),
          ...(c.failure ? { failure: { '@_message': attribute(c.failure.message), '@_type': attribute(c.failure.type), '#text': text(c.failure.text) } } : {}),
          ...(c.skipped !== undefined ? { skipped: { '@_message': attribute(c.skipped) } } : {}),
        })),
      })),
    },
  };
  // Every string is escaped here (attribute() and text()): the builder's own escaping leaves line
  // breaks in attribute values, which XML parsers turn into spaces (a file name with a newline).
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressBooleanAttributes: false, suppressEmptyNode: true, processEntities: false });
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
  // A failed `expect L ok|violated` is its own case above; a failed `expect A found|absent` (an
  // anomaly expectation, not in `expectations`) has none, so it counts here: the report fails
  // exactly when the exit status is 1.
  const levelExpectLines = new Set((r.expectations ?? []).map((e) => e.range.start.line));
  const errors = r.diagnostics.filter((d) => d.severity === 'error' && !VERDICT_CODES.has(d.code)
    && !(d.code === 'expectation-failed' && levelExpectLines.has(d.range.start.line)));
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

/** Element text: markup characters escaped; line breaks kept as they are (they survive in content). */
function text(s: string): string {
  return clean(s).replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** An attribute value: also quotes, and tab and line breaks as character references (parsers normalise them to spaces otherwise). */
function attribute(s: string): string {
  return clean(s).replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c]);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/** XML 1.0 cannot carry control characters (other than tab and newlines) or lone surrogates, even escaped. */
function clean(s: string): string {
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
