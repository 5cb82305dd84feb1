// `isocheck convert` keeps verdicts: every example and hundreds of random histories per input format check the same before and after.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeSource } from '../server/src/engine/analyze.ts';
import { writeHistoryAsHist } from '../server/src/engine/export/convert-hist.ts';
import { generateHistory, Rng } from '../server/src/engine/gen/generate.ts';
import { toPlumeString } from '../server/src/engine/gen/history-writers.ts';
import { DEFAULT_LIST_GEN, generateListHistory, writeListEvents } from '../server/src/engine/gen/list-append-store.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { readHistory, type ReadSource } from '../server/src/engine/readers/registry.ts';
import { fileReport } from '../server/src/engine/report.ts';
import { randomOptions } from './helpers/differential.ts';
import { smallListHistory } from './helpers/listappend-random.ts';

const ROOT = join(import.meta.dirname, '..');
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The input's conversion, as `isocheck convert` writes it. */
function convert(src: ReadSource): string {
  const parts: string[] = [];
  writeHistoryAsHist(src.history, 'converted', (c) => parts.push(c), src.directives ?? null);
  return parts.join('');
}

/** What a check decides: every level's verdict, the mixed one, expectations, anomalies and the error codes. */
function decided(src: ReadSource): unknown {
  const r = fileReport('f', analyzeSource(src));
  return {
    levels: Object.fromEntries(Object.entries(r.levels).map(([k, v]) => [k, v.consistent])),
    mixed: r.mixed === null ? null : r.mixed.consistent,
    expectations: r.expectations?.map((e) => [e.level, e.expected, e.consistent]),
    anomalies: r.anomalies?.map((a) => a.code).sort(),
    errors: r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code).sort(),
  };
}

/** The property: the input reads cleanly, its conversion parses cleanly and checks the same. */
function assertKeepsVerdicts(text: string, format: string, what: string): void {
  const input = readHistory({ bytes: bytes(text) }, { format });
  assert.deepEqual(input.findings.filter((f) => f.severity === 'error').map((f) => f.message), [], `${what}: the input reads cleanly\n${text}`);
  const hist = convert(input);
  const output = readHistory({ text: hist }, { format: 'hist' });
  assert.deepEqual(output.findings.filter((f) => f.code === 'syntax').map((f) => f.message), [], `${what}: the conversion parses\n${hist}`);
  assert.deepEqual(decided(output), decided(input), `${what}: same verdicts\n--- input\n${text}\n--- converted\n${hist}`);
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.below(xs.length)];

/** A random register .hist: init values, level, check and expect lines, tags, statuses, intervals, `<- T`. */
function randomHist(seed: number): string {
  const rng = new Rng(seed);
  const keys = ['x', 'y', '"k 1"'];
  const lines: string[] = [];
  if (rng.below(2) === 0) lines.push(`history "random ${seed}"`);
  if (rng.below(3) === 0) lines.push(`level ${pick(rng, LEVELS)}`);
  if (rng.below(4) === 0) lines.push(`check ${pick(rng, LEVELS)} ${pick(rng, LEVELS)}`);
  if (rng.below(4) === 0) lines.push(`expect ${pick(rng, LEVELS)} ${rng.below(2) === 0 ? 'ok' : 'violated'}`);
  if (rng.below(2) === 0) lines.push(`init x = ${rng.below(3)}`);
  if (rng.below(4) === 0) lines.push('init "k 1" = "a"');
  const written: [string, string, string][] = []; // key, value, writer
  let next = 1;
  let clock = 0;
  for (let s = 0, n = 1; s < 1 + rng.below(3); s++) {
    lines.push(`session s${s}`);
    for (let i = 0; i < 1 + rng.below(3); i++, n++) {
      const tag = rng.below(4) === 0 ? ` [${pick(rng, LEVELS)}]` : '';
      const status = pick(rng, ['', '', '', '', ' aborted', ' unknown']);
      const start = clock + rng.below(5);
      clock = start + rng.below(8);
      const time = rng.below(3) === 0 ? ` @ ${start}..${clock}` : '';
      const ops: string[] = [];
      for (let o = 0; o < 1 + rng.below(4); o++) ops.push(randomOp(rng, keys, written, `T${n}`, () => next++));
      lines.push(`  T${n}${tag}${status}${time}: ${ops.join(' ')}`);
    }
  }
  return lines.join('\n') + '\n';
}

