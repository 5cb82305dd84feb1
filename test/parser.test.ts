// The .hist language (history-dsl.md): every construct, exact source spans, and error recovery.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText, type Analysis, type Verdict } from '../server/src/engine/analyze.ts';
import type { Finding, Span } from '../server/src/engine/model/diagnostics.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, OP_WRITE, type History } from '../server/src/engine/model/history.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { expected, fmtFinding, fmtFindings, fmtSpan, marked, sorted } from './helpers/marked.ts';

// ---- helpers: the parsed history as readable lines ----

function txnId(h: History, name: string): number {
  for (let t = 1; t < h.txnCount; t++) if (h.names.txnName(t) === name) return t;
  throw new Error(`no transaction ${name}`);
}

function opText(h: History, o: number): string {
  const k = h.names.keyName(h.opKey[o]);
  const v = h.opValue[o];
  const value = v === INIT_VALUE ? 'init' : v === NO_VALUE ? null : h.names.valueText(v);
  const src = h.opSource && h.opSource[o] >= 0 ? ` <- ${h.names.txnName(h.opSource[o])}` : '';
  switch (h.opKind[o]) {
    case OP_READ: return `r(${k}${value === null ? '' : `, ${value}`})${src}`;
    case OP_WRITE: return `w(${k}, ${value})`;
    case OP_APPEND: return `a(${k}, ${value})`;
    case OP_LIST_READ: return `r(${k}, [..])`;
    default: return `?(${k})`;
  }
}

/** "s1/T1 [RA] aborted: w(x, 1) r(y, init)", one line per transaction in id (session) order. */
function describeHistory(h: History): string[] {
  const out: string[] = [];
  for (let t = 1; t < h.txnCount; t++) {
    const level = h.txnLevel[t] >= 0 ? ` [${LEVELS[h.txnLevel[t]]}]` : '';
    const status = h.txnAborted[t] === 1 ? ' aborted' : '';
    const ops: string[] = [];
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) ops.push(opText(h, o));
    out.push(`${h.names.sessionName(h.txnSession[t])}/${h.names.txnName(t)}${level}${status}: ${ops.join(' ')}`);
  }
  return out;
}

function headerSpan(h: History, t: number): Span {
  assert.ok(h.ranges, 'a parsed .hist history has source ranges');
  return { start: h.ranges.txnStart[t], end: h.ranges.txnEnd[t] };
}

function opSpans(h: History, t: number): Span[] {
  assert.ok(h.ranges, 'a parsed .hist history has source ranges');
  const out: Span[] = [];
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) out.push({ start: h.ranges.opStart[o], end: h.ranges.opEnd[o] });
  return out;
}

function only(findings: readonly Finding[], code: string): Finding[] {
  return findings.filter((f) => f.code === code);
}

/** The weak levels' verdicts: every level is evaluated by default, the strong ones follow CC. */
function weak(a: Analysis): Verdict[] {
  return a.levels.filter((v) => v.level === 'RC' || v.level === 'RA' || v.level === 'CC');
}

function verdicts(text: string): Record<string, boolean | null> {
  const a = analyzeHistText(text);
  return Object.fromEntries(weak(a).map((v) => [v.level, v.consistent]));
}

const FRACTURED = `session s1
  T1: w(x, 1) w(y, 1)
session s2
  T2: r(y, init) r(x, 1)
`;

// ---- the test helper itself ----

describe('test helper marked()', () => {
  test('strips [[ ]] and ⟦ ⟧ markers and returns the ranges in opening order', () => {
    const m = marked('a [[bc]] d\n⟦T1 [RA]⟧: [[r([[x]], 1)]]');
    assert.equal(m.text, 'a bc d\nT1 [RA]: r(x, 1)');
    assert.deepEqual(m.ranges.map((_, i) => m.slice(i)), ['bc', 'T1 [RA]', 'r(x, 1)', 'x']);
    assert.equal(m.at(0), '[0:2..0:4]');
    assert.equal(m.at(2), '[1:9..1:16]');
  });

  test('formats findings as "CODE severity [l:c..l:c]"', () => {
    const text = 'abc\ndef';
    assert.equal(fmtFinding(text, { code: 'RA', severity: 'error', span: { start: 5, end: 7 } }), 'RA error [1:1..1:3]');
    assert.equal(fmtSpan(text, { start: 0, end: 0 }), '[0:0..0:0]');
  });

  test('rejects an unclosed marker', () => {
    assert.throws(() => marked('[[r(x, 1)'), /unclosed/);
  });
});

