// Hand-written recovering parser for .hist files: a History, the directives, and syntax findings.

import { finding, type Finding, type Span } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import { parseAnomaly, type AnomalyCode } from '../listappend/anomaly-table.ts';
import {
  TK_ARROW, TK_AT, TK_BAD, TK_DOTDOT, TK_BOTTOM, TK_COLON, TK_COMMA, TK_EOF, TK_EQUALS, TK_IDENT, TK_LBRACKET, TK_LPAREN, TK_NUMBER,
  TK_RBRACKET, TK_RPAREN, TK_STRING, TOKEN_NAMES, tokenize, unquote, type Tokens,
} from './hist-lexer.ts';
import { levelById, levelId, levelList, LEVELS, parseLevel, someAliases, type Level } from '../levels/levels.ts';

export interface LevelDirective { level: Level; span: Span }
export interface ExpectDirective { level: Level; ok: boolean; span: Span }
/** `expect A found|absent`: an anomaly of the list-append table expected (not) to be reported. */
export interface AnomalyExpectation { anomaly: AnomalyCode; found: boolean; span: Span }

export interface Directives {
  title: string | null;
  level: LevelDirective | null;
  checks: LevelDirective[];
  expects: ExpectDirective[];
  anomalyExpects: AnomalyExpectation[];
}

export interface ParsedFile {
  history: History;
  directives: Directives;
  findings: Finding[];
  /** Where the first list-append operation stands, if any (not checked yet). */
  firstListOp: Span | null;
  /** Whether any transaction carries its own level tag. */
  hasTags: boolean;
}

const DIRECTIVES = new Set(['history', 'level', 'check', 'expect', 'init']);
const STATUSES = new Set(['committed', 'aborted', 'unknown', 'info', 'indeterminate']);
/** What a key holds, fixed by its first append/write or list/scalar read. */
const KEY_FREE = 0;
const KEY_REGISTER = 1;
const KEY_LIST = 2;
const OP_LETTERS: Record<string, number> = { r: OP_READ, read: OP_READ, w: OP_WRITE, write: OP_WRITE, a: OP_APPEND, append: OP_APPEND };

/** A syntax problem, as a value: the first one of an item is reported, then the parser recovers. */
interface Problem {
  message: string;
  span: Span;
}

/** What a parsing step returns instead of a token index or an id when it met a problem. */
const FAILED = -0x7fffffff;
/** Problems reported per file; the rest are counted in one last finding (a pasted blob must not make millions). */
export const MAX_PARSE_PROBLEMS = 100;
/** Longer numeric literals are syntax errors: no value needs them, and converting them is super-linear. */
export const MAX_NUMBER_DIGITS = 30;
/** Tokens quoted in messages are cut to this many characters. */
const MAX_QUOTED = 40;

export function parseHist(text: string): ParsedFile {
  return new Parser(text).parse();
}

class Parser {
  private readonly tk: Tokens;
  private pos = 0;
  private readonly findings: Finding[] = [];
  private readonly builder: HistoryBuilder;
  private readonly keys = new Map<string, number>();
  private readonly keyNames: string[] = [];
  private readonly values = new Map<string, number>();
  private readonly valueNames: string[] = [];
  private readonly txnByName = new Map<string, number>();
  private readonly sessionByName = new Map<string, number>();
  private readonly pendingSources: { op: number; name: string; span: Span }[] = [];
  private readonly initValues = new Map<number, number>();
  private readonly directives: Directives = { title: null, level: null, checks: [], expects: [], anomalyExpects: [] };
  /** Per key: KEY_FREE, KEY_REGISTER or KEY_LIST, and the op that fixed it. */
  private readonly keyKind: number[] = [];
  private readonly keyKindSpan: Span[] = [];
  private session = -1;
  private implicitSession = -1;
  private txn = -1;
  private firstListOp: Span | null = null;
  private hasTags = false;
  /** The problem of the item being parsed, if any; a failing step returns FAILED or false. */
  private problem: Problem | null = null;
  private problems = 0;
  private firstHidden: Span | null = null;

  constructor(private readonly text: string) {
    this.tk = tokenize(text);
    this.builder = new HistoryBuilder(false, this.tk.count >> 2);
  }

