// Plain-JSON shapes of IsoCheck's custom messages; imports only types (erased), so the client and the webview can share them.

import type { LevelName, Rule } from '../engine/levels/levels.ts';
import type { WitnessEdgeKind } from '../engine/witness/witness.ts';

/** An isolation level's canonical name: declared once, by the engine's level table. */
export type { LevelName, Rule };

/** ✓ holds, ✗ violated, ? not decided (strong levels while CC holds). */
export type VerdictState = 'ok' | 'violated' | 'unknown';

/** Zero-based line/character positions in UTF-16 code units, as in LSP. */
export interface JsonPosition {
  line: number;
  character: number;
}

export interface JsonRange {
  start: JsonPosition;
  end: JsonPosition;
}

/** The `isocheck` section of the workspace configuration, as the server reads it. */
export interface IsoCheckSettings {
  /** Homogeneous levels to evaluate; empty means all seven. */
  levels: LevelName[];
  /** When to analyse: on every change (debounced) or only on open and save. */
  checkOn: 'change' | 'save';
  maxWitnessesPerLevel: number;
  /** How plume files read the value 0: the initial value ('zero', the plume convention) or an ordinary one ('none'). */
  plumeInit: 'zero' | 'none';
}

// ---- isocheck/status (server → client) -------------------------------------------------------

export interface LevelState {
  level: LevelName;
  state: VerdictState;
}

export type StatusState = 'checking' | 'done' | 'failed';

export interface StatusParams {
  uri: string;
  /** The document version the status describes. */
  version: number;
  state: StatusState;
  /** Homogeneous verdicts, weakest first (empty while the first analysis runs). */
  levels: LevelState[];
  /** The per-transaction verdict when the file claims a level or tags transactions, else null. */
  mixed: VerdictState | null;
  /** The strongest evaluated level that holds, or null when none does (PC when PC and PSI both are). */
  strongest: LevelName | null;
  /** Every strongest level that holds: PC and PSI are incomparable, so both when both hold and SI does not. */
  strongestAll?: LevelName[];
  /** Ready-made text for a status bar, e.g. "RC ✓ RA ✗ CC ✗". */
  text: string;
  /** The file has syntax errors: the verdicts are for what parsed (issue 8). */
  partial?: boolean;
  errors: number;
  warnings: number;
  /** Analysis time in the worker, milliseconds (0 while checking). */
  millis: number;
  /** Why the analysis failed (state 'failed'). */
  message?: string;
}

// ---- isocheck/analysis (client → server) -----------------------------------------------------

export interface AnalysisParams {
  uri: string;
  /** At most this many items per edge list (wr, each level's co); default 20,000. */
  limit?: number;
}

/** Set when a history has more transactions than the graph is sent in full. */
export interface TruncatedJson {
  /** Why, in a sentence a view can show ("too large: showing the witnesses' neighbourhood"). */
  reason: string;
  /** Transactions described in full (the others keep id, name, session and position only). */
  shown: number;
  /** Transactions in the history (without ⊥). */
  total: number;
}

/** A transaction; id 0 is ⊥, the initial state (session -1). Ids index `transactions`. */
export interface TransactionJson {
  id: number;
  name: string;
  /** Index into `sessions`, -1 for ⊥. It is also the transaction's lane in a graph. */
  session: number;
  /** 0-based position in its session's order (so), -1 for ⊥. */
  position: number;
  /** Its own level tag, or null when untagged. */
  level: LevelName | null;
  aborted: boolean;
  /** Its outcome as written is `unknown`: the client never learned whether it committed. */
  unknown: boolean;
  /** An `unknown` transaction nobody read from: it counts as never having run, and the checks leave it out. */
  notRun: boolean;
  /** The header `T1 [RA]:`; null for ⊥. */
  range: JsonRange | null;
  /** Header through last operation; null for ⊥. */
  extent: JsonRange | null;
  operations: number;
  /** Its operations in short form (`w(x, 1)`, `r(y, init)`), at most OPS_SHOWN, then `+N more`. */
  ops: string[];
}

/** How many operations of a transaction the analysis JSON spells out. */
export const OPS_SHOWN = 6;

export interface SessionJson {
  id: number;
  name: string;
  /** The `session NAME` header. */
  range: JsonRange;
  /** Transaction ids in session order. */
  transactions: number[];
}

export interface WrEdgeJson {
  from: number;
  to: number;
  key: string;
  /** The read, and the write it observed (null when it read the initial state). */
  read: JsonRange;
  write: JsonRange | null;
}

export type EdgeKindJson = WitnessEdgeKind;

export interface CoEdgeJson {
  from: number;
  to: number;
  key: string;
  /** The read whose axiom forced the edge. */
  read: JsonRange;
  /** The transaction of that read (whose level's axiom applies in a mixed history). */
  reader: number;
  because: string;
}

/** The kinds of order edges: a list-append key's version order (ww), anti-dependencies (rw), real time (rt). */
export type OrderKindJson = 'ww' | 'rw' | 'rt';

/** A ww / rw edge observed in a list-append history, or an rt edge between two `@` intervals. */
export interface OrderEdgeJson {
  from: number;
  to: number;
  kind: OrderKindJson;
  /** The key (ww, rw); null for rt. */
  key: string | null;
  /** The edge in words ("T2 appended 2 to x right after T1's 1: T4 read x = [1, 2]"). */
  because: string;
  /** Where it shows: the read (ww, rw) or the later transaction's header (rt). */
  range: JsonRange;
}

export interface WitnessEdgeJson {
  from: number;
  to: number;
  kind: EdgeKindJson;
  key: string | null;
  because: string;
  range: JsonRange;
}

export interface WitnessJson {
  anomaly: string;
  /** The anomaly in words: "Write skew (SER): T1 and T2 each read what the other overwrites", or "SER violation". */
  headline: string;
  message: string;
  range: JsonRange;
  cycle: WitnessEdgeJson[];
}

export interface VerdictJson {
  level: LevelName | 'mixed';
  state: VerdictState;
  witness: WitnessJson | null;
  note: string | null;
}

export interface ForcedJson {
  level: Rule;
  edges: CoEdgeJson[];
  /** How many edges there are in all (more than `edges.length` when cut at `limit`). */
  total: number;
}

export interface AnalysisResult {
  uri: string;
  version: number;
  title: string | null;
  levels: VerdictJson[];
  mixed: VerdictJson | null;
  strongest: LevelName | null;
  sessions: SessionJson[];
  transactions: TransactionJson[];
  wr: WrEdgeJson[];
  wrTotal: number;
  forced: ForcedJson[];
  /** ww / rw edges of list-append keys and rt edges (the transitive reduction of real time), when the history has them. */
  order?: OrderEdgeJson[];
  /** How many order edges there are in all (more than `order.length` when cut at `limit`). */
  orderTotal?: number;
  /** Present when the history was too large to send whole: only a neighbourhood is described in full. */
  truncated?: TruncatedJson;
}

// ---- isocheck/exportWitness (client → server) ------------------------------------------------

/** isocheck/report: the document's report in the CLI's `--json` shape (one file's object). */
export interface ReportParams {
  uri: string;
  /** The name the report gives the file (the CLI's is the path as given on its command line). */
  file: string;
}

export interface WitnessExportParams {
  uri: string;
  level: LevelName | 'mixed';
  format: 'json' | 'dot' | 'svg' | 'hist';
}

export type WitnessExportAnswer =
  | { ok: true; text: string; extension: string }
  | { ok: false; message: string };