// ---- constructs ----

describe('directives', () => {
  test('history, level, check, expect and init are parsed', () => {
    const p = parseHist(`history "fractured \\"read\\""
level RA
check RC CC SER
expect RA violated
expect RC ok
init x = 5, y = -3, "user:42" = "alice"
session s1
  T1: r(x, 5) r(y, -3) r("user:42", "alice")
`);
    assert.deepEqual(p.findings, []);
    assert.equal(p.directives.title, 'fractured "read"');
    assert.equal(p.directives.level?.level, 'RA');
    assert.deepEqual(p.directives.checks.map((c) => c.level), ['RC', 'CC', 'SER']);
    assert.deepEqual(p.directives.expects.map((e) => [e.level, e.ok]), [['RA', false], ['RC', true]]);
    assert.equal(p.history.initValues.size, 3);
  });

  test('directives may stand anywhere at top level, also after transactions', () => {
    const p = parseHist(`session s1
  T1: w(x, 1)
level CC
session s2
  T2: r(x, 1)
expect CC ok
`);
    assert.deepEqual(p.findings, []);
    assert.equal(p.directives.level?.level, 'CC');
    assert.deepEqual(p.directives.expects.map((e) => e.level), ['CC']);
    assert.deepEqual(describeHistory(p.history), ['s1/T1: w(x, 1)', 's2/T2: r(x, 1)']);
  });

  test('a directive ends the operations of the transaction before it', () => {
    const p = parseHist('session s1\n  T1: w(x, 1)\ncheck RC\n  w(y, 2)\n');
    // `w(y, 2)` after the directive belongs to no transaction any more.
    assert.deepEqual(describeHistory(p.history), ['s1/T1: w(x, 1)']);
    assert.equal(only(p.findings, 'syntax').length, 1);
  });

  test('init values make a read of that value a read of the initial state', () => {
    const a = analyzeHistText(`init x = 5, s = "a b"
session s1
  T1: r(x, 5) r(s, "a b") w(x, 6)
session s2
  T2: r(x, 6)
`);
    assert.deepEqual(a.findings, []);
    const h = a.history;
    assert.equal(a.readsFrom.observedTxn[h.txnOpStart[txnId(h, 'T1')]], 0, 'T1 read x from ⊥');
    assert.deepEqual(weak(a).map((v) => v.consistent), [true, true, true]);
  });

  test('the check list accepts commas between levels', () => {
    const p = parseHist('check RC, RA, SER\nsession s1\n  T1: w(x, 1)\n');
    assert.deepEqual(p.findings, []);
    assert.deepEqual(p.directives.checks.map((c) => c.level), ['RC', 'RA', 'SER']);
  });
});

