// One analysed document version on the message loop: the engine's History rebuilt from a snapshot, plus lazy indexes.

import type { Verdict } from '../engine/analyze.ts';
import { soWrGraph } from '../engine/model/happens-before.ts';
import { INIT_VALUE, NO_VALUE, type History, type HistoryRanges } from '../engine/model/history.ts';
import { RULES, type Rule } from '../engine/levels/levels.ts';
import { LineIndex } from '../engine/syntax/line-index.ts';
import { groupBy, opsBySourceOrder, opsInSourceOrder, txnsBySourceOrder, type Csr1 } from '../engine/queries.ts';
import type { ReadsFrom } from '../engine/model/reads-from.ts';
import { Explainer } from '../engine/witness/witness.ts';
import type { AnalysisSnapshot, ForcedColumns, SnapshotOptions } from './snapshot.ts';
import { TextView } from './text-view.ts';

export class DocModel {
  readonly history: History;
  /** The history's source ranges (always present for a document). */
  readonly ranges: HistoryRanges;
  readonly readsFrom: ReadsFrom;
  readonly lines: LineIndex;
  readonly levels: Verdict[];
  readonly mixed: Verdict | null;
  readonly mixedLevels: Int8Array | null;
  readonly title: string | null;
  /** Per transaction, 1 for an `unknown` one that counts as never having run: shown as written, left out of the checks. */
  readonly notRun: Uint8Array | null;
  private readonly forcedByRule = new Map<Rule, ForcedColumns>();
  private readonly memo = new Map<string, unknown>();
  private readsByWriteIndex: Csr1 | null = null;
  private readonly forcedByReadIndex = new Map<Rule, Csr1>();
  private explainer: Explainer | null = null;
  private sourceOrder: Int32Array | null | undefined;
  private txnSourceOrder: Int32Array | null | undefined;

  private prefixFor: { version: number; current: string | null; length: number } = { version: -1, current: null, length: 0 };
  private identityView: TextView | null = null;
  private viewFor: { version: number; current: string | null; view: TextView | null } = { version: -1, current: null, view: null };

  /** partial: a first pass whose strong levels are still pending; text and options: what was analysed, and how. */
  constructor(readonly uri: string, readonly version: number, readonly settingsKey: string, readonly snapshot: AnalysisSnapshot,
    readonly partial = false, readonly text: string | null = null, readonly options: SnapshotOptions | null = null) {
    const c = snapshot.history;
    const { txnNames, sessionNames, keyNames, valueTexts } = c;
    this.ranges = { txnStart: c.txnStart, txnEnd: c.txnEnd, opStart: c.opStart, opEnd: c.opEnd, sessionStart: c.sessionStart, sessionEnd: c.sessionEnd };
    this.history = {
      txnCount: c.txnCount, sessionCount: c.sessionCount, opCount: c.opCount, keyCount: c.keyCount,
      txnSession: c.txnSession, txnIndexInSession: c.txnIndexInSession, txnAborted: c.txnAborted, txnLevel: c.txnLevel,
      txnOpStart: c.txnOpStart, sessionTxnStart: c.sessionTxnStart, sessionTxns: c.sessionTxns,
      opKind: c.opKind, opKey: c.opKey, opValue: c.opValue, opSource: c.opSource, opTxn: c.opTxn, initValues: c.initValues,
      ...(c.opListStart && c.listElems ? { opListStart: c.opListStart, listElems: c.listElems } : {}),
      ...(c.txnUnknown ? { txnUnknown: c.txnUnknown } : {}),
      ...(c.txnTimeStart && c.txnTimeEnd ? { txnTimeStart: c.txnTimeStart, txnTimeEnd: c.txnTimeEnd } : {}),
      names: {
        txnName: (t) => txnNames[t] ?? `#${t}`,
        sessionName: (s) => sessionNames[s] ?? `#${s}`,
        keyName: (k) => keyNames[k] ?? `#${k}`,
        valueText: (v) => (v === INIT_VALUE ? 'init' : v === NO_VALUE ? '?' : valueTexts[v] ?? String(v)),
      },
      ranges: this.ranges,
    };
    this.readsFrom = {
      wrSource: snapshot.wrSource, observedWrite: snapshot.observedWrite, observedTxn: snapshot.observedTxn,
      writeKeyStart: snapshot.writeKeyStart, writeKeys: snapshot.writeKeys, findings: [], violations: snapshot.errors,
    };
    this.lines = LineIndex.ofLineStarts(snapshot.lineStarts);
    this.levels = snapshot.levels;
    this.mixed = snapshot.mixed;
    this.mixedLevels = snapshot.mixedLevels;
    this.title = snapshot.title;
    this.notRun = snapshot.notRun;
    for (const f of snapshot.forced) this.forcedByRule.set(f.rule, f);
  }

