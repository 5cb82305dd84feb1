// `check --output-format sarif`: the JSON reports as one SARIF 2.1.0 run (rules per diagnostic code, witness cycles as related locations and a code flow).

import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { DiagnosticJson, FileReport, WitnessJson } from '../engine/report.ts';
import type { Range } from '../engine/syntax/line-index.ts';
import type { RuleDoc } from './rule-docs.ts';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface SarifOptions {
  version: string;
  rules: readonly RuleDoc[];
  /** The address of docs/anomalies.md, for the tool's information link (null: none). */
  docsUrl: string | null;
}

const LEVEL: Record<DiagnosticJson['severity'], Sarif.Result.level> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/**
 * GitHub code scanning rejects larger logs (its documented upload limits): results per run, and
 * locations per result (related locations, and the steps of a code flow).
 */
export const MAX_RESULTS = 25_000;
export const MAX_RELATED = 1_000;
export const MAX_FLOW_STEPS = 10_000;

export function sarifLog(reports: readonly FileReport[], o: SarifOptions): Sarif.Log {
  const ruleIndex = new Map(o.rules.map((r, i) => [r.code, i]));
  const artifacts: Sarif.Artifact[] = [];
  const results: Sarif.Result[] = [];
  for (const [fileIndex, r] of reports.entries()) {
    const uri = fileUri(r.file);
    artifacts.push({ location: { uri }, roles: ['analysisTarget'], mimeType: 'text/plain' });
    const at = (range: Range): Sarif.PhysicalLocation => ({ artifactLocation: { uri, index: fileIndex }, region: region(range) });
    for (const d of r.diagnostics) {
      const result: Sarif.Result = {
        ruleId: d.code,
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [{ physicalLocation: at(d.range) }],
      };
      const index = ruleIndex.get(d.code);
      if (index !== undefined) result.ruleIndex = index;
      const steps = cycleSteps(r, d);
      if (steps.length > 0) {
        const flow = steps.slice(0, MAX_FLOW_STEPS);
        result.relatedLocations = steps.slice(0, MAX_RELATED).map((s, id) => ({ id, physicalLocation: at(s.range), message: { text: s.text } }));
        result.codeFlows = [{
          message: { text: `witness cycle of ${steps.length} edge${steps.length === 1 ? '' : 's'}${flow.length < steps.length ? ` (the first ${flow.length} shown)` : ''}` },
          threadFlows: [{ locations: flow.map((s, i) => ({ executionOrder: i + 1, location: { physicalLocation: at(s.range), message: { text: s.text } } })) }],
        }];
      }
      results.push(result);
    }
  }
  const kept = keepResults(results);
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'IsoCheck',
          version: o.version,
          semanticVersion: o.version,
          ...(o.docsUrl === null ? {} : { informationUri: o.docsUrl }),
          rules: o.rules.map(rule),
        },
      },
      columnKind: 'utf16CodeUnits',
      artifacts,
      results: kept,
      ...(kept.length < results.length ? { invocations: [{
        executionSuccessful: true,
        toolExecutionNotifications: [{ level: 'warning', message: { text: `${results.length - kept.length} of ${results.length} results left out (at most ${MAX_RESULTS} per log; notes go first): run check --output-format json for all of them` } }],
      }] } : {}),
    }],
  };
}

/** At most MAX_RESULTS, in order, leaving out notes (information) before warnings and errors. */
function keepResults(results: Sarif.Result[]): Sarif.Result[] {
  if (results.length <= MAX_RESULTS) return results;
  const serious = results.filter((x) => x.level !== 'note').length;
  let notes = Math.max(0, MAX_RESULTS - serious);
  let left = MAX_RESULTS;
  const out: Sarif.Result[] = [];
  for (const x of results) {
    if (left === 0) break;
    if (x.level === 'note') {
      if (notes === 0) continue;
      notes--;
    }
    out.push(x);
    left--;
  }
  return out;
}

function rule(r: RuleDoc): Sarif.ReportingDescriptor {
  const out: Sarif.ReportingDescriptor = {
    id: r.code,
    name: ruleName(r.code),
    shortDescription: { text: r.short },
    fullDescription: { text: r.full },
    help: { text: r.helpUri ? `${r.full}\n\nSee ${r.helpUri}` : r.full },
  };
  if (r.helpUri) out.helpUri = r.helpUri;
  return out;
}

/** SARIF wants a readable Pascal-case name that differs from the id: 'thin-air' → 'ThinAir', 'RC' → 'RCViolated'. */
function ruleName(code: string): string {
  const pascal = code.split('-').map((p) => p[0].toUpperCase() + p.slice(1)).join('');
  if (code === 'mixed' || code.toUpperCase() === code) return `${pascal}Violated`;
  return pascal.toLowerCase() === code.toLowerCase() ? `${pascal}Error` : pascal;
}

interface Step {
  range: Range;
  text: string;
}

/**
 * The cycle a diagnostic carries. Its related information lists the witness's edges in order; when
 * a verdict's witness has exactly those edges the steps also name the transactions (T1 → T2).
 */
function cycleSteps(r: FileReport, d: DiagnosticJson): Step[] {
  const related = d.relatedInformation ?? [];
  if (related.length === 0) return [];
  const witness = witnesses(r).find((w) => w.cycle.length === related.length && w.cycle.every((e, i) => sameRange(e.range, related[i].range)));
  if (!witness) return related.map((x) => ({ range: x.range, text: x.message }));
  return witness.cycle.map((e) => ({ range: e.range, text: `${e.from} → ${e.to} [${e.kind}${e.key === null ? '' : ` ${e.key}`}] ${e.because}` }));
}

function witnesses(r: FileReport): WitnessJson[] {
  const out: WitnessJson[] = [];
  for (const v of [...Object.values(r.levels), r.mixed]) if (v?.witness) out.push(v.witness);
  return out;
}

function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** SARIF regions count lines and columns from 1; an empty range stays empty (an insertion point). */
function region(range: Range): Sarif.Region {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/** A relative path stays relative (code scanning resolves it against the repository), percent-encoded; an absolute one becomes a file: URI. */
export function fileUri(file: string): string {
  if (isAbsolute(file)) return pathToFileURL(file).href;
  return file.split(sep).join('/').split('/').map(encodeURIComponent).join('/');
}