describe('sessions and transactions', () => {
  test('transactions belong to the session above them, in session order', () => {
    const p = parseHist(`session s1
  T1: w(x, 1)
  T2: w(x, 2)
session s2
  T3: r(x, 2)
session s3
session s4
  T4: r(x, 1)
`);
    assert.deepEqual(p.findings, []);
    const h = p.history;
    assert.equal(h.sessionCount, 4);
    assert.deepEqual(describeHistory(h), ['s1/T1: w(x, 1)', 's1/T2: w(x, 2)', 's2/T3: r(x, 2)', 's4/T4: r(x, 1)']);
    assert.equal(h.txnIndexInSession[txnId(h, 'T1')], 0);
    assert.equal(h.txnIndexInSession[txnId(h, 'T2')], 1);
    assert.equal(h.txnIndexInSession[txnId(h, 'T3')], 0);
  });

  test('level tags and committed/aborted status', () => {
    const p = parseHist(`session s1
  T1 [RA]: w(x, 1)
  T2 aborted: w(x, 2)
  T3 committed: w(x, 3)
  T4 [CC] aborted: w(x, 4)
  T5 [serializable] committed: r(x, 3)
  T6: r(x, 1)
`);
    assert.deepEqual(p.findings, []);
    assert.ok(p.hasTags);
    assert.deepEqual(describeHistory(p.history), [
      's1/T1 [RA]: w(x, 1)',
      's1/T2 aborted: w(x, 2)',
      's1/T3: w(x, 3)',
      's1/T4 [CC] aborted: w(x, 4)',
      's1/T5 [SER]: r(x, 3)',
      's1/T6: r(x, 1)',
    ]);
  });

  test('a file without tags has no tags', () => {
    assert.equal(parseHist(FRACTURED).hasTags, false);
  });

  test('operations run until the next header and may span many lines', () => {
    const p = parseHist(`session s1
  T1:
    w(x,
      1)
    w(y, 1)

    w(z, 1)
  T2: r(x, 1)
    r(y, 1)
`);
    assert.deepEqual(p.findings, []);
    assert.deepEqual(describeHistory(p.history), ['s1/T1: w(x, 1) w(y, 1) w(z, 1)', 's1/T2: r(x, 1) r(y, 1)']);
  });

  test('transaction and session names may use digits, dots, dashes and underscores', () => {
    const p = parseHist('session client-1.a\n  tx_1.b-2: w(k.1, 1)\nsession 7\n  t2: r(k.1, 1)\n');
    assert.deepEqual(p.findings, []);
    // Ids are canonical: session 7 sorts before client-1.a, t2 before tx_1.b-2.
    assert.deepEqual(describeHistory(p.history), ['7/t2: r(k.1, 1)', 'client-1.a/tx_1.b-2: w(k.1, 1)']);
  });

  test('CRLF line ends are whitespace', () => {
    const a = analyzeHistText('level RA\r\nsession s1\r\n  T1: w(x, 1) w(y, 1) # c\r\nsession s2\r\n  T2: r(y, init) r(x, 1)\r\n');
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]).sort(), [['CC', 'information'], ['RA', 'error']]);
  });

  test('an empty file and a file of comments are fine', () => {
    for (const text of ['', '\n\n', '# only a comment', '// only a comment\n# and another\n']) {
      const a = analyzeHistText(text);
      assert.deepEqual(a.findings, [], JSON.stringify(text));
      assert.equal(a.history.txnCount, 1, 'only ⊥');
    }
  });
});