  /** The rules whose inferred co edges are known, weakest first. */
  get rules(): Rule[] {
    return RULES.filter((r) => this.forcedByRule.has(r));
  }

  forced(rule: Rule): ForcedColumns | undefined {
    return this.forcedByRule.get(rule);
  }

  /** Indexes (into forced(rule)) of the co edges that read op o forced. */
  forcedByRead(rule: Rule, o: number): Int32Array {
    const f = this.forcedByRule.get(rule);
    if (!f) return new Int32Array(0);
    let idx = this.forcedByReadIndex.get(rule);
    if (!idx) {
      idx = groupBy(f.a, f.a.length, this.history.opCount);
      this.forcedByReadIndex.set(rule, idx);
    }
    return idx.items.subarray(idx.start[o], idx.start[o + 1]);
  }

  get readsByWrite(): Csr1 {
    this.readsByWriteIndex ??= groupBy(this.readsFrom.observedWrite, this.history.opCount, this.history.opCount);
    return this.readsByWriteIndex;
  }

  /** Transactions sorted by header position, or null when their (canonical) ids already are. */
  get txnOrder(): Int32Array | null {
    if (this.txnSourceOrder === undefined) this.txnSourceOrder = txnsBySourceOrder(this.history);
    return this.txnSourceOrder;
  }

  /** Ops sorted by source position, or null when their (canonical) ids already are. */
  get opOrder(): Int32Array | null {
    if (this.sourceOrder === undefined) this.sourceOrder = opsInSourceOrder(this.history) ? null : opsBySourceOrder(this.history);
    return this.sourceOrder;
  }

  /** Sentences for edges; its happens-before paths search so ∪ wr, built on first use. */
  get explain(): Explainer {
    this.explainer ??= new Explainer(this.history, this.readsFrom, () => soWrGraph(this.history, this.readsFrom));
    return this.explainer;
  }

  /** The analysed text (null when the model was built without it). */
  sourceText(): string | null {
    return this.text;
  }

  /** A value derived from this version, computed once (e.g. the graph's analysis JSON). */
  cached<T>(key: string, make: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as T;
  }

  /** A value stored with setCached (one computed elsewhere, e.g. in a worker), if any. */
  peek<T>(key: string): T | undefined {
    return this.memo.get(key) as T | undefined;
  }

  setCached(key: string, value: unknown): void {
    this.memo.set(key, value);
  }

  /** Names this analysed version in the analysis workers' caches. */
  get cacheKey(): string {
    return cacheKeyOf(this.version, this.settingsKey, this.partial);
  }

  /**
   * Where this analysis's offsets stand in the client's text of `version` (`current`): itself for
   * the analysed text, else through the edits made since (cached per version and text: a client
   * may give two texts one number).
   */
  view(version = this.version, current: string | null = null): TextView {
    if (current === null || (version === this.version && current === this.text)) {
      this.identityView ??= TextView.identity(this.lines);
      return this.identityView;
    }
    if (this.viewFor.version !== version || this.viewFor.current !== current || !this.viewFor.view) {
      this.viewFor = { version, current, view: TextView.between(this.lines, this.text ?? '', current) };
    }
    return this.viewFor.view as TextView;
  }

  /** Whether the client's text of `version` is the analysed one (the text too: a client may give two texts one number). */
  analysed(version: number, current: string): boolean {
    return version === this.version && (this.text === null || this.text === current);
  }

  /** How many leading characters a newer version of the document shares with the analysed text (cached per version and text). */
  unchangedPrefix(version: number, current: string): number {
    if (this.prefixFor.version === version && this.prefixFor.current === current) return this.prefixFor.length;
    const old = this.text ?? '';
    const n = Math.min(old.length, current.length);
    let i = 0;
    while (i < n && old.charCodeAt(i) === current.charCodeAt(i)) i++;
    // Back to the start of the line: a token cut by the edit must not be served from the old text.
    while (i > 0 && current.charCodeAt(i - 1) !== 10) i--;
    this.prefixFor = { version, current, length: i };
    return i;
  }
}

/** An analysed version's name in the workers' caches: version, settings, and which pass. */
export function cacheKeyOf(version: number, settingsKey: string, partial: boolean): string {
  return `${version}|${settingsKey}|${partial ? 'quick' : 'full'}`;
}
