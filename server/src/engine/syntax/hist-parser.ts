// Hand-written recovering parser for .hist files: a History, the directives, and syntax findings.

import { finding, type Finding, type Span } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import { ANOMALIES, parseAnomaly, type AnomalyCode } from '../listappend/anomaly-table.ts';
import {
  TK_ARROW, TK_AT, TK_BAD, TK_DOTDOT, TK_BOTTOM, TK_COLON, TK_COMMA, TK_EOF, TK_EQUALS, TK_IDENT, TK_LBRACKET, TK_LPAREN, TK_NUMBER,
  TK_RBRACKET, TK_RPAREN, TK_STRING, TOKEN_NAMES, TokenStream, unquote,
} from './hist-lexer.ts';
import { TextInterner } from '../util/interner.ts';
import { HistValues } from './hist-values.ts';
import { levelById, levelId, levelList, LEVELS, parseLevel, someAliases, type Level } from '../levels/levels.ts';
import { stopDue } from '../util/stop.ts';

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

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const DIRECTIVES = new Set(['history', 'level', 'check', 'expect', 'init']);
const STATUSES = new Set(['committed', 'aborted', 'unknown', 'info', 'indeterminate']);
/** What a key holds, fixed by its first append/write or list/scalar read. */
const KEY_FREE = 0;
const KEY_REGISTER = 1;
const KEY_LIST = 2;
/** No prototype: `constructor(x, 1)` or `__proto__(…)` must not find Object's own properties and pass for an operation. */
const OP_LETTERS: Readonly<Record<string, number | undefined>> = Object.assign(Object.create(null) as Record<string, number>,
  { r: OP_READ, read: OP_READ, w: OP_WRITE, write: OP_WRITE, a: OP_APPEND, append: OP_APPEND });

/** A syntax problem, as a value: the first one of an item is reported, then the parser recovers. */
interface Problem {
  message: string;
  span: Span;
  /** A stray token on the line of the last syntax error: that error's debris, recovered from unreported. */
  debris?: boolean;
}

/** Where a session header's name starts (or the name glued to `session`), and its problem if any. */
interface SessionStart {
  after: number;
  glued?: Span;
  problem: Problem | null;
}

/** What a parsing step returns instead of a token index or an id when it met a problem. */
const FAILED = -0x7fffffff;
/** Problems reported per file; the rest are counted in one last finding (a pasted blob must not make millions). */
export const MAX_PARSE_PROBLEMS = 100;
/** Longer numeric literals are syntax errors: no value needs them, and converting them is super-linear. */
export const MAX_NUMBER_DIGITS = 30;
/** What a malformed transaction id or session name is told. */
const NAME_RULE = "may only use ASCII letters, digits, '_', '.' and '-', and must start with a letter or '_'";
/** The name of a session whose header has none (`session` alone on its line). */
const UNNAMED_SESSION = '(no name)';
/** Tokens quoted in messages are cut to this many characters. */
const MAX_QUOTED = 40;
/**
 * How far (in tokens, on one line) a word at a line's start is looked past for the ':' or the
 * operation that makes it a broken transaction header; bounded so that a long line of junk
 * words stays linear.
 */
const HEADER_LOOKAHEAD = 12;

/** stop: polled every STOP_POLL_ITEMS items; true ends the parse there (ReaderOptions.stop). */
export function parseHist(text: string, stop?: () => boolean): ParsedFile {
  return new Parser(text, stop).parse();
}

class Parser {
  private readonly tk: TokenStream;
  private pos = 0;
  private readonly findings: Finding[] = [];
  private readonly builder: HistoryBuilder;
  /** Keys by their name (a string key's content), looked up in the text without slicing it. */
  private readonly keys = new TextInterner(1024);
  /** Per key id: its name as shown (JSON-quoted unless an identifier or an integer). */
  private readonly keyNames: string[] = [];
  /** Value ids (hist-values.ts): integers by number, longer ones by their text, strings by content. */
  private readonly values = new HistValues();
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
  /** Whether the item being parsed is a directive or session header (recovery then skips its line). */
  private lineItem = false;
  /** Where the last syntax error (or debris of it) starts; -1 before any. */
  private lastSyntaxAt = -1;

  constructor(private readonly text: string, private readonly stop?: () => boolean) {
    this.tk = new TokenStream(text);
    this.builder = new HistoryBuilder(false, countOf(text, '('));
  }