describe('operations and values', () => {
  test('integers, negative integers and quoted strings with escapes', () => {
    const a = analyzeHistText(`session s1
  T1: w(x, 42) w(n, -15) w("user:42", "say \\"hi\\" \\\\ bye") w(s, "a#b//c")
session s2
  T2: r(x, 42) r(n, -15) r("user:42", "say \\"hi\\" \\\\ bye") r(s, "a#b//c")
`);
    assert.deepEqual(a.findings, [], 'every read finds its writer (no thin-air)');
    assert.deepEqual(describeHistory(a.history), [
      's1/T1: w(x, 42) w(n, -15) w("user:42", "say \\"hi\\" \\\\ bye") w(s, "a#b//c")',
      's2/T2: r(x, 42) r(n, -15) r("user:42", "say \\"hi\\" \\\\ bye") r(s, "a#b//c")',
    ]);
    const h = a.history;
    for (let o = h.txnOpStart[2]; o < h.txnOpStart[3]; o++) assert.equal(a.readsFrom.observedTxn[o], txnId(h, 'T1'));
  });

  test('a negative value is not its absolute value', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, -1)\nsession s2\n  T2: r(x, 1)\n');
    assert.deepEqual(a.findings.map((f) => f.code), ['thin-air']);
  });

  test('a string value with an escaped quote is one value', () => {
    const p = parseHist('session s1\n  T1: w(x, "a\\"b") w(y, 1)\n');
    assert.deepEqual(p.findings, []);
    assert.deepEqual(describeHistory(p.history), ['s1/T1: w(x, "a\\"b") w(y, 1)']);
  });

  test('init, _, ⊥ (and INIT) all read the initial value', () => {
    for (const v of ['init', '_', '⊥', 'INIT', 'Init']) {
      const p = parseHist(`session s1\n  T1: r(x, ${v})\n`);
      assert.deepEqual(p.findings, [], v);
      assert.equal(p.history.opValue[0], INIT_VALUE, v);
      // and read-your-writes breaks RA whatever the spelling
      assert.deepEqual(verdicts(`session s1\n  T1: w(x, 1)\n  T2: r(x, ${v})\n`), { RC: true, RA: false, CC: false }, v);
    }
  });

  test('r(k) <- T3 and r(k, v) <- T3 name the writer', () => {
    const a = analyzeHistText(`session s1
  T1: w(x, 1) w(y, 1)
session s2
  T3: w(x, 3) w(y, 3)
session s3
  T2: r(x) <- T3 r(y, 1) <- T1 r(z) <- T4
session s4
  T4: w(z, 7)
`);
    assert.deepEqual(a.findings.filter((f) => f.severity === 'error'), []);
    const h = a.history;
    const t2 = txnId(h, 'T2');
    assert.deepEqual(describeHistory(h)[t2 - 1], 's3/T2: r(x) <- T3 r(y, 1) <- T1 r(z) <- T4');
    const o = h.txnOpStart[t2];
    assert.equal(a.readsFrom.observedTxn[o], txnId(h, 'T3'));
    assert.equal(a.readsFrom.observedTxn[o + 1], txnId(h, 'T1'));
    assert.equal(a.readsFrom.observedTxn[o + 2], txnId(h, 'T4'), 'a forward reference to a later transaction resolves');
  });

  test('<- T names the writer of a value that two transactions write', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, 1)\nsession s2\n  T2: w(x, 1)\nsession s3\n  T3: r(x, 1) <- T2\n');
    assert.deepEqual(a.findings.map((f) => f.code), ['duplicate-write', 'duplicate-write']);
    assert.equal(a.readsFrom.observedTxn[a.history.txnOpStart[txnId(a.history, 'T3')]], txnId(a.history, 'T2'));
  });

  test('paper style R(x,1) / W(x,1) and long forms read / write', () => {
    const p = parseHist(`session s1
  T1: W(x,1) write(y, 2) Write(z, 3) WRITE(u, 4)
session s2
  T2: R(x,1) read(y, 2) Read(z, 3) READ(u, 4)
`);
    assert.deepEqual(p.findings, []);
    assert.deepEqual(describeHistory(p.history), [
      's1/T1: w(x, 1) w(y, 2) w(z, 3) w(u, 4)',
      's2/T2: r(x, 1) r(y, 2) r(z, 3) r(u, 4)',
    ]);
  });

  test('comments run from # or // to the end of the line', () => {
    const p = parseHist(`# a comment
// another comment
history "t" # trailing
session s1 // trailing
  T1: w(x, 1) # w(y, 2)
  // T9: w(x, 9)
  T2: w(z, 1) // r(q, 1)
# last line without newline: w(a, 1)`);
    assert.deepEqual(p.findings, []);
    assert.equal(p.directives.title, 't');
    assert.deepEqual(describeHistory(p.history), ['s1/T1: w(x, 1)', 's1/T2: w(z, 1)']);
  });

  test('operations may be separated by commas (optional)', () => {
    const withCommas = parseHist('session s1\n  T1: w(x, 1), w(y, 1),\n      w(z, 1)\nsession s2\n  T2: r(x, 1), r(y, 1)\n');
    const without = parseHist('session s1\n  T1: w(x, 1) w(y, 1) w(z, 1)\nsession s2\n  T2: r(x, 1) r(y, 1)\n');
    assert.deepEqual(without.findings, []);
    assert.deepEqual(withCommas.findings, [], 'history-dsl.md: "Commas between operations are optional"');
    assert.deepEqual(describeHistory(withCommas.history), describeHistory(without.history));
  });

  test('keywords are case-insensitive', () => {
    const p = parseHist(`HISTORY "upper"
LEVEL ra
Check Cc SeR
EXPECT rc OK
expect RA Violated
INIT q = 0
SESSION s1
  T1 COMMITTED: W(x, 1) w(y, 1)
Session s2
  T2 [rA] Aborted: r(x, 1)
  T3: R(y, INIT) r(x, 1) r(q, 0)
`);
    assert.deepEqual(p.findings, []);
    assert.equal(p.directives.title, 'upper');
    assert.equal(p.directives.level?.level, 'RA');
    assert.deepEqual(p.directives.checks.map((c) => c.level), ['CC', 'SER']);
    assert.deepEqual(p.directives.expects.map((e) => [e.level, e.ok]), [['RC', true], ['RA', false]]);
    assert.deepEqual(describeHistory(p.history), ['s1/T1: w(x, 1) w(y, 1)', 's2/T2 [RA] aborted: r(x, 1)', 's2/T3: r(y, init) r(x, 1) r(q, 0)']);
  });

  test('level names and aliases, case-insensitive, in level, check, expect and tags', () => {
    const aliases: [string, string][] = [
      ['RC', 'RC'], ['read-committed', 'RC'], ['RA', 'RA'], ['read-atomic', 'RA'],
      ['CC', 'CC'], ['causal', 'CC'], ['TCC', 'CC'], ['tcc', 'CC'],
      ['PC', 'PC'], ['prefix', 'PC'], ['PSI', 'PSI'], ['parallel-snapshot', 'PSI'],
      ['SI', 'SI'], ['snapshot', 'SI'], ['SER', 'SER'], ['serializable', 'SER'], ['Serializable', 'SER'], ['READ-COMMITTED', 'RC'],
    ];
    for (const [name, level] of aliases) {
      const p = parseHist(`level ${name}\ncheck ${name}\nexpect ${name} ok\nsession s1\n  T1 [${name}]: w(x, 1)\n`);
      assert.deepEqual(p.findings, [], name);
      assert.equal(p.directives.level?.level, level, name);
      assert.equal(p.directives.checks[0]?.level, level, name);
      assert.equal(p.directives.expects[0]?.level, level, name);
      assert.equal(LEVELS[p.history.txnLevel[1]], level, name);
    }
  });

  test('keys may be identifiers, numbers or quoted strings; a quoted identifier is the same key', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, 1) w(17, 2) w("a b", 3)\nsession s2\n  T2: r("x", 1) r(17, 2) r("a b", 3)\n');
    assert.deepEqual(a.findings, []);
    assert.equal(a.history.keyCount, 3);
  });
});

