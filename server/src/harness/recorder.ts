// Records a run as a `.hist` history: appended to per-client journal files as transactions end, assembled at the end.

import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describeWriteError, OutputError, writeFileAtomic } from '../io/atomic-write.ts';
import type { HistFeatures } from './hist-features.ts';

export type TxnStatus = 'committed' | 'aborted' | 'unknown';

/** One operation as the client saw it complete. */
export type RecordedOp =
  | { kind: 'r'; key: number; value: number }
  | { kind: 'w'; key: number; value: number }
  | { kind: 'a'; key: number; value: number }
  | { kind: 'rl'; key: number; list: number[] };

export interface RecordedTxn {
  name: string;
  session: string;
  status: TxnStatus;
  /** Microseconds on the run's monotonic clock: before BEGIN, after COMMIT (or the failure). */
  start: number;
  end: number;
  ops: RecordedOp[];
}

export interface HistoryHeader {
  title: string;
  /** Comment lines (without '#'). */
  comments: string[];
  /** The claimed level, written as `level L` so that its violations are the history's errors. */
  level: string | null;
  /** Register keys with their initial values (list keys start empty and need no init). */
  registerKeys: number[];
  /** Initial value of each register key (default 0). */
  initial?: (key: number) => number;
  /** Key names (default k1, k2, …). */
  keyName?: KeyNamer;
}

export function keyName(key: number): string {
  return `k${key}`;
}

export type KeyNamer = (key: number) => string;

function renderOp(op: RecordedOp, name: KeyNamer): string {
  switch (op.kind) {
    case 'r':
      return `r(${name(op.key)}, ${op.value})`;
    case 'w':
      return `w(${name(op.key)}, ${op.value})`;
    case 'a':
      return `a(${name(op.key)}, ${op.value})`;
    case 'rl':
      return `r(${name(op.key)}, [${op.list.join(', ')}])`;
  }
}

/** `T7 aborted @ 10..25: r(k1, 3) w(k2, 9)`, or its fallbacks when the parser lacks `unknown` or `@`. */
export function renderTxn(t: RecordedTxn, f: HistFeatures, unknownAs: 'committed' | 'omitted' | 'unknown' = 'unknown', name: KeyNamer = keyName): string {
  const ops = t.ops.map((op) => renderOp(op, name)).join(' ');
  const time = `@ ${t.start}..${t.end}`;
  let status = t.status === 'committed' ? '' : ` ${t.status}`;
  let trailer = f.times ? '' : `  # ${time}`;
  if (t.status === 'unknown' && !f.unknownStatus) {
    if (unknownAs === 'omitted' || unknownAs === 'unknown') return `  # ${t.name} unknown ${time}: ${ops}  (outcome unknown; no committed transaction read its writes)`;
    status = '';
    trailer += '  # outcome unknown; committed: a committed transaction read its writes';
  }
  return `  ${t.name}${status}${f.times ? ` ${time}` : ''}: ${ops}${trailer}`;
}

export function renderHeader(h: HistoryHeader): string {
  const lines = h.comments.map((c) => `# ${c}`);
  lines.push(`history "${h.title.replace(/["\\]/g, '')}"`);
  if (h.level) lines.push(`level ${h.level}`);
  const name = h.keyName ?? keyName;
  if (h.registerKeys.length > 0) lines.push(`init ${h.registerKeys.map((k) => `${name(k)} = ${h.initial?.(k) ?? 0}`).join(', ')}`);
  return lines.join('\n') + '\n';
}

/**
 * Which unknown transactions count as committed: exactly those a committed transaction read from
 * (the most permissive choice, which is exact: see the spec of status `unknown`). Used only when
 * the parser cannot take `unknown` itself.
 */
function unknownsRead(txns: readonly RecordedTxn[]): Set<string> {
  const writerOf = new Map<string, string>();
  for (const t of txns) {
    if (t.status !== 'unknown') continue;
    for (const op of t.ops) if (op.kind === 'w' || op.kind === 'a') writerOf.set(`${op.key}:${op.value}`, t.name);
  }
  const read = new Set<string>();
  for (const t of txns) {
    if (t.status !== 'committed') continue;
    for (const op of t.ops) {
      const vals = op.kind === 'r' ? [op.value] : op.kind === 'rl' ? op.list : [];
      for (const v of vals) {
        const w = writerOf.get(`${op.key}:${v}`);
        if (w !== undefined) read.add(w);
      }
    }
  }
  return read;
}