  parse(): ParsedFile {
    for (let items = 1; this.kind() !== TK_EOF; items++) {
      if (stopDue(this.stop, items)) break;
      const before = this.pos;
      // Nothing looks back past the token before an item (sameLine): the window may drop the rest.
      this.tk.release(before - 1);
      this.lineItem = false;
      this.item();
      if (this.problem) {
        if (this.problem.debris) this.lastSyntaxAt = Math.max(this.lastSyntaxAt, this.problem.span.start);
        else this.add(finding('syntax', 'error', this.problem.message, this.problem.span));
        this.problem = null;
        // A directive or session header is one line: the rest of a broken one (`expect RA
        // violat(d`) is its debris, not new items to report again.
        if (this.lineItem) this.skipRestOfLine();
        this.recover(before);
      }
    }
    this.resolveSources();
    if (this.firstHidden) {
      const hidden = this.problems - MAX_PARSE_PROBLEMS;
      this.findings.push(finding('syntax', 'error', `${hidden} more problem${hidden === 1 ? '' : 's'} in this file not shown (the first ${MAX_PARSE_PROBLEMS} are)`, this.firstHidden));
    }
    const keyNames = this.keyNames;
    const valueCount = this.values.size;
    const values = this.values;
    const history = this.builder.finish(
      keyNames.length,
      (k) => keyNames[k],
      (v) => values.text(v),
      this.initValues,
      true,
      { valueCount },
    );
    return { history, directives: this.directives, findings: this.findings, firstListOp: this.firstListOp, hasTags: this.hasTags };
  }

  /** Records a finding of the parser, up to MAX_PARSE_PROBLEMS of them. */
  private add(f: Finding): void {
    // An unknown level is a typo too: what it leaves on its line (`[C]]`) is its debris.
    if (f.code === 'syntax' || f.code === 'unknown-level') this.lastSyntaxAt = Math.max(this.lastSyntaxAt, f.span.start);
    if (++this.problems <= MAX_PARSE_PROBLEMS) this.findings.push(f);
    else if (this.problems === MAX_PARSE_PROBLEMS + 1) this.firstHidden = f.span;
  }

  // ---- token access ----

  // Past the end, every index is the EOF token's (TokenStream.slot clamps).

  private kind(at = this.pos): number {
    return this.tk.kind(at);
  }

  private span(at = this.pos): Span {
    return { start: this.tk.start(at), end: this.tk.end(at) };
  }

  private textOf(at = this.pos): string {
    return this.text.slice(this.tk.start(at), this.tk.end(at));
  }

  /** Whether no line break stands between token `at` and the token before it. */
  private sameLine(at = this.pos): boolean {
    if (at <= 0) return false;
    const i = this.tk.slot(at) + this.tk.base;
    for (let c = this.tk.end(i - 1), to = this.tk.start(i); c < to; c++) {
      const ch = this.text.charCodeAt(c);
      if (ch === 10 || ch === 13) return false;
    }
    return true;
  }

  /** Whether token `at` is a run of non-ASCII characters (a letter of a name the lexer does not take). */
  private nonAscii(at: number): boolean {
    return this.kind(at) === TK_BAD && this.text.charCodeAt(this.tk.start(at)) > 127;
  }

  /**
   * The token after the name that starts at `at`: a name is its identifier or non-ASCII run and
   * every such token or number glued to it, so `Tä` or `Tä2` is one (malformed) name, not a name
   * followed by junk that would then be reported once more.
   */
  private nameEnd(at: number): number {
    let i = at + 1;
    while (this.kind(i) !== TK_EOF && this.tk.start(i) === this.tk.end(i - 1)
      && (this.kind(i) === TK_IDENT || this.kind(i) === TK_NUMBER || this.nonAscii(i))) i++;
    return i;
  }

  /** Whether an operation (`w(`) starts at `at`. */
  private opStart(at: number): boolean {
    return this.kind(at) === TK_IDENT && this.kind(at + 1) === TK_LPAREN;
  }

  /** Whether an operation of a known letter starts at `at` (not `T1(`, a header's '(' for ':'). */
  private letterOp(at: number): boolean {
    return this.opStart(at) && OP_LETTERS[this.lower(at)] !== undefined;
  }

  /** Whether an operation with its key (`w(x,`, `r(x)`) starts at `at`: not a header's `T1(` or a level's `C(`. */
  private plausibleOp(at: number): boolean {
    const key = this.kind(at + 2);
    const after = this.kind(at + 3);
    return this.opStart(at) && (key === TK_IDENT || key === TK_NUMBER || key === TK_STRING) && (after === TK_COMMA || after === TK_RPAREN);
  }

  /**
   * Whether a ':' or an operation follows `from` on the same line, past a few stray tokens: the
   * line then is a transaction header with a typo (`T1; w(x, 1)`), and its operations are its own.
   */
  private headerAhead(from: number): boolean {
    for (let i = from, n = 0; n < HEADER_LOOKAHEAD && this.kind(i) !== TK_EOF && this.sameLine(i); i++, n++) {
      if (this.kind(i) === TK_COLON || this.letterOp(i)) return true;
    }
    return false;
  }