// ---- exact spans ----

describe('source spans', () => {
  test('a transaction header spans from its id to its colon, tags and status included', () => {
    const m = marked(`session s1
  [[T1:]] w(x, 1)
  [[T2 [RA]:]] w(x, 2)
  [[T3 aborted:]] w(x, 3)
  [[T4   [CC]   committed  :]]
    w(x, 4)
`);
    const h = parseHist(m.text).history;
    for (const [i, name] of ['T1', 'T2', 'T3', 'T4'].entries()) {
      assert.equal(fmtSpan(m.text, headerSpan(h, txnId(h, name))), m.at(i), name);
    }
  });

  test('an operation spans from its letter to its ) or to the <- source', () => {
    const m = marked(`session s1
  T1: [[w(x, 1)]] [[W(y,1)]]  [[write( z , "a b" )]]
session s2
  T2: [[r(x, 1)]], [[r(y) <- T1]] [[r(z, "a b") <- T1]] [[R(q,init)]] [[read(q, ⊥)]]
  T3: [[r(x,
        1)]]
`);
    const h = parseHist(m.text).history;
    const spans = [...opSpans(h, txnId(h, 'T1')), ...opSpans(h, txnId(h, 'T2')), ...opSpans(h, txnId(h, 'T3'))];
    assert.deepEqual(spans.map((s) => fmtSpan(m.text, s)), m.ranges.map((_, i) => m.at(i)));
  });

  test('spans count UTF-16 code units after non-ASCII text', () => {
    const m = marked('history "žluťoučký 🐎"\nsession s1\n  T1: w(x, 1) # ⊥ ⊥ 🐎\n  T2: [[r(x, ⊥)]] [[r(y, ⊥)]]\n');
    const h = parseHist(m.text).history;
    assert.deepEqual(opSpans(h, txnId(h, 'T2')).map((s) => fmtSpan(m.text, s)), [m.at(0), m.at(1)]);
  });
});

// ---- errors and recovery ----

