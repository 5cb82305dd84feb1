// The engine's public surface: what the hosts (CLI, language server, browser playground) import.

// Analysis: a source read by a reader, then the pipeline (analyze.ts, verdicts/).
export { analyzeHistText, analyzePlumeBytes, analyzeSource } from './analyze.ts';
export type { Analysis, AnalyzeOptions, ReadSource, Verdict, VerdictBasis } from './analyze.ts';

// Levels as data (levels/levels.ts).
export {
  isSnapshotLevel, isWeakLevel, LEVEL_TABLE, levelById, levelId, levelList, levelRow, LEVELS, parseLevel, RULES,
  strongestHolding, weakerOrEqual, WEAK_LEVELS,
} from './levels/levels.ts';
export type { Level, LevelName, LevelRow, Rule } from './levels/levels.ts';

// Readers and the syntax layer.
export { parseHist } from './syntax/hist-parser.ts';
export type { Directives, ParsedFile } from './syntax/hist-parser.ts';
export { readPlume } from './readers/plume-reader.ts';
export type { PlumeFile } from './readers/plume-reader.ts';
export { LineIndex } from './syntax/line-index.ts';
export type { Range } from './syntax/line-index.ts';

// Findings and the history model.
export { finding, READ_CONSISTENCY_CODES } from './model/diagnostics.ts';
export type { DiagnosticCode, Finding, RelatedSpan, Severity, Span } from './model/diagnostics.ts';
export type { History, HistoryNames } from './model/history.ts';
export type { ReadsFrom } from './model/reads-from.ts';

// Reports and exports.
export { fileReport, hasErrors } from './report.ts';
export type { DiagnosticJson, EdgeJson, FileReport, VerdictJson, WitnessJson } from './report.ts';
export { exportWitness, WITNESS_FORMATS } from './export/witness-export.ts';
export type { WitnessExportOptions, WitnessExportResult, WitnessFormat } from './export/witness-export.ts';
export { exportWitnessOfPlume, exportWitnessOfText } from './export/witness-of-text.ts';
export { analysisData, sourceOfAnalysis } from './export/analysis-data.ts';
export type { Witness, WitnessEdge, WitnessEdgeKind } from './witness/witness.ts';
export { minimizeWitness } from './witness/violation.ts';
export type { Target } from './witness/violation.ts';

// Random histories (tests, `isocheck gen`, benchmarks).
export { DEFAULT_GEN_OPTIONS, generateHistory, optionsForEvents, validateGenOptions } from './gen/generate.ts';
export type { GeneratedHistory, GenOptions, StoreKind } from './gen/generate.ts';
export { toHistString, toPlumeString, writeHist, writePlume } from './gen/history-writers.ts';
