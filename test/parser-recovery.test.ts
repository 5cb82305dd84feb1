// Syntax recovery in .hist files (history-dsl.md: "recovery so that one typo yields one error and
// the rest of the file is still checked"): a broken transaction header is one error, its line's
// operations are its own, and single-character edits of every example cost at most one or two.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import type { Finding } from '../server/src/engine/model/diagnostics.ts';
import type { History } from '../server/src/engine/model/history.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { expected, fmtFindings, marked } from './helpers/marked.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');

function syntaxOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.code === 'syntax');
}

/** "s1/T1: 1 op", one line per transaction in id order. */
function shape(h: History): string[] {
  const out: string[] = [];
  for (let t = 1; t < h.txnCount; t++) {
    const ops = h.txnOpStart[t + 1] - h.txnOpStart[t];
    out.push(`${h.names.sessionName(h.txnSession[t])}/${h.names.txnName(t)}: ${ops} op${ops === 1 ? '' : 's'}`);
  }
  return out.sort();
}

/**
 * The broken header line stands first in session s1 (where an operation outside a transaction
 * used to cost a second error) and again after T0 (where its operations used to join T0); the
 * next sessions hold a fractured read, so the claimed RA is still checked past the typo.
 */
function withHeader(line: string, first: boolean): string {
  return `level RA
session s1
${first ? '' : '  T0: w(q, 1)\n'}  ${line}
  T3: w(y, 1) w(z, 1)
session s2
  T2: [[r(z, init)]] r(y, 1)
`;
}

const BROKEN_HEADERS: { what: string; line: string; name: string; message: RegExp }[] = [
  { what: "';' for ':'", line: 'T1[[;]] w(x, 1)', name: 'T1', message: /expected ':' after transaction T1, found ';'/ },
  { what: 'a non-ASCII id', line: '[[Tä]]: w(x, 1)', name: 'Tä', message: /transaction id 'Tä' may only use ASCII letters/ },
  { what: 'a missing colon', line: 'T1 [[w]](x, 1)', name: 'T1', message: /expected ':' after transaction T1, found 'w'/ },
  { what: 'a misspelled status', line: 'T1 [[commited]]: w(x, 1)', name: 'T1', message: /unknown status 'commited'/ },
  { what: "an interval without its end", line: 'T1 @ 1..[[:]] w(x, 1)', name: 'T1', message: /expected the end time after '\.\.', found ':'/ },
  { what: 'an interval without its start', line: 'T1 @ [[..]]2: w(x, 1)', name: 'T1', message: /expected the start time after '@'/ },
  { what: "'(' for ':'", line: 'T1[[(]] w(x, 1)', name: 'T1', message: /expected ':' after transaction T1, found '\('/ },
  { what: 'a number for an id', line: '[[1]]: w(x, 1)', name: '1', message: /transaction id '1' may only use/ },
  { what: "a ']' lost from the tag", line: 'T1 [RA[[;]] w(x, 1)', name: 'T1', message: /expected '\]' after the level, found ';'/ },
];

describe('a malformed transaction header is one syntax error, and its operations are its own', () => {
  for (const { what, line, name, message } of BROKEN_HEADERS) {
    for (const first of [true, false]) {
      test(`${what} (${line.replace(/\[\[|\]\]/g, '')}), ${first ? 'first in its session' : 'after another transaction'}`, () => {
        const m = marked(withHeader(line, first));
        const a = analyzeHistText(m.text);
        assert.deepEqual(fmtFindings(m.text, a.findings, ['syntax']), [expected(m, 'syntax', 'error', 0)], `${m.slice(0)}`);
        assert.match(syntaxOf(a.findings)[0].message, message);
        // The line's operation belongs to the broken header, not to T0 nor to nothing.
        const want = [`s1/${name}: 1 op`, 's1/T3: 2 ops', 's2/T2: 2 ops', ...(first ? [] : ['s1/T0: 1 op'])].sort();
        assert.deepEqual(shape(a.history), want);
        // The next session is read and checked: its fractured read breaks the claimed RA.
        assert.deepEqual(fmtFindings(m.text, a.findings, ['RA']), [expected(m, 'RA', 'error', 1)]);
      });
    }
  }

  test('a misspelled status is read as the status one character off; a word near none leaves the outcome unknown', () => {
    const p = parseHist('session s1\n  T1 abortd: w(x, 1)\n  T2 comitted: w(y, 1)\n  T3 maybe: w(z, 1)\n');
    assert.deepEqual(syntaxOf(p.findings).map((f) => f.message), [
      "unknown status 'abortd': did you mean 'aborted'?",
      "unknown status 'comitted': did you mean 'committed'?",
      "unknown status 'maybe': expected committed, aborted or unknown (also info, indeterminate)",
    ]);
    const h = p.history;
    assert.deepEqual([1, 2, 3].map((t) => [h.txnAborted[t], h.txnUnknown?.[t] ?? 0]), [[1, 0], [0, 0], [0, 1]]);
  });

  test('a header whose id runs on past a non-ASCII letter keeps the whole id as its name', () => {
    const p = parseHist('session s1\n  Tä2: w(x, 1)\n  T3: r(x, 1)\n');
    assert.equal(syntaxOf(p.findings).length, 1);
    assert.deepEqual(shape(p.history), ['s1/T3: 1 op', 's1/Tä2: 1 op']);
  });
});