describe('syntax errors and recovery', () => {
  test('an unknown operation letter: one syntax error at the letter, the rest of the file is checked', () => {
    const m = marked(`level RA
session s1
  T1: w(x, 1) w(y, 1)
session s2
  T2: [[r(y, init)]] r(x, 1)
session s3
  T3: w(z, 1) [[q]](z, 2) w(z, 3)
  T4: r(z, 3)
`);
    const a = analyzeHistText(m.text);
    const syntax = only(a.findings, 'syntax');
    assert.deepEqual(fmtFindings(m.text, syntax), [expected(m, 'syntax', 'error', 1)]);
    assert.match(syntax[0].message, /'q'/);
    assert.match(syntax[0].message, /\br\b.*\bw\b/, 'the message names the valid operations');
    // the fractured read elsewhere is still reported at the claimed level
    assert.deepEqual(fmtFindings(m.text, a.findings, ['RA']), [expected(m, 'RA', 'error', 0)]);
    // and the operations after the typo are kept
    assert.deepEqual(describeHistory(a.history).slice(2), ['s3/T3: w(z, 1) w(z, 3)', 's3/T4: r(z, 3)']);
  });

  test("a missing ')': one syntax error, the next operation and transactions are kept", () => {
    const m = marked(`session s1
  T1: w(x, 1) w(y, 1)
session s2
  T2: [[r(y, init)]] r(x, 1)
session s3
  T3: w(z, 1 [[w]](u, 2) w(v, 3)
  T4: r(u, 2)
`);
    const a = analyzeHistText(m.text);
    const syntax = only(a.findings, 'syntax');
    assert.equal(syntax.length, 1, fmtFindings(m.text, a.findings).join(', '));
    assert.match(syntax[0].message, /'\)'/);
    const brokenOp = m.text.indexOf('w(z, 1');
    assert.ok(syntax[0].span.start >= brokenOp && syntax[0].span.start <= m.ranges[1].start, 'reported at or just after the unclosed operation');
    assert.deepEqual(describeHistory(a.history).slice(2), ['s3/T3: w(u, 2) w(v, 3)', 's3/T4: r(u, 2)']);
    assert.deepEqual(fmtFindings(m.text, a.findings, ['RA']), [expected(m, 'RA', 'information', 0)]);
    assert.equal(a.findings.filter((f) => f.severity === 'error').length, 1, 'only the syntax error is an error');
  });

  test('a missing colon after a transaction id: one syntax error', () => {
    const a = analyzeHistText('session s1\n  T1 w(x, 1)\n  T2: w(y, 1)\nsession s2\n  T3: r(y, 1)\n');
    assert.equal(only(a.findings, 'syntax').length, 1);
    assert.equal(a.findings.length, 1);
    assert.ok(describeHistory(a.history).includes('s2/T3: r(y, 1)'));
  });

  test("a missing ']' in a level tag: one syntax error", () => {
    const a = analyzeHistText('session s1\n  T1 [RA: w(x, 1) w(y, 2) w(z, 3)\nsession s2\n  T2: r(z, 3)\n');
    assert.equal(only(a.findings, 'syntax').length, 1, a.findings.map((f) => f.message).join(' | '));
  });

  test('an unterminated string at the end of the file: one syntax error', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, "abc');
    assert.deepEqual(a.findings.map((f) => f.code), ['syntax']);
    assert.match(a.findings[0].message, /unterminated string/);
  });

  test('an unterminated string: one syntax error that says so, the next line is parsed', () => {
    const m = marked(`session s1
  T1: w(x, [["abc, 1)]]
  T2: w(y, 1)
session s2
  T3: r(y, 1)
`);
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'syntax', 'error', 0)]);
    assert.match(a.findings[0].message, /unterminated string/);
    assert.deepEqual(describeHistory(a.history), ['s1/T1: ', 's1/T2: w(y, 1)', 's2/T3: r(y, 1)']);
  });

  test('garbage bytes: one syntax error, the rest is checked', () => {
    const text = 'session s1\n  T1: w(x, 1) w(y, 1)\n\u0000\u0001\u00ff@@ $$ ~~ § 🐎 \u0007\nsession s2\n  T2: r(y, init) r(x, 1)\n';
    const a = analyzeHistText(text, { levels: ['RC', 'RA'] });
    assert.deepEqual(a.findings.filter((f) => f.code === 'syntax').length, 1, fmtFindings(text, a.findings).join(', '));
    const syntax = only(a.findings, 'syntax')[0];
    assert.equal(syntax.span.start, text.indexOf('\u0000'));
    assert.deepEqual(a.levels.map((v) => [v.level, v.consistent]), [['RC', true], ['RA', false]]);
    assert.deepEqual(a.findings.map((f) => f.code), ['syntax', 'RA']);
  });

  test('a malformed value (a bare word): one syntax error at it, the next operation is kept', () => {
    const m = marked('session s1\n  T1: w(x, [[abc]]) w(y, 1)\nsession s2\n  T2: r(y, 1)\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'syntax', 'error', 0)]);
    assert.match(a.findings[0].message, /value/);
    assert.deepEqual(describeHistory(a.history), ['s1/T1: w(y, 1)', 's2/T2: r(y, 1)']);
  });

  test('a garbage line between operations of one transaction costs one error and keeps the later operations', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, 1) %%% ^^^ w(y, 1)\n');
    assert.equal(a.findings.length, 1);
    assert.deepEqual(describeHistory(a.history), ['s1/T1: w(x, 1) w(y, 1)']);
  });

  test('a transaction before any session: one syntax error at its header, the rest is checked', () => {
    const m = marked(`level RA
[[T0:]] w(q, 1)
session s1
  T1: w(x, 1) w(y, 1)
session s2
  T2: [[r(y, init)]] r(x, 1)
`);
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings, ['syntax']), [expected(m, 'syntax', 'error', 0)]);
    assert.match(only(a.findings, 'syntax')[0].message, /session/);
    assert.deepEqual(fmtFindings(m.text, a.findings, ['RA']), [expected(m, 'RA', 'error', 1)]);
  });

  test('an operation before any transaction: one syntax error', () => {
    const a = analyzeHistText('session s1\n  w(x, 1)\n  T1: r(x, init)\n');
    assert.deepEqual(a.findings.map((f) => [f.code, f.severity]), [['syntax', 'error']]);
  });

  test('a write without a value, and a read with neither value nor source: one syntax error each', () => {
    const m = marked('session s1\n  T1: [[w(x)]] w(y, 1)\n  T2: [[r(y)]] r(y, 1)\n');
    const a = analyzeHistText(m.text);
    const syntax = only(a.findings, 'syntax');
    assert.equal(syntax.length, 2, fmtFindings(m.text, a.findings).join(', '));
    for (const [i, f] of syntax.entries()) {
      assert.ok(f.span.start >= m.ranges[i].start && f.span.end <= m.ranges[i].end, `error ${i} lies within ${m.slice(i)}`);
    }
    assert.deepEqual(describeHistory(a.history), ['s1/T1: w(y, 1)', 's1/T2: r(y, 1)']);
  });

  test('duplicate transaction ids and session names: duplicate-name at the repeated name', () => {
    const m = marked(`session s1
  T1: w(x, 1)
session s2
  [[T1]]: r(x, 1)
session [[s1]]
  T2: w(y, 1)
`);
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'duplicate-name', 'error', 0), expected(m, 'duplicate-name', 'error', 1)]);
    assert.match(a.findings[0].message, /T1/);
    assert.match(a.findings[1].message, /s1/);
  });

  test('an undefined <- T9: undefined-transaction at the name', () => {
    const m = marked('session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x) <- [[T9]] r(x, 1) <- [[T8]]\n');
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [expected(m, 'undefined-transaction', 'error', 0), expected(m, 'undefined-transaction', 'error', 1)]);
    assert.match(a.findings[0].message, /T9/);
  });

  test('unknown levels in level, expect and tags: unknown-level at the name', () => {
    const m = marked(`level [[RR]]
expect [[SR]] ok
session s1
  T1 [⟦RCC⟧]: w(x, 1)
session s2
  T2: r(x, 1)
`);
    const a = analyzeHistText(m.text);
    assert.deepEqual(fmtFindings(m.text, a.findings), [0, 1, 2].map((i) => expected(m, 'unknown-level', 'error', i)));
    assert.match(a.findings[0].message, /RR/);
    // the file is still read: T1 is there, untagged
    assert.deepEqual(describeHistory(a.history), ['s1/T1: w(x, 1)', 's2/T2: r(x, 1)']);
  });

  test('an unknown level in a check list: unknown-level at the name, and the known ones are kept', () => {
    const m = marked('check RC [[RR]] SER\nsession s1\n  T1: w(x, 1)\n');
    const p = parseHist(m.text);
    assert.deepEqual(fmtFindings(m.text, p.findings), [expected(m, 'unknown-level', 'error', 0)]);
    assert.deepEqual(p.directives.checks.map((c) => c.level), ['RC', 'SER']);
  });

  test('an unknown directive-like word: one syntax error naming it', () => {
    const a = analyzeHistText('levle RA\nsession s1\n  T1: w(x, 1)\n');
    assert.deepEqual(a.findings.map((f) => f.code), ['syntax']);
    assert.match(a.findings[0].message, /levle/);
  });

  test('expect without ok/violated: one syntax error', () => {
    const a = analyzeHistText('expect RA maybe\nsession s1\n  T1: w(x, 1)\n');
    assert.deepEqual(a.findings.map((f) => f.code), ['syntax']);
    assert.match(a.findings[0].message, /ok/);
  });

  test('two typos in different transactions give exactly two errors', () => {
    const a = analyzeHistText('session s1\n  T1: w(x, 1) z(x, 2)\n  T2: w(y, 1 w(y, 2)\nsession s2\n  T3: r(x, 1) r(y, 2)\n');
    assert.equal(only(a.findings, 'syntax').length, 2);
    assert.equal(a.findings.length, 2, a.findings.map((f) => f.message).join(' | '));
  });
});