  parse(): ParsedFile {
    while (this.kind() !== TK_EOF) {
      const before = this.pos;
      this.item();
      if (this.problem) {
        this.add(finding('syntax', 'error', this.problem.message, this.problem.span));
        this.problem = null;
        this.recover(before);
      }
    }
    this.resolveSources();
    if (this.firstHidden) {
      const hidden = this.problems - MAX_PARSE_PROBLEMS;
      this.findings.push(finding('syntax', 'error', `${hidden} more problem${hidden === 1 ? '' : 's'} in this file not shown (the first ${MAX_PARSE_PROBLEMS} are)`, this.firstHidden));
    }
    const keyNames = this.keyNames;
    const valueNames = this.valueNames;
    const history = this.builder.finish(
      keyNames.length,
      (k) => keyNames[k],
      (v) => (v === INIT_VALUE ? 'init' : v === NO_VALUE ? '?' : valueNames[v]),
      this.initValues,
      true,
      { valueCount: valueNames.length },
    );
    return { history, directives: this.directives, findings: this.findings, firstListOp: this.firstListOp, hasTags: this.hasTags };
  }

  /** Records a finding of the parser, up to MAX_PARSE_PROBLEMS of them. */
  private add(f: Finding): void {
    if (++this.problems <= MAX_PARSE_PROBLEMS) this.findings.push(f);
    else if (this.problems === MAX_PARSE_PROBLEMS + 1) this.firstHidden = f.span;
  }

  // ---- token access ----

  private kind(at = this.pos): number {
    return this.tk.kind[Math.min(at, this.tk.count - 1)];
  }

  private span(at = this.pos): Span {
    const i = Math.min(at, this.tk.count - 1);
    return { start: this.tk.start[i], end: this.tk.end[i] };
  }

  private textOf(at = this.pos): string {
    const i = Math.min(at, this.tk.count - 1);
    return this.text.slice(this.tk.start[i], this.tk.end[i]);
  }

  private lower(at = this.pos): string {
    return this.kind(at) === TK_IDENT ? this.textOf(at).toLowerCase() : '';
  }