/** The whole history: header, then each session's transactions in session order. */
export function renderHistory(h: HistoryHeader, txns: readonly RecordedTxn[], f: HistFeatures): string {
  const read = f.unknownStatus ? new Set<string>() : unknownsRead(txns);
  const bySession = new Map<string, RecordedTxn[]>();
  for (const t of txns) {
    const list = bySession.get(t.session);
    if (list) list.push(t);
    else bySession.set(t.session, [t]);
  }
  const out = [renderHeader(h)];
  const sessions = [...bySession.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const session of sessions) {
    const list = bySession.get(session) ?? [];
    out.push(`\nsession ${session}\n`);
    for (const t of list) out.push(renderTxn(t, f, read.has(t.name) ? 'committed' : 'omitted', h.keyName) + '\n');
  }
  return out.join('');
}

/**
 * The journal: `<out>.parts/` holds the header and one append-only file per client, written
 * as each transaction ends, so a crash of the harness leaves a history (`cat <out>.parts/*`).
 * Clients reconnecting open a new session in their own file, so concatenation stays valid.
 * The output's directory must exist (runHarness checks it first): the journal never creates one.
 */
export class Recorder {
  readonly txns: RecordedTxn[] = [];
  private readonly fds = new Map<number, number>();
  private readonly lastSession = new Map<number, string>();
  readonly partsDir: string;
  /** The journal stopped (a full disk): the run goes on in memory, the journal is no longer a whole copy. */
  private journalBroken = false;

  constructor(readonly outFile: string, private readonly header: HistoryHeader, private readonly features: HistFeatures) {
    this.partsDir = `${outFile}.parts`;
    try {
      rmSync(this.partsDir, { recursive: true, force: true });
      mkdirSync(this.partsDir);
      writeFileSync(join(this.partsDir, '000-header.hist'), renderHeader(header));
    } catch (e) {
      rmSync(this.partsDir, { recursive: true, force: true });
      throw new OutputError(`cannot write the journal ${this.partsDir}: ${describeWriteError(e)}`);
    }
  }

  add(client: number, t: RecordedTxn): void {
    this.txns.push(t);
    if (this.journalBroken) return;
    let text = '';
    if (this.lastSession.get(client) !== t.session) {
      text += `\nsession ${t.session}\n`;
      this.lastSession.set(client, t.session);
    }
    text += renderTxn(t, this.features) + '\n';
    try {
      let fd = this.fds.get(client);
      if (fd === undefined) {
        fd = openSync(join(this.partsDir, `${String(client + 1).padStart(3, '0')}-c${client + 1}.hist`), 'a');
        this.fds.set(client, fd);
      }
      writeSync(fd, text);
    } catch {
      // The transaction is recorded in memory; the history is still written whole at the end.
      this.journalBroken = true;
    }
  }

  /**
   * Writes the assembled history atomically (the shared writer: temporary file + rename) and
   * removes the journal. When the history cannot be written the journal stays, if it is whole:
   * it is then the only copy of the run, and the error says where it is.
   */
  finish(): string {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    const text = renderHistory(this.header, this.txns, this.features);
    const written = writeFileAtomic(this.outFile, [text]);
    if (!written.ok) {
      if (!this.journalBroken) throw new OutputError(`${written.message}; the run is kept in its journal ${this.partsDir}/ (cat ${this.partsDir}/* joins it into the history)`);
      rmSync(this.partsDir, { recursive: true, force: true });
      throw new OutputError(written.message);
    }
    rmSync(this.partsDir, { recursive: true, force: true });
    return text;
  }

  /** The journal's files in order (what `cat` would join after a crash). */
  parts(): string[] {
    return readdirSync(this.partsDir).sort().map((f) => join(this.partsDir, f));
  }
}