describe('other single typos: one syntax error each, where it is', () => {
  const CASES: { what: string; text: string; message: RegExp }[] = [
    { what: 'a misspelled session keyword', text: '[[sesion]] s1\n  T1: w(x, 1)\n  T2: w(y, 1)\n', message: /did you mean 'session'/ },
    { what: "a ';' inside the session keyword", text: '[[ses;ion]] s1\n  T1: w(x, 1)\n', message: /did you mean 'session'/ },
    { what: 'the space after session left out', text: '[[sessions1]]\n  T1: w(x, 1)\n', message: /a space between 'session' and its name/ },
    { what: "'(' for a header's ':' before an operation", text: 'session s1\n  T[[(]]: w(x, 1) r(y, init)\n', message: /expected ':' after transaction T/ },
    { what: "a ',' typed as ')' in a read", text: 'session s1\n  T1: [[r(x)]] 1) w(y, 1)\n', message: /a read needs the value/ },
    { what: 'a read without its key', text: 'session s1\n  T1: r([[,]] init) r(x, 1)\n', message: /expected a key/ },
    { what: "a '(' in an expect's verdict", text: 'expect RA [[violat]](d\nsession s1\n  T1: w(x, 1)\n', message: /'ok' or 'violated'/ },
    { what: "a '(' in a history title", text: 'history [[(]]title"\nsession s1\n  T1: w(x, 1)\n', message: /a quoted title/ },
    { what: "a '(' in a level tag", text: 'session s1\n  T1 [CC[[(]]: w(x, 1)\n', message: /expected '\]' after the level/ },
    { what: 'a session name with a non-ASCII letter', text: 'session [[sä]]\n  T1: w(x, 1)\n', message: /session name 'sä'/ },
  ];
  for (const { what, text, message } of CASES) {
    test(what, () => {
      const m = marked(text);
      const p = parseHist(m.text);
      assert.deepEqual(fmtFindings(m.text, p.findings, ['syntax']), [expected(m, 'syntax', 'error', 0)]);
      assert.match(syntaxOf(p.findings)[0].message, message);
      assert.ok(p.history.txnCount > 1, 'the transactions are read');
    });
  }

  test('transactions before the first session: one error, at the first of them', () => {
    const m = marked('se ssion s1\n  [[T1:]] w(x, 1)\n  T2: w(y, 1)\n  T3: w(z, 1)\n');
    const p = parseHist(m.text);
    const syntax = fmtFindings(m.text, p.findings, ['syntax']);
    assert.equal(syntax.length, 2, 'the broken line, and the first transaction it leaves outside a session');
    assert.equal(syntax[1], expected(m, 'syntax', 'error', 0));
  });

  // Each of these used to cost an unknown-level error besides the syntax error, or to swallow the next line.
  const ONE_ERROR: { what: string; text: string; message: RegExp; shape?: string[] }[] = [
    { what: "'[' typed for an operation's '('", text: 'session s1\n  T1: w(x, 1) w[[[]]y, 1) w(z, 1)\n', message: /expected '\(' after 'w'/, shape: ['s1/T1: 2 ops'] },
    { what: "'[' typed into a header's word", text: 'session s1\n  T1 [ [[story]]: w(x, 1)\n', message: /expected a level/, shape: ['s1/T1: 1 op'] },
    { what: "a level tag with one ']' too many", text: 'session s1\n  T1 [ [[C]]]]: w(x, 1)\n', message: /unknown level 'C'/, shape: ['s1/T1: 1 op'] },
    { what: 'a level and its verdict run together', text: 'expect [[RAviolated]]\nsession s1\n  T1: w(x, 1)\n', message: /a level .* and 'ok' or 'violated'/, shape: ['s1/T1: 1 op'] },
    { what: "a check whose levels are commented out, before an expect", text: 'check [[expect]] # RC\nexpect RA ok\nsession s1\n  T1: w(x, 1)\n', message: /one or more levels/ },
    { what: 'a level directive whose level is commented out, before a session', text: 'level # RA\n[[session]] s1\n  T1: w(x, 1)\n', message: /expected a level/, shape: ['s1/T1: 1 op'] },
    { what: "a read's '<-' at a line's end, before the next header", text: 'session s1\n  T1: w(x, 1)\n  T2: r(x) [[<-]]\n  T3: r(x, 1)\n', message: /the id of the transaction read from/, shape: ['s1/T1: 1 op', 's1/T2: 0 ops', 's1/T3: 1 op'] },
    { what: "a read's '<-' at a line's end, before a directive", text: 'session s1\n  T1: w(x, 1) r(x, 1) [[<-]]\nlevel RA\n', message: /the id of the transaction read from/, shape: ['s1/T1: 1 op'] },
  ];
  for (const { what, text, message, shape: expectedShape } of ONE_ERROR) {
    test(`${what}: one error of any code`, () => {
      const m = marked(text);
      const p = parseHist(m.text);
      assert.deepEqual(fmtFindings(m.text, p.findings.filter((f) => f.severity === 'error')), [expected(m, p.findings[0].code, 'error', 0)]);
      assert.match(p.findings[0].message, message);
      if (expectedShape) assert.deepEqual(shape(p.history), expectedShape);
    });
  }

  test('a check list goes on over lines while its words are levels', () => {
    const p = parseHist('check RC\n  RA SER\nexpect CC ok\nsession s1\n  T1: w(x, 1)\n');
    assert.deepEqual(p.findings, []);
    assert.deepEqual(p.directives.checks.map((c) => c.level), ['RC', 'RA', 'SER']);
    assert.deepEqual(p.directives.expects.map((e) => e.level), ['CC']);
  });

  test('two typos on two lines are still two errors', () => {
    const p = parseHist('session s1\n  T1; w(x, 1)\n  T2 commited: w(y, 1)\nsession s2\n  T3: r(x, 1)\n');
    assert.equal(syntaxOf(p.findings).length, 2);
  });

  test('a stray word between the operations of a transaction does not open a transaction', () => {
    const p = parseHist('session s1\n  T1: w(x, 1) foo; w(y, 1)\n');
    assert.equal(syntaxOf(p.findings).length, 1);
    assert.deepEqual(shape(p.history), ['s1/T1: 2 ops']);
  });
});