  /**
   * OP_LETTERS of the word at `at`, one letter without slicing it (the per-operation path), any
   * other word through its lower-case text as before.
   */
  private opLetter(at: number): number | undefined {
    const from = this.tk.start(at);
    if (this.tk.end(at) - from === 1 && this.kind(at) === TK_IDENT) {
      const c = this.text.charCodeAt(from) | 0x20;
      return c === 0x72 ? OP_READ : c === 0x77 ? OP_WRITE : c === 0x61 ? OP_APPEND : undefined;
    }
    return OP_LETTERS[this.lower(at)];
  }

  /** Whether the token at `at` is an identifier that is `word` (lower case) in any case, without slicing it. */
  private isWord(at: number, word: string): boolean {
    const from = this.tk.start(at);
    if (this.kind(at) !== TK_IDENT || this.tk.end(at) - from !== word.length) return false;
    for (let i = 0; i < word.length; i++) if ((this.text.charCodeAt(from + i) | 0x20) !== word.charCodeAt(i)) return false;
    return true;
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

  /**
   * Whether `at` stands on the line of the last syntax error. Scans from that error (or its last
   * debris) on, so over a file the scans cover each character about once; `at` may also stand a
   * little before it (a header's span starts before its problem).
   */
  private onErrorLine(at: number): boolean {
    if (this.lastSyntaxAt < 0) return false;
    for (let c = Math.min(at, this.lastSyntaxAt), to = Math.max(at, this.lastSyntaxAt); c < to; c++) {
      const ch = this.text.charCodeAt(c);
      if (ch === 10 || ch === 13) return false;
    }
    return true;
  }

  /**
   * A token that starts no item: a syntax problem, unless it stands on the line of the last
   * syntax error, whose debris it is (`r(x) 1)`: the `1)` left of a ',' typed as ')').
   */
  private stray(message: string): void {
    const span = this.span();
    this.problem ??= { message, span, debris: this.onErrorLine(span.start) };
  }

  /**
   * A problem of a file's structure (a broken header, a transaction outside a session, an
   * operation outside a transaction): reported unless it stands on the line of the last syntax
   * error. Such a line is most often prose whose comment mark was lost, or a header broken
   * once; each of its words must not cost an error. Problems inside an operation are always
   * reported: each is its own.
   */
  private structural(message: string, span: Span): void {
    if (this.onErrorLine(span.start)) this.lastSyntaxAt = Math.max(this.lastSyntaxAt, span.start);
    else this.add(finding('syntax', 'error', message, span));
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

  /** Skips the tokens left on the current token's line. */
  private skipRestOfLine(): void {
    while (this.kind() !== TK_EOF && this.sameLine()) this.pos++;
  }

  /**
   * Whether the keyword at the current token is followed by what it takes. Recovery resumes at
   * a keyword only then: `init` is also a read's value (`r(, init)` must not resume at a
   * directive that fails once more), and `level` may be a key.
   */
  private keywordShaped(word: string): boolean {
    const next = this.kind(this.pos + 1);
    if (word === 'session') return next === TK_IDENT || next === TK_NUMBER || this.nonAscii(this.pos + 1);
    if (word === 'history') return next === TK_STRING;
    if (word === 'init') return (next === TK_IDENT || next === TK_NUMBER || next === TK_STRING) && this.kind(this.pos + 2) === TK_EQUALS;
    return next === TK_IDENT;
  }

  private atItemStart(): boolean {
    if (this.kind() !== TK_IDENT) return false;
    const next = this.kind(this.pos + 1);
    const word = this.lower();
    // `ini(` after `r(x, ` is debris of the broken operation, not a new one to report again;
    // `T1( w(` is a header with '(' for ':'.
    if (next === TK_LPAREN) return OP_LETTERS[word] !== undefined || this.opStart(this.pos + 2);
    if (next === TK_COLON || next === TK_LBRACKET) return true;
    if (word === 'session' || DIRECTIVES.has(word)) return this.keywordShaped(word);
    const nextWord = this.lower(this.pos + 1);
    return STATUSES.has(nextWord) && (this.kind(this.pos + 2) === TK_COLON || this.kind(this.pos + 2) === TK_AT)
      || (next === TK_AT && this.kind(this.pos + 2) === TK_NUMBER);
  }

  // ---- items ----

  private item(): void {
    const k = this.kind();
    // The common items first: nothing below reads them otherwise (and a misspelled `session`
    // line has no ':' after its first word, nor a key and ',' or ')' after a '(').
    if (k === TK_IDENT && (this.kind(this.pos + 1) === TK_COLON || this.plausibleOp(this.pos))) {
      return this.kind(this.pos + 1) === TK_COLON ? this.txnHeader() : this.operation();
    }
    const lineStart = !this.sameLine();
    if (lineStart) {
      const session = this.misspelledSession();
      if (session) return this.sessionHeader(session);
    }
    if (k === TK_COMMA && this.txn >= 0) {
      this.pos++; // commas between operations are optional
      return;
    }
    if (k !== TK_IDENT) {
      // `é: w(x, 1)`, `1: w(x, 1)`: a header whose id is not an identifier; `(1: w(x, 1)` too.
      const named = k === TK_NUMBER || this.nonAscii(this.pos)
        || (lineStart && this.kind(this.pos + 1) === TK_NUMBER && this.tk.start(this.pos + 1) === this.tk.end(this.pos));
      if (named && (this.kind(this.pos + 1) === TK_COLON || (lineStart && this.headerAhead(this.nameEnd(this.pos))))) return this.txnHeader();
      this.stray(`expected a directive, a session, a transaction or an operation, found ${this.describe()}`);
      return;
    }
    const next = this.kind(this.pos + 1);
    const word = this.lower();
    if (next === TK_LPAREN) {
      if (this.plausibleOp(this.pos)) return this.operation();
      // `history (…`: a directive's argument with a stray '('.
      if (word === 'session') return this.sessionHeader({ after: this.pos + 1, problem: null });
      if (DIRECTIVES.has(word)) return this.directive(word);
      // `T1( w(x, 1)`, `T(: …`, `T1 (PC]: …`: '(' typed in a header. An operation has a key and
      // ',' or ')' after its '(', and a letter that is no operation then is the unknown one.
      if (OP_LETTERS[word] === undefined && this.headerAhead(this.pos + 2)) return this.txnHeader();
      return this.operation();
    }
    // `r[x, 1)`: '[' typed for an operation's '(' (a header's tag is a level and ']', never a ',').
    if (next === TK_LBRACKET && OP_LETTERS[word] !== undefined && this.kind(this.pos + 3) === TK_COMMA) {
      this.problemAt(`expected '(' after '${this.textOf()}', found '['`, this.span(this.pos + 1));
      return this.operation(); // parses on to the value for recovery, and is left out
    }
    if (next === TK_COLON || next === TK_LBRACKET) return this.txnHeader();
    // A keyword in mid-line without its argument (`r(x) init)`) is debris, not a directive to report.
    const keyword = lineStart || this.keywordShaped(word);
    if (word === 'session' && keyword) return this.sessionHeader({ after: this.pos + 1, problem: null });
    if (DIRECTIVES.has(word) && keyword) return this.directive(word);
    const nextWord = this.lower(this.pos + 1);
    if (STATUSES.has(nextWord) || next === TK_AT) return this.txnHeader();
    if (next === TK_IDENT && this.kind(this.pos + 2) === TK_LPAREN) return this.txnHeader(); // `T1 w(x, 1)`: a header without its ':'
    // `T1 commited:`: a header with a misspelled status (on one line: `sessi` above `T1:` is not).
    if (next === TK_IDENT && (this.kind(this.pos + 2) === TK_COLON || this.kind(this.pos + 2) === TK_AT) && this.sameLine(this.pos + 1)) {
      return this.txnHeader();
    }
    // `T1; w(x, 1)`, `Tä: w(x, 1)`: a line that starts with a word and reaches a ':' or an
    // operation is a header with a typo. Only at a line's start: a stray word between the
    // operations of a transaction is junk, and must not open a transaction of its own.
    if (lineStart && this.headerAhead(this.pos + 1)) return this.txnHeader();
    this.stray(`unexpected ${this.describe()}: expected a directive, 'session', a transaction header like 'T1:' or an operation like 'r(x, 1)'`);
  }

  /**
   * A line that is `session` one character off (`sesion s1`, `ses;ion s1`, `sessions1`) and a
   * name: where its name starts, and the problem to report. Read as a session header, its
   * transactions are not reported once more as standing before any session (or silently
   * added to the session before).
   */
  private misspelledSession(): SessionStart | null {
    const from = this.tk.start(this.pos);
    let to = from;
    while (to < this.text.length && to - from <= MAX_QUOTED && !isSpace(this.text.charCodeAt(to))) to++;
    // Most lines start with a header or an operation: only words of 6 to 8 characters, or longer
    // ones starting with 'session', are worth a closer look.
    const length = to - from;
    const first = this.text.charCodeAt(from) | 0x20;
    // One edit from 'session' keeps its 's' first, or its 'e' first or second.
    if (first !== 0x73 && first !== 0x65 && (this.text.charCodeAt(from + 1) | 0x20) !== 0x65) return null;
    if (length < 6 || (length > 8 && this.text.slice(from, from + 7).toLowerCase() !== 'session')) return null;
    const word = this.text.slice(from, to);
    const lower = word.toLowerCase();
    if (lower === 'session') return null;
    let after = this.pos;
    while (this.kind(after) !== TK_EOF && this.tk.start(after) < to) after++;
    const lineEndsAt = (i: number): boolean => this.kind(i) === TK_EOF || !this.sameLine(i);
    if (withinOneEdit(lower, 'session')) {
      const nameAt = after;
      const nameStart = this.kind(nameAt) === TK_IDENT || this.kind(nameAt) === TK_NUMBER || this.nonAscii(nameAt);
      if (!nameStart || lineEndsAt(nameAt) || !lineEndsAt(this.nameEnd(nameAt))) return null;
      return { after, problem: { message: `unknown word '${word}': did you mean 'session'?`, span: { start: from, end: to } } };
    }
    // `sessions1`: the space before the name left out.
    if (lower.startsWith('session') && /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(word.slice(7)) && this.kind(this.pos) === TK_IDENT
      && after === this.pos + 1 && lineEndsAt(after)) {
      const glued = { start: from + 7, end: to };
      return { after, glued, problem: { message: `expected a space between 'session' and its name, found '${word}'`, span: { start: from, end: to } } };
    }
    return null;
  }

  /**
   * `session NAME`, the keyword's word ending before token `after`. A header with a problem (a
   * misspelled keyword, a missing or malformed name) is reported once and still opens a session,
   * so that its transactions are not reported as standing before any session.
   */
  private sessionHeader(start: SessionStart): void {
    this.lineItem = true;
    const kwStart = this.tk.start(this.pos);
    this.pos = start.after;
    let problem = start.problem;
    let nameSpan: Span | null = start.glued ?? null;
    const nameStart = (): boolean => this.kind() === TK_IDENT || this.kind() === TK_NUMBER || this.nonAscii(this.pos);
    if (!nameSpan) {
      // The name may stand on the next line (newlines are only whitespace); after a stray
      // character (`session; s1`) only on the keyword's line.
      let named = nameStart();
      if (!named) {
        problem ??= { message: `expected a session name, found ${this.describe()}`, span: this.span() };
        for (let n = 0; n < 3 && this.kind() !== TK_EOF && this.sameLine() && !nameStart(); n++) this.pos++;
        named = nameStart() && this.sameLine();
      }
      if (named) {
        const nameAt = this.pos;
        this.pos = this.nameEnd(nameAt);
        nameSpan = { start: this.tk.start(nameAt), end: this.tk.end(this.pos - 1) };
        if (this.pos > nameAt + 1 || this.kind(nameAt) === TK_BAD) {
          problem ??= { message: `session name '${this.text.slice(nameSpan.start, nameSpan.end)}' ${NAME_RULE}`, span: nameSpan };
        }
      }
    }
    if (problem) this.structural(problem.message, problem.span);
    const name = nameSpan ? this.text.slice(nameSpan.start, nameSpan.end) : UNNAMED_SESSION;
    const end = nameSpan ? nameSpan.end : this.tk.end(start.after - 1);
    if (nameSpan && !problem && this.sessionByName.has(name)) {
      this.add(finding('duplicate-name', 'error', `session ${name} is defined twice`, nameSpan));
    }
    this.session = this.builder.addSession(name, kwStart, end);
    if (nameSpan && !this.sessionByName.has(name)) this.sessionByName.set(name, this.session);
    this.txn = -1;
  }

  /**
   * A header with a problem (a malformed id, a missing ']' or ':', an unknown status, a broken
   * interval) is reported once and still opens the transaction: the rest of its line up to the
   * ':' or the first operation is skipped, and its operations (on that line and after) are its
   * own, neither orphaned into a cascade of errors nor added to the transaction before.
   */
  private txnHeader(): void {
    const idAt = this.pos;
    this.pos = this.nameEnd(idAt);
    const idSpan = { start: this.tk.start(idAt), end: this.tk.end(this.pos - 1) };
    const name = this.text.slice(idSpan.start, idSpan.end);
    let level = -1;
    let problem: Problem | null = null;
    if (this.pos > idAt + 1 || this.kind(idAt) !== TK_IDENT) problem = { message: `transaction id '${name}' ${NAME_RULE}`, span: idSpan };
    if (this.kind() === TK_LBRACKET) {
      this.pos++;
      // `T1[ w(x, 1)`: a '[' typed for ':' is followed by an operation, not a level to report too.
      // `T1 [FOO]:` is an unknown level; `h[story "…"` (a '[' typed into a word) is no tag at all:
      // one problem for the header, not an unknown level besides.
      const tag = this.kind() === TK_IDENT && !this.plausibleOp(this.pos)
        && (this.kind(this.pos + 1) === TK_RBRACKET || parseLevel(this.textOf()) !== null);
      if (tag) level = this.levelToken();
      else problem ??= { message: `expected a level (${LEVELS.join(', ')}), found ${this.describe()}`, span: this.span() };
      if (this.kind() === TK_RBRACKET) this.pos++;
      else problem ??= { message: `expected ']' after the level, found ${this.describe()}`, span: this.span() };
      this.hasTags = this.hasTags || level >= 0;
    }
    let aborted = false;
    let unknown = false;
    const status = this.lower();
    if (STATUSES.has(status) && this.nameEnd(this.pos) === this.pos + 1) {
      aborted = status === 'aborted';
      unknown = !aborted && status !== 'committed';
      this.pos++;
    } else if ((this.kind() === TK_IDENT || this.nonAscii(this.pos)) && this.sameLine() && !this.plausibleOp(this.pos)) {
      // `T1 commited:` is read as the status one character off, reported once. A word no status
      // is near leaves the outcome unknown: the checker then assumes neither.
      const at = this.pos;
      this.pos = this.nameEnd(at);
      const word = { start: this.tk.start(at), end: this.tk.end(this.pos - 1) };
      const text = this.text.slice(word.start, word.end);
      const near = [...STATUSES].find((s) => withinOneEdit(text.toLowerCase(), s));
      aborted = near === 'aborted';
      unknown = near !== 'aborted' && near !== 'committed';
      problem ??= {
        message: `unknown status '${text}': ${near ? `did you mean '${near}'?` : 'expected committed, aborted or unknown (also info, indeterminate)'}`,
        span: word,
      };
    }
    let time: [number, number] | null = null;
    if (this.kind() === TK_AT) {
      const atAt = this.pos;
      const r = this.interval();
      // A malformed interval is reported at the token that breaks it; a complete one whose times
      // are wrong (`@ 150..140`) at the interval itself, not at what follows it.
      const whole = this.pos > atAt + 3 && this.kind(this.pos - 1) === TK_NUMBER;
      if (typeof r === 'string') problem ??= { message: r, span: whole ? { start: this.tk.start(atAt), end: this.tk.end(this.pos - 1) } : this.span() };
      else time = r;
    }
    if (this.kind() !== TK_COLON) {
      problem ??= { message: `expected ':' after transaction ${name}, found ${this.describe()}`, span: this.span() };
      this.skipHeaderRest();
    }
    let end = this.tk.end(this.pos - 1);
    if (this.kind() === TK_COLON) end = this.tk.end(this.pos++);
    if (problem) this.structural(problem.message, problem.span);
    const span = { start: this.tk.start(idAt), end };
    if (this.session < 0 && this.implicitSession < 0) {
      // Reported at the first such transaction only: the others before the first session are
      // most often there because that `session` line is broken, an error of its own already.
      this.structural(`transaction ${name} stands before any 'session'`, span);
      this.implicitSession = this.builder.addSession('(no session)', span.start, span.start);
    }
    const session = this.session >= 0 ? this.session : this.implicitSession;
    if (this.txnByName.has(name)) {
      this.add(finding('duplicate-name', 'error', `transaction ${name} is defined twice`, idSpan));
    }
    this.txn = this.builder.addTxn(session, aborted, level, name, span.start, span.end);
    if (unknown) this.builder.setTxnUnknown(this.txn);
    if (time) this.builder.setTxnTime(this.txn, time[0], time[1]);
    if (!this.txnByName.has(name)) this.txnByName.set(name, this.txn);
  }

  /** Skips a broken header's debris on its line, up to its ':' or its first operation. */
  private skipHeaderRest(): void {
    while (this.kind() !== TK_EOF && this.kind() !== TK_COLON && !this.letterOp(this.pos) && this.sameLine()) this.pos++;
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
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return `times must be integers of magnitude at most 2^53 - 1 (${Number.MAX_SAFE_INTEGER})`;
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
    const kind = this.opLetter(letterAt);
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
    let end = this.tk.end(closeAt);
    let sourceName: string | null = null;
    let sourceSpan: Span | null = null;
    if (this.kind() === TK_ARROW) {
      if (kind !== OP_READ) {
        this.problemAt(`only a read can name its writer with '<-'`, this.span());
        return;
      }
      const arrowAt = this.pos++;
      // A writer left out (`r(x) <-` at a line's end) does not take the next line's item for it:
      // `T3:` there is a header, not T3 as the writer (one typo, one error, T3 still checked).
      if (!this.sameLine() && this.atItemStart()) {
        this.problemAt("expected the id of the transaction read from after '<-'", this.span(arrowAt));
        return;
      }
      if (this.kind() !== TK_IDENT && this.kind() !== TK_NUMBER) {
        this.fail('the id of the transaction read from');
        return;
      }
      sourceSpan = this.span();
      sourceName = this.textOf(this.pos++);
      end = sourceSpan.end;
    }
    // The op's span as two numbers: an object only where one is kept or reported (one per op was most of the parse's garbage).
    const start = this.tk.start(letterAt);
    if (this.txn < 0) {
      this.structural('this operation stands outside any transaction: start one with a header like T1:', { start, end });
      return;
    }
    if (kind === OP_READ && value === NO_VALUE && list === null && sourceName === null) {
      this.add(finding('syntax', 'error', 'a read needs the value it returned, r(x, 1), or its writer, r(x) <- T1', { start, end }));
      return;
    }
    const opKind = list ? OP_LIST_READ : kind;
    if (!this.keyHolds(key, opKind, value, start, end)) return;
    if ((opKind === OP_APPEND || opKind === OP_LIST_READ) && !this.firstListOp) this.firstListOp = { start, end };
    const op = list
      ? this.builder.addListRead(this.txn, key, list, start, end)
      : this.builder.addOp(this.txn, opKind, key, value, start, end);
    if (sourceName !== null && sourceSpan) this.pendingSources.push({ op, name: sourceName, span: sourceSpan });
  }

  private key(): number {
    const k = this.kind();
    const from = this.tk.start(this.pos);
    const to = this.tk.end(this.pos);
    let id: number;
    let name: string | null = null;
    if (k === TK_IDENT || k === TK_NUMBER) id = this.keys.find(this.text, from, to);
    else if (k === TK_STRING) {
      // Without a backslash, a string's content is its text between the quotes.
      if (!this.hasBackslash(from, to)) id = this.keys.find(this.text, from + 1, to - 1);
      else {
        name = unquote(this.text.slice(from, to));
        id = this.keys.find(name, 0, name.length);
      }
    } else return this.fail('a key');
    this.pos++;
    if (id < 0) {
      name ??= k === TK_STRING ? this.text.slice(from + 1, to - 1) : this.text.slice(from, to);
      id = this.keys.add(name);
      this.keyNames.push(/^[A-Za-z_][A-Za-z0-9_.-]*$|^-?\d+$/.test(name) ? name : JSON.stringify(name));
    }
    return id;
  }

  private readValue(): number {
    const k = this.kind();
    if (k === TK_BOTTOM || this.isWord(this.pos, 'init') || (k === TK_IDENT && this.tk.end(this.pos) - this.tk.start(this.pos) === 1 && this.text.charCodeAt(this.tk.start(this.pos)) === 95)) {
      this.pos++;
      return INIT_VALUE;
    }
    return this.value();
  }

  private value(): number {
    const k = this.kind();
    const from = this.tk.start(this.pos);
    const to = this.tk.end(this.pos);
    if (k === TK_NUMBER) {
      const negative = this.text.charCodeAt(from) === 45;
      const digits = to - from - (negative ? 1 : 0);
      if (digits > MAX_NUMBER_DIGITS) return this.problemAt(`a number may have at most ${MAX_NUMBER_DIGITS} digits (this one has ${digits})`, this.span());
      this.pos++;
      let n = 0;
      if (digits <= 15) {
        // Exact in a double: no BigInt and no string (measured: BigInt(text).toString() per value was a third of the parse).
        for (let i = negative ? from + 1 : from; i < to; i++) n = n * 10 + (this.text.charCodeAt(i) - 48);
        if (negative) n = -n;
      } else {
        const big = BigInt(this.text.slice(from, to));
        if (big > MAX_SAFE || big < -MAX_SAFE) return this.values.big(big.toString());
        n = Number(big);
      }
      return this.values.number(n);
    }
    if (k !== TK_STRING) return this.fail('a value (an integer or a quoted string)');
    this.pos++;
    return this.hasBackslash(from, to) ? this.values.string(unquote(this.text.slice(from, to))) : this.values.stringAt(this.text, from + 1, to - 1);
  }

  /** Whether text[from, to) holds a backslash (a string token's escape). */
  private hasBackslash(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (this.text.charCodeAt(i) === 92) return true;
    return false;
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
  private keyHolds(key: number, opKind: number, value: number, start: number, end: number): boolean {
    // A read of `init` fits either; `r(k) <- T` (no value) reads T's write of a register.
    const wants = opKind === OP_APPEND || opKind === OP_LIST_READ ? KEY_LIST
      : opKind === OP_WRITE || value >= 0 || value === NO_VALUE ? KEY_REGISTER : KEY_FREE;
    if (wants === KEY_FREE) return true;
    const has = this.keyKind[key] ?? KEY_FREE;
    if (has === KEY_FREE) {
      this.keyKind[key] = wants;
      this.keyKindSpan[key] = { start, end };
      return true;
    }
    if (has === wants) return true;
    const what = has === KEY_LIST ? 'lists' : 'registers';
    const at = this.keyKindSpan[key];
    this.add(finding('mixed-key', 'error',
      `key ${this.keyNames[key]} holds ${what} (${this.text.slice(at.start, at.end)}), so this ${wants === KEY_LIST ? 'list operation' : 'register operation'} is left out: a key holds registers (w) or lists (a), never both`, { start, end },
      [{ span: at, message: `${this.keyNames[key]} first used here` }]));
    return false;
  }

  private directive(word: string): void {
    this.lineItem = true;
    const kwAt = this.pos++;
    this.txn = -1; // a transaction's operations run until the next header, session or directive
    // A directive whose argument is missing (`level` with its level commented out) is one error:
    // the next line's item (`session s1`) is not taken for its argument.
    if (word !== 'history' && this.kind() === TK_IDENT && !this.sameLine() && this.atItemStart()) {
      this.fail(word === 'init' ? 'a key, \'=\' and its initial value' : word === 'check' ? 'one or more levels' : 'a level');
      return;
    }
    switch (word) {
      case 'history': {
        const at = this.expect(TK_STRING, 'a quoted title');
        if (at !== FAILED) this.directives.title = unquote(this.textOf(at));
        return;
      }
      case 'level': {
        const at = this.pos;
        const level = this.levelToken();
        const span = { start: this.tk.start(kwAt), end: this.tk.end(at) };
        if (level < 0) return; // FAILED, or an unknown level already reported
        if (this.directives.level) this.add(finding('syntax', 'error', 'the level is already set by an earlier level directive', span));
        else this.directives.level = { level: levelFromId(level), span };
        return;
      }
      case 'check': {
        // The list may go on over lines (newlines are whitespace), but a word on a later line that
        // is no level starts the next item (`check` with its levels commented out, then `expect …`).
        const more = (): boolean => this.kind() === TK_IDENT && !this.atItemStart() && (this.sameLine() || parseLevel(this.textOf()) !== null);
        if (!more()) {
          this.fail('one or more levels');
          return;
        }
        do {
          const at = this.pos;
          const level = this.levelToken();
          if (level >= 0) this.directives.checks.push({ level: levelFromId(level), span: this.span(at) });
          if (this.kind() === TK_COMMA) this.pos++;
        } while (more());
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
          const span = { start: this.tk.start(kwAt), end: this.tk.end(this.pos) };
          this.pos++;
          this.directives.anomalyExpects.push({ anomaly, found: verdict === 'found', span });
          return;
        }
        // A name that is no anomaly and no level, followed by found/absent: one mistyped anomaly, one error.
        if (this.kind() === TK_IDENT && !parseLevel(this.textOf()) && this.tk.kind(this.pos + 1) === TK_IDENT) {
          const next = this.textOf(this.pos + 1).toLowerCase();
          if (next === 'found' || next === 'absent') {
            this.add(finding('syntax', 'error', `unknown anomaly '${this.textOf()}': expected one of ${ANOMALIES.map((a) => a.code).join(', ')} (or aborted-read, intermediate-read)`, this.span(this.pos)));
            this.pos += 2;
            return;
          }
        }
        // `expect RAviolated`, `expect R[ violated`: a word that is no level and no verdict after
        // it is one problem, not an unknown level and a missing verdict besides.
        if (this.kind() === TK_IDENT && parseLevel(this.textOf()) === null) {
          const after = this.lower(this.pos + 1);
          if ((after !== 'ok' && after !== 'violated') || !this.sameLine(this.pos + 1)) {
            this.fail(`a level (${LEVELS.join(', ')}) and 'ok' or 'violated'`);
            return;
          }
        }
        const level = this.levelToken();
        if (level === FAILED) return;
        const verdict = this.lower();
        if (verdict !== 'ok' && verdict !== 'violated') {
          this.fail("'ok' or 'violated'");
          return;
        }
        const span = { start: this.tk.start(kwAt), end: this.tk.end(this.pos) };
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

/**
 * How often `c` occurs in text: an operation has one '(', so this sizes the builder's columns
 * (a few milliseconds on a 1M-operation file; columns grown by doubling instead stay up to twice
 * too long through the whole analysis).
 */
function countOf(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) n++;
  return n;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whether `a` is `b` with one character deleted, inserted, replaced, or two neighbours swapped. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  }
  return a.length < b.length ? a.slice(i) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
}

function levelFromId(id: number): Level {
  return levelById(id);
}