describe('list-append operations', () => {
  test('a(k, v) and r(k, [..]) are parsed and checked; a list element nobody appended is a garbage read at the read', () => {
    const m = marked(`session s1
  T1: a(l, 1) append(l, 2) w(x, 1)
session s2
  T2: r(l, [1, 2]) r(x, 1) [[r(m, ["a", -3])]]
`);
    const a = analyzeHistText(m.text);
    const garbage = only(a.findings, 'garbage-read');
    assert.equal(garbage.length, 2);
    assert.deepEqual(garbage.map((f) => [f.span.start, f.span.end]), [[m.ranges[0].start, m.ranges[0].end], [m.ranges[0].start, m.ranges[0].end]]);
    assert.match(garbage[0].message, /"a", which no transaction appended to m/);
    assert.deepEqual(weak(a).map((v) => v.consistent), [false, false, false], 'a garbage read breaks every level');
    assert.deepEqual(describeHistory(a.history), ['s1/T1: a(l, 1) a(l, 2) w(x, 1)', 's2/T2: r(l, [..]) r(x, 1) r(m, [..])']);
    const clean = analyzeHistText(m.text.replace('r(m, ["a", -3])', 'r(m, [])'));
    assert.deepEqual(clean.findings, []);
    assert.deepEqual(weak(clean).map((v) => v.consistent), [true, true, true]);
  });

  test('the register part of a list-append file is still checked', () => {
    const a = analyzeHistText('session s1\n  T1: a(l, 1) w(x, 1) w(y, 1)\nsession s2\n  T2: r(l, [1]) r(y, init) r(x, 1)\n');
    assert.deepEqual(weak(a).map((v) => [v.level, v.consistent]), [['RC', true], ['RA', false], ['CC', false]]);
  });

  test('a malformed list is one syntax error', () => {
    const a = analyzeHistText('session s1\n  T1: a(l, 1)\n  T2: r(l, [1 2]) w(x, 1)\n');
    assert.equal(only(a.findings, 'syntax').length, 1);
    assert.ok(describeHistory(a.history).includes('s1/T2: w(x, 1)'));
  });
});