/** Whether offset `i` of `text` stands inside a comment (its mark included). */
function inComment(text: string, i: number): boolean {
  const lineStart = text.lastIndexOf('\n', i - 1) + 1;
  const before = text.slice(lineStart, i + 1);
  return before.includes('#') || before.includes('//');
}

describe('single-character edits of every example', () => {
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.hist')).sort();
  const EDITS = ['', ';', '(', ')', ',', 'ä'];
  const POSITIONS = 40; // per example, evenly spaced: deterministic, about 11,000 edits in all

  test('never throw, and cost at most one syntax error (two when a comment mark is lost and its prose is read)', () => {
    let edits = 0;
    const worst: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(EXAMPLES, file), 'utf8');
      assert.deepEqual(syntaxOf(parseHist(text).findings), [], `${file} parses cleanly`);
      const step = Math.max(1, Math.floor(text.length / POSITIONS));
      for (let i = 0; i < text.length; i += step) {
        if (text[i] === '\n') continue;
        // An edit inside a comment changes nothing; one of its mark makes the comment's prose code.
        const prose = inComment(text, i) && (text[i] === '#' || text[i] === '/');
        if (inComment(text, i) && !prose) continue;
        for (const edit of EDITS) {
          if (text[i] === edit) continue;
          const edited = text.slice(0, i) + edit + text.slice(i + 1);
          edits++;
          let syntax: Finding[];
          try {
            syntax = syntaxOf(parseHist(edited).findings);
          } catch (e) {
            assert.fail(`${file} with ${JSON.stringify(edit)} at ${i} throws: ${String(e)}`);
          }
          if (syntax.length > (prose ? 2 : 1)) {
            worst.push(`${file}@${i} ${JSON.stringify(edit)}: ${syntax.map((f) => `${JSON.stringify(edited.slice(f.span.start, f.span.end))} ${f.message}`).join(' | ')}`);
          }
        }
      }
    }
    assert.ok(edits > 5000, `${edits} edits`);
    assert.deepEqual(worst, []);
  });
});