  private describe(at = this.pos): string {
    const k = this.kind(at);
    if (k === TK_EOF) return 'end of file';
    const text = this.textOf(at);
    if (k === TK_BAD && text.startsWith('"')) return 'an unterminated string';
    return `'${text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…' (${text.length} characters)` : `${text}'`}`;
  }

  /** Records the item's problem (the first one counts) and returns FAILED. */
  private fail(expected: string): number {
    return this.problemAt(`expected ${expected}, found ${this.describe()}`, this.span());
  }

  private problemAt(message: string, span: Span): number {
    this.problem ??= { message, span };
    return FAILED;
  }

  /** The index of the expected token (consumed), or FAILED. */
  private expect(kind: number, what = TOKEN_NAMES[kind]): number {
    if (this.kind() !== kind) return this.fail(what);
    return this.pos++;
  }

  /** Skips to the next place where an item can start: one typo costs one error. */
  private recover(before: number): void {
    if (this.pos === before) this.pos++;
    while (this.kind() !== TK_EOF && !this.atItemStart()) this.pos++;
  }

  private atItemStart(): boolean {
    if (this.kind() !== TK_IDENT) return false;
    const next = this.kind(this.pos + 1);
    const word = this.lower();
    if (next === TK_LPAREN) return true;
    if (next === TK_COLON || next === TK_LBRACKET) return true;
    if (word === 'session' || DIRECTIVES.has(word)) return true;
    const nextWord = this.lower(this.pos + 1);
    return STATUSES.has(nextWord) && (this.kind(this.pos + 2) === TK_COLON || this.kind(this.pos + 2) === TK_AT)
      || (next === TK_AT && this.kind(this.pos + 2) === TK_NUMBER);
  }

  // ---- items ----

  private item(): void {
    const k = this.kind();
    if (k === TK_COMMA && this.txn >= 0) {
      this.pos++; // commas between operations are optional
      return;
    }
    if (k !== TK_IDENT) {
      this.fail('a directive, a session, a transaction or an operation');
      return;
    }
    const next = this.kind(this.pos + 1);
    const word = this.lower();
    if (next === TK_LPAREN) return this.operation();
    if (next === TK_COLON || next === TK_LBRACKET) return this.txnHeader();
    if (word === 'session') return this.sessionHeader();
    if (DIRECTIVES.has(word)) return this.directive(word);
    const nextWord = this.lower(this.pos + 1);
    if (STATUSES.has(nextWord) || next === TK_AT) return this.txnHeader();
    if (next === TK_IDENT && this.kind(this.pos + 2) === TK_LPAREN) return this.txnHeader(); // `T1 w(x, 1)`: a header without its ':'
    this.problemAt(`unexpected ${this.describe()}: expected a directive, 'session', a transaction header like 'T1:' or an operation like 'r(x, 1)'`, this.span());
  }

  private sessionHeader(): void {
    const kw = this.pos++;
    if (this.kind() !== TK_IDENT && this.kind() !== TK_NUMBER) {
      this.fail('a session name');
      return;
    }
    const nameAt = this.pos++;
    const name = this.textOf(nameAt);
    const span = { start: this.tk.start[kw], end: this.tk.end[nameAt] };
    if (this.sessionByName.has(name)) {
      this.add(finding('duplicate-name', 'error', `session ${name} is defined twice`, this.span(nameAt)));
    }
    this.session = this.builder.addSession(name, span.start, span.end);
    if (!this.sessionByName.has(name)) this.sessionByName.set(name, this.session);
    this.txn = -1;
  }

  /**
   * A header with a problem (a missing ']' or ':') is reported once and still opens the
   * transaction, so its operations are not orphaned into a cascade of errors.
   */
  private txnHeader(): void {
    const idAt = this.pos++;
    const name = this.textOf(idAt);
    let level = -1;
    let problem: Problem | null = null;
    if (this.kind() === TK_LBRACKET) {
      this.pos++;
      if (this.kind() === TK_IDENT) level = this.levelToken();
      else problem = { message: `expected a level (${LEVELS.join(', ')}), found ${this.describe()}`, span: this.span() };
      if (this.kind() === TK_RBRACKET) this.pos++;
      else problem ??= { message: `expected ']' after the level, found ${this.describe()}`, span: this.span() };
      this.hasTags = this.hasTags || level >= 0;
    }
    let aborted = false;
    let unknown = false;
    const status = this.lower();
    if (STATUSES.has(status)) {
      aborted = status === 'aborted';
      unknown = !aborted && status !== 'committed';
      this.pos++;
    }
    let time: [number, number] | null = null;
    if (this.kind() === TK_AT) {
      const r = this.interval();
      if (typeof r === 'string') problem ??= { message: r, span: this.span() };
      else time = r;
    }
    let end = this.tk.end[this.pos - 1];
    if (this.kind() === TK_COLON) end = this.tk.end[this.pos++];
    else problem ??= { message: `expected ':' after transaction ${name}, found ${this.describe()}`, span: this.span() };
    if (problem) this.add(finding('syntax', 'error', problem.message, problem.span));
    const span = { start: this.tk.start[idAt], end };
    if (this.session < 0) {
      this.add(finding('syntax', 'error', `transaction ${name} stands before any 'session'`, span));
      if (this.implicitSession < 0) this.implicitSession = this.builder.addSession('(no session)', span.start, span.start);
    }
    const session = this.session >= 0 ? this.session : this.implicitSession;
    if (this.txnByName.has(name)) {
      this.add(finding('duplicate-name', 'error', `transaction ${name} is defined twice`, this.span(idAt)));
    }
    this.txn = this.builder.addTxn(session, aborted, level, name, span.start, span.end);
    if (unknown) this.builder.setTxnUnknown(this.txn);
    if (time) this.builder.setTxnTime(this.txn, time[0], time[1]);
    if (!this.txnByName.has(name)) this.txnByName.set(name, this.txn);
  }

  /** `@ START..END` (at '@'): the two times, or the problem as a message (the header still opens). */
  private interval(): [number, number] | string {
    this.pos++;
    const startAt = this.pos;
    if (this.kind() !== TK_NUMBER) return `expected the start time after '@' (as in @ 100..130), found ${this.describe()}`;
    this.pos++;
    if (this.kind() !== TK_DOTDOT) return `expected '..' between the start and end times, found ${this.describe()}`;
    this.pos++;
    if (this.kind() !== TK_NUMBER) return `expected the end time after '..', found ${this.describe()}`;
    const start = Number(this.textOf(startAt));
    const end = Number(this.textOf(this.pos));
    this.pos++;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return 'times must be integers of at most 15 digits';
    if (start > end) return `the interval ends (${end}) before it starts (${start})`;
    return [start, end];
  }

  /** A level name; unknown names are reported (unknown-level) and yield -1; no name at all: FAILED. */
  private levelToken(): number {
    if (this.kind() !== TK_IDENT) return this.fail(`a level (${LEVELS.join(', ')})`);
    const at = this.pos++;
    const level = parseLevel(this.textOf(at));
    if (!level) {
      this.add(finding('unknown-level', 'error',
        `unknown level '${this.textOf(at)}': expected ${levelList()} (or an alias such as ${someAliases().join(', ')})`, this.span(at)));
      return -1;
    }
    return levelId(level);
  }

  private operation(): void {
    const letterAt = this.pos;
    const letter = this.lower();
    const kind = OP_LETTERS[letter];
    if (kind === undefined) {
      this.problemAt(`unknown operation '${this.textOf()}': expected r, w or a (read, write, append)`, this.span());
      return;
    }
    this.pos += 2; // letter and '('
    const key = this.key();
    if (key === FAILED) return;
    let value = NO_VALUE;
    let list: number[] | null = null;
    if (kind === OP_READ) {
      if (this.kind() === TK_COMMA) {
        this.pos++;
        if (this.kind() === TK_LBRACKET) {
          list = this.listValue();
          if (!list) return;
        } else value = this.readValue();
      }
    } else if (this.expect(TK_COMMA, `',' and the value ${kind === OP_WRITE ? 'written' : 'appended'}`) !== FAILED) {
      value = this.value();
    }
    if (value === FAILED || this.problem) return;
    const closeAt = this.expect(TK_RPAREN);
    if (closeAt === FAILED) return;
    let end = this.tk.end[closeAt];
    let sourceName: string | null = null;
    let sourceSpan: Span | null = null;
    if (this.kind() === TK_ARROW) {
      if (kind !== OP_READ) {
        this.problemAt(`only a read can name its writer with '<-'`, this.span());
        return;
      }
      this.pos++;
      if (this.kind() !== TK_IDENT && this.kind() !== TK_NUMBER) {
        this.fail('the id of the transaction read from');
        return;
      }
      sourceSpan = this.span();
      sourceName = this.textOf(this.pos++);
      end = sourceSpan.end;
    }
    const span = { start: this.tk.start[letterAt], end };
    if (this.txn < 0) {
      this.add(finding('syntax', 'error', 'this operation stands outside any transaction: start one with a header like T1:', span));
      return;
    }
    if (kind === OP_READ && value === NO_VALUE && list === null && sourceName === null) {
      this.add(finding('syntax', 'error', 'a read needs the value it returned, r(x, 1), or its writer, r(x) <- T1', span));
      return;
    }
    const opKind = list ? OP_LIST_READ : kind;
    if (!this.keyHolds(key, opKind, value, span)) return;
    if ((opKind === OP_APPEND || opKind === OP_LIST_READ) && !this.firstListOp) this.firstListOp = span;
    const op = list
      ? this.builder.addListRead(this.txn, key, list, span.start, span.end)
      : this.builder.addOp(this.txn, opKind, key, value, span.start, span.end);
    if (sourceName !== null && sourceSpan) this.pendingSources.push({ op, name: sourceName, span: sourceSpan });
  }

  private key(): number {
    const k = this.kind();
    let name: string;
    if (k === TK_IDENT || k === TK_NUMBER) name = this.textOf();
    else if (k === TK_STRING) name = unquote(this.textOf());
    else return this.fail('a key');
    this.pos++;
    let id = this.keys.get(name);
    if (id === undefined) {
      id = this.keyNames.length;
      this.keys.set(name, id);
      this.keyNames.push(/^[A-Za-z_][A-Za-z0-9_.-]*$|^-?\d+$/.test(name) ? name : JSON.stringify(name));
    }
    return id;
  }

  private readValue(): number {
    const k = this.kind();
    if (k === TK_BOTTOM || (k === TK_IDENT && (this.lower() === 'init' || this.textOf() === '_'))) {
      this.pos++;
      return INIT_VALUE;
    }
    return this.value();
  }

  private value(): number {
    const k = this.kind();
    let canonical: string;
    let shown: string;
    if (k === TK_NUMBER) {
      const from = this.tk.start[this.pos];
      const digits = this.tk.end[this.pos] - from - (this.text.charCodeAt(from) === 45 ? 1 : 0);
      if (digits > MAX_NUMBER_DIGITS) return this.problemAt(`a number may have at most ${MAX_NUMBER_DIGITS} digits (this one has ${digits})`, this.span());
      shown = BigInt(this.textOf()).toString();
      canonical = 'n' + shown;
    } else if (k === TK_STRING) {
      const s = unquote(this.textOf());
      canonical = 's' + s;
      shown = JSON.stringify(s);
    } else return this.fail('a value (an integer or a quoted string)');
    this.pos++;
    let id = this.values.get(canonical);
    if (id === undefined) {
      id = this.valueNames.length;
      this.values.set(canonical, id);
      this.valueNames.push(shown);
    }
    return id;
  }

  /** `[v1, v2, …]`: the elements' value ids, or null after a problem. */
  private listValue(): number[] | null {
    if (this.expect(TK_LBRACKET) === FAILED) return null;
    const out: number[] = [];
    while (this.kind() !== TK_RBRACKET) {
      const v = this.value();
      if (v === FAILED) return null;
      out.push(v);
      if (this.kind() === TK_COMMA) this.pos++;
      else if (this.kind() !== TK_RBRACKET) {
        this.fail("',' or ']'");
        return null;
      }
    }
    this.pos++;
    return out;
  }

  /**
   * Keys hold registers or lists, never both: the first op that mixes them is an error and is
   * left out (a read of `init` or one naming only its writer fits either).
   */
  private keyHolds(key: number, opKind: number, value: number, span: Span): boolean {
    const wants = opKind === OP_APPEND || opKind === OP_LIST_READ ? KEY_LIST
      : opKind === OP_WRITE || value >= 0 ? KEY_REGISTER : KEY_FREE;
    if (wants === KEY_FREE) return true;
    const has = this.keyKind[key] ?? KEY_FREE;
    if (has === KEY_FREE) {
      this.keyKind[key] = wants;
      this.keyKindSpan[key] = span;
      return true;
    }
    if (has === wants) return true;
    const what = has === KEY_LIST ? 'lists' : 'registers';
    const at = this.keyKindSpan[key];
    this.add(finding('mixed-key', 'error',
      `key ${this.keyNames[key]} holds ${what} (${this.text.slice(at.start, at.end)}), so this ${wants === KEY_LIST ? 'list operation' : 'register operation'} is left out: a key holds registers (w) or lists (a), never both`, span,
      [{ span: at, message: `${this.keyNames[key]} first used here` }]));
    return false;
  }

  private directive(word: string): void {
    const kwAt = this.pos++;
    this.txn = -1; // a transaction's operations run until the next header, session or directive
    switch (word) {
      case 'history': {
        const at = this.expect(TK_STRING, 'a quoted title');
        if (at !== FAILED) this.directives.title = unquote(this.textOf(at));
        return;
      }
      case 'level': {
        const at = this.pos;
        const level = this.levelToken();
        const span = { start: this.tk.start[kwAt], end: this.tk.end[at] };
        if (level < 0) return; // FAILED, or an unknown level already reported
        if (this.directives.level) this.add(finding('syntax', 'error', 'the level is already set by an earlier level directive', span));
        else this.directives.level = { level: levelFromId(level), span };
        return;
      }
      case 'check': {
        if (this.kind() !== TK_IDENT) {
          this.fail('one or more levels');
          return;
        }
        do {
          const at = this.pos;
          const level = this.levelToken();
          if (level >= 0) this.directives.checks.push({ level: levelFromId(level), span: this.span(at) });
          if (this.kind() === TK_COMMA) this.pos++;
        } while (this.kind() === TK_IDENT && !this.atItemStart());
        return;
      }
      case 'expect': {
        const anomaly = this.kind() === TK_IDENT ? parseAnomaly(this.textOf()) : null;
        if (anomaly) {
          this.pos++;
          const verdict = this.lower();
          if (verdict !== 'found' && verdict !== 'absent') {
            this.fail("'found' or 'absent' after an anomaly name");
            return;
          }
          const span = { start: this.tk.start[kwAt], end: this.tk.end[this.pos] };
          this.pos++;
          this.directives.anomalyExpects.push({ anomaly, found: verdict === 'found', span });
          return;
        }
        const level = this.levelToken();
        if (level === FAILED) return;
        const verdict = this.lower();
        if (verdict !== 'ok' && verdict !== 'violated') {
          this.fail("'ok' or 'violated'");
          return;
        }
        const span = { start: this.tk.start[kwAt], end: this.tk.end[this.pos] };
        this.pos++;
        if (level >= 0) this.directives.expects.push({ level: levelFromId(level), ok: verdict === 'ok', span });
        return;
      }
      case 'init': {
        for (;;) {
          const key = this.key();
          if (key === FAILED || this.expect(TK_EQUALS, "'=' and the initial value") === FAILED) return;
          const keyAt = this.pos - 2;
          const value = this.value();
          if (value === FAILED) return;
          if (this.initValues.has(key)) {
            this.add(finding('duplicate-name', 'error', `the initial value of ${this.keyNames[key]} is already set`, this.span(keyAt)));
          } else this.initValues.set(key, value);
          if (this.kind() !== TK_COMMA) return;
          this.pos++;
        }
      }
    }
  }

  private resolveSources(): void {
    for (const p of this.pendingSources) {
      const t = this.txnByName.get(p.name);
      if (t === undefined) {
        this.add(finding('undefined-transaction', 'error', `no transaction is named ${p.name}`, p.span));
        continue;
      }
      this.builder.setOpSource(p.op, t);
    }
  }
}

function levelFromId(id: number): Level {
  return levelById(id);
}