test('parsing is deterministic and the same text gives the same findings', () => {
  const text = `level RA\n${FRACTURED}session s3\n  T3: q(x, 1)\n`;
  assert.deepEqual(sorted(fmtFindings(text, analyzeHistText(text).findings)), sorted(fmtFindings(text, analyzeHistText(text).findings)));
});

test('names of Object\'s own properties are no operations, anomalies or levels', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    const ops = analyzeHistText(`session A\n  T1: ${name}(x, 1)\n`).findings.filter((f) => f.severity === 'error');
    assert.deepEqual(ops.map((f) => [f.code, f.message]), [['syntax', `unknown operation '${name}': expected r, w or a (read, write, append)`]], name);
    const anomaly = analyzeHistText(`expect ${name} found\nsession A\n  T1: a(x, 1)\n`).findings.filter((f) => f.severity === 'error');
    assert.deepEqual(anomaly.map((f) => f.code), ['syntax'], name);
    assert.match(anomaly[0].message, new RegExp(`unknown anomaly '${name}'`));
    const level = analyzeHistText(`level ${name}\nsession A\n  T1: w(x, 1)\n`).findings.filter((f) => f.severity === 'error');
    assert.ok(level.length === 1 && /level/.test(level[0].message), `${name}: ${JSON.stringify(level)}`);
  }
});