function randomOp(rng: Rng, keys: string[], written: [string, string, string][], txn: string, fresh: () => number): string {
  const key = pick(rng, keys);
  if (rng.below(5) < 2) {
    const value = rng.below(8) === 0 ? `${rng.below(3)}` : `${fresh()}`; // sometimes a duplicate or the init value
    written.push([key, value, txn]);
    return `w(${key}, ${value})`;
  }
  const mine = written.filter((w) => w[0] === key);
  if (mine.length === 0 || rng.below(4) === 0) return rng.below(6) === 0 ? `r(${key}, ${rng.below(4)})` : `r(${key}, init)`;
  const [, value, writer] = pick(rng, mine);
  return pick(rng, [`r(${key}, ${value})`, `r(${key}, ${value})`, `r(${key}) <- ${writer}`, `r(${key}, ${value}) <- ${writer}`]);
}

/** Random plume text where transactions also write 0, plume's initial value. */
function randomPlumeWithZeros(seed: number): string {
  const rng = new Rng(seed);
  const lines: string[] = [];
  let value = 1;
  for (let t = 0; t < 2 + rng.below(6); t++) {
    const session = rng.below(3);
    for (let o = 0; o < 1 + rng.below(3); o++) {
      const key = rng.below(2);
      if (rng.below(2) === 0) lines.push(`w(${key},${rng.below(4) === 0 ? 0 : value++},${session},${t})`);
      else lines.push(`r(${key},${rng.below(3) === 0 ? 0 : rng.below(value)},${session},${t})`);
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * A random history in AWDIT's test format, as sessions of transactions: the first writes every
 * key's 0 (AWDIT's histories have no initial state), then fresh writes, and reads of any value
 * written to the key anywhere (so stale, fractured and future reads, cycles: anomalies are common).
 */
function randomAwditTest(seed: number): { s: number; ops: [string, number, number][] }[] {
  const rng = new Rng(seed);
  const keys = 1 + rng.below(3);
  const txns: { s: number; ops: [string, number, number][] }[] = [{ s: 0, ops: Array.from({ length: keys }, (_, k): [string, number, number] => ['w', k, 0]) }];
  let value = 1;
  const sessions = 1 + rng.below(3);
  for (let s = 0; s < sessions; s++) {
    for (let t = 0; t < 1 + rng.below(3); t++) {
      txns.push({ s, ops: Array.from({ length: 1 + rng.below(3) }, (): [string, number, number] => (rng.below(2) === 0 ? ['w', rng.below(keys), value++] : ['r', rng.below(keys), -1])) });
    }
  }
  const written = (k: number): number[] => txns.flatMap((t) => t.ops.filter((o) => o[0] === 'w' && o[1] === k).map((o) => o[2]));
  for (const t of txns) for (const o of t.ops) if (o[0] === 'r') o[2] = pick(rng, written(o[1]));
  return txns;
}

function awditTestText(txns: ReturnType<typeof randomAwditTest>): string {
  return txns.map((t, i) => `${i === 0 ? '' : t.s === txns[i - 1].s ? '-----\n' : '=====\n'}${t.ops.map((o) => `${o[0]} ${o[1]} ${o[2]}\n`).join('')}`).join('');
}

/** The same history as plume lines (session, transaction numbers), to be read with 0 as an ordinary value. */
function awditTestAsPlume(txns: ReturnType<typeof randomAwditTest>): string {
  let session = 0;
  return txns.map((t, i) => {
    if (i > 0 && t.s !== txns[i - 1].s) session++;
    return t.ops.map((o) => `${o[0]}(${o[1]},${o[2]},${session},${i})\n`).join('');
  }).join('');
}

interface DbcopEvent { write: boolean; key: string; version: number | null }

/** A random dbcop history: sessions of transactions, versions 0 and `?` included, some uncommitted. */
function randomDbcop(seed: number): { events: DbcopEvent[]; committed: boolean }[][] {
  const rng = new Rng(seed);
  const keys = ['x', 'y', '7', 'z_1'];
  const written = new Map<string, number[]>(keys.map((k) => [k, []]));
  let version = 1;
  const event = (): DbcopEvent => {
    const key = pick(rng, keys);
    const versions = written.get(key) as number[];
    if (rng.below(2) === 0) {
      const v = rng.below(6) === 0 ? 0 : version++;
      versions.push(v);
      return { write: true, key, version: v };
    }
    // Mostly a version written before (as real histories read), else ?, 0 or anything.
    const r = rng.below(10);
    return { write: false, key, version: r < 6 && versions.length > 0 ? pick(rng, versions) : r < 8 ? null : r < 9 ? 0 : rng.below(version + 1) };
  };
  return Array.from({ length: 1 + rng.below(3) }, () => Array.from({ length: 1 + rng.below(3) }, () => ({
    committed: rng.below(6) !== 0,
    events: Array.from({ length: 1 + rng.below(3) }, event),
  })));
}

function dbcopText(h: ReturnType<typeof randomDbcop>): string {
  const event = (e: DbcopEvent): string => `${e.key}${e.write ? ':=' : '=='}${e.version ?? '?'}`;
  return h.map((s) => s.map((t) => `[${t.events.map(event).join(' ')}]${t.committed ? '' : '!'}`).join(' ')).join('\n---\n') + '\n';
}

function dbcopJson(h: ReturnType<typeof randomDbcop>, seed: number): string {
  const event = (e: DbcopEvent): unknown => ({ [e.write ? 'Write' : 'Read']: { variable: /^\d+$/.test(e.key) ? Number(e.key) : e.key, version: e.version } });
  const sessions = h.map((s) => s.map((t) => ({ events: t.events.map(event), committed: t.committed })));
  return JSON.stringify(seed % 2 === 0 ? sessions : { params: { id: seed }, data: sessions });
}

function listEvents(seed: number, format: 'edn' | 'json'): string {
  const rng = new Rng(seed);
  const d = generateListHistory({
    ...DEFAULT_LIST_GEN, seed, transactions: 3 + rng.below(10), sessions: 1 + rng.below(3), keys: 1 + rng.below(3),
    opsPerTxn: 3, readRatio: 0.5, abortRatio: 0.1, unknownRatio: 0.15, store: rng.below(3) === 0 ? 'serial' : 'permissive',
  });
  const parts: string[] = [];
  writeListEvents(d, format, (c) => parts.push(c));
  return parts.join('');
}

describe('convert keeps verdicts', () => {
  test('every example in examples/', () => {
    const files = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.hist'));
    assert.ok(files.length >= 40);
    for (const f of files) assertKeepsVerdicts(readFileSync(join(ROOT, 'examples', f), 'utf8'), 'hist', f);
  });

  test('every dbcop fixture in test/fixtures/dbcop/ (text and JSON)', () => {
    const fixtures = join(ROOT, 'test', 'fixtures', 'dbcop');
    const files = readdirSync(fixtures).filter((f) => !f.endsWith('.md'));
    assert.ok(files.length >= 8);
    for (const f of files) assertKeepsVerdicts(readFileSync(join(fixtures, f), 'utf8'), 'dbcop', f);
  });

  test("every history of dbcop's own tests in test/fixtures/dbcop-tests/ (text and JSON)", () => {
    const fixtures = join(ROOT, 'test', 'fixtures', 'dbcop-tests');
    const files = readdirSync(fixtures).filter((f) => !f.endsWith('.md'));
    assert.ok(files.length >= 40);
    for (const f of files) assertKeepsVerdicts(readFileSync(join(fixtures, f), 'utf8'), 'dbcop', f);
  });

  test('the fuzzer\'s case: init x = 5 is kept, so r(x, 5) is no thin-air read', () => {
    const text = 'init x = 5\nsession s1\n  T1: r(x, 5)\n';
    assert.equal(convert(readHistory({ text }, { format: 'hist' })), [
      '# Converted by isocheck convert.', 'history "converted"', 'init x = 5', '', 'session s1', '  T1: r(x, 5)', '',
    ].join('\n'));
    assertKeepsVerdicts(text, 'hist', 'init');
  });

  test('directives, tags, statuses and intervals are written back exactly', () => {
    const text = [
      'history "all of it"', 'level CC', 'check RC SSER', 'expect SER violated', 'expect G-single absent', 'init y = "a b"',
      'session s1', '  T1 [RA] aborted @ 1..5: w(x, 1)', '  T2 unknown: w(y, 2)', 'session s2', '  T3 [SSER] @ 6..9: r(x, init) r(y) <- T2',
    ].join('\n');
    assert.equal(convert(readHistory({ text }, { format: 'hist' })), [
      '# Converted by isocheck convert.', 'history "all of it"', 'level CC', 'check RC SSER', 'expect SER violated', 'expect G-single absent',
      'init y = "a b"', '', 'session s1', '  T1 [RA] aborted @ 1..5: w(x, 1)', '  T2 unknown: w(y, 2)', '',
      'session s2', '  T3 [SSER] @ 6..9: r(x, init) r(y) <- T2', '',
    ].join('\n'));
    assertKeepsVerdicts(text, 'hist', 'all directives');
  });

  test('plume writes of 0 (the initial value) stay ambiguous: init k = 0 is declared for their keys', () => {
    const text = 'w(1,0,0,0)\nr(1,0,1,1)\nr(2,0,1,1)\n';
    const hist = convert(readHistory({ bytes: bytes(text) }, { format: 'plume' }));
    assert.match(hist, /^init 1 = 0$/m);
    assert.doesNotMatch(hist, /^init 2/m);
    assert.match(hist, /r\(1, 0\) r\(2, init\)/);
    assertKeepsVerdicts(text, 'plume', 'plume zero write');
  });

  test('300 random .hist register histories and 100 list-append ones', () => {
    for (let seed = 1; seed <= 300; seed++) assertKeepsVerdicts(randomHist(seed), 'hist', `hist seed ${seed}`);
    for (let seed = 1; seed <= 100; seed++) assertKeepsVerdicts(smallListHistory(seed), 'hist', `list hist seed ${seed}`);
  });

  test('300 plume histories: generated ones, and random ones that write 0', () => {
    for (let seed = 1; seed <= 150; seed++) assertKeepsVerdicts(toPlumeString(generateHistory(randomOptions(seed))), 'plume', `plume seed ${seed}`);
    for (let seed = 1; seed <= 150; seed++) assertKeepsVerdicts(randomPlumeWithZeros(seed), 'plume', `plume zeros seed ${seed}`);
  });

  test('200 Jepsen EDN and 200 JSON-lines list-append histories', () => {
    for (let seed = 1; seed <= 200; seed++) assertKeepsVerdicts(listEvents(seed, 'edn'), 'edn', `edn seed ${seed}`);
    for (let seed = 1; seed <= 200; seed++) assertKeepsVerdicts(listEvents(seed, 'json'), 'json', `json seed ${seed}`);
  });

  test("300 histories in AWDIT's test format; each checks as its plume form read with --plume-init none", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const h = randomAwditTest(seed);
      const text = awditTestText(h);
      assertKeepsVerdicts(text, 'awdit-test', `awdit-test seed ${seed}`);
      const asPlume = readHistory({ bytes: bytes(awditTestAsPlume(h)) }, { format: 'plume', options: { plumeInit: 'none' } });
      assert.deepEqual(decided(readHistory({ text }, { format: 'awdit-test' })), decided(asPlume), `awdit-test seed ${seed}: as plume\n${text}`);
    }
  });

  test('300 dbcop histories in the text form and 300 in JSON (version 0, x==?, uncommitted)', () => {
    for (let seed = 1; seed <= 300; seed++) assertKeepsVerdicts(dbcopText(randomDbcop(seed)), 'dbcop', `dbcop text seed ${seed}`);
    for (let seed = 1; seed <= 300; seed++) assertKeepsVerdicts(dbcopJson(randomDbcop(seed), seed), 'dbcop', `dbcop JSON seed ${seed}`);
  });
});
