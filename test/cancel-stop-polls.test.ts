// The Jepsen (EDN, JSON), dbcop and AWDIT test readers and the RC/RA/CC checks poll stop, counted: a cancelled big analysis ends by itself.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSource } from '../server/src/engine/analyze.ts';
import { DEFAULT_GEN_OPTIONS, generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { DEFAULT_LIST_GEN, generateListHistory, writeListEvents } from '../server/src/engine/gen/list-append-store.ts';
import { readerNamed } from '../server/src/engine/readers/registry.ts';
import type { ReadSource } from '../server/src/engine/readers/reader.ts';
import { STOP_POLL_ITEMS } from '../server/src/engine/util/stop.ts';
import { STOPPED_REASON } from '../server/src/engine/verdicts/verdict.ts';

/** A stop that turns true at its n-th poll (and stays true), counting its polls. */
function stopAt(n: number): { stop: () => boolean; polls: () => number } {
  let polls = 0;
  return { stop: () => ++polls >= n, polls: () => polls };
}

/** A stop that never fires, counting its polls. */
function counting(): { stop: () => boolean; polls: () => number } {
  return stopAt(Infinity);
}

const columns = (s: ReadSource): unknown => {
  const h = s.history;
  return [h.txnCount, h.opCount, h.sessionCount, Array.from(h.opKey), Array.from(h.opValue), s.findings.map((f) => f.message)];
};

function listEvents(format: 'edn' | 'json'): string {
  const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: 6_000, sessions: 8, keys: 50, seed: 3 });
  const chunks: string[] = [];
  writeListEvents(d, format, (c) => chunks.push(c));
  return chunks.join('');
}

/** dbcop's text form: 8 sessions of 1,000 one-line transactions. */
function dbcopText(): string {
  const sessions: string[] = [];
  for (let s = 0; s < 8; s++) {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++) lines.push(`[x${(s * 7 + i) % 50}:=${s * 1000 + i + 1} y${i % 13}==?]`);
    sessions.push(lines.join('\n'));
  }
  return sessions.join('\n---\n') + '\n';
}

/** The same history in dbcop's JSON form. */
function dbcopJson(): string {
  const sessions: unknown[] = [];
  for (let s = 0; s < 8; s++) {
    const txns: unknown[] = [];
    for (let i = 0; i < 1000; i++) {
      txns.push({ events: [{ Write: { variable: (s * 7 + i) % 50, version: s * 1000 + i + 1 } }, { Read: { variable: 100 + (i % 13), version: null } }], committed: true });
    }
    sessions.push(txns);
  }
  return JSON.stringify(sessions);
}

/** AWDIT's test form: 5 sessions of 1,000 one-event transactions. */
function awditTest(): string {
  const sessions: string[] = [];
  for (let s = 0; s < 5; s++) {
    const txns: string[] = [];
    for (let i = 0; i < 1000; i++) txns.push(`w ${i % 40} ${s * 1000 + i + 1}`);
    sessions.push(txns.join('\n-----\n'));
  }
  return sessions.join('\n=====\n') + '\n';
}

describe('the readers poll stop every STOP_POLL_ITEMS items', () => {
  const cases: [string, string, () => string][] = [
    ['edn', 'Jepsen EDN (per event)', () => listEvents('edn')],
    ['json', 'Jepsen JSON lines (per line)', () => listEvents('json')],
    ['dbcop', 'dbcop text (per line)', dbcopText],
    ['dbcop', 'dbcop JSON (per transaction)', dbcopJson],
    ['awdit-test', 'AWDIT test (per line)', awditTest],
  ];
  for (const [format, name, make] of cases) {
    test(`${name}: stopped at the second poll, a part is read; never stopped, the history read without a stop`, () => {
      const text = make();
      const reader = readerNamed(format)!;
      const whole = reader.read({ text });
      assert.ok(whole.history.txnCount > 4 * STOP_POLL_ITEMS, `${whole.history.txnCount} transactions`);
      const never = counting();
      assert.deepEqual(columns(reader.read({ text }, { stop: never.stop })), columns(whole));
      assert.ok(never.polls() >= 3, `${never.polls()} polls`);
      const s = stopAt(2);
      const part = reader.read({ text }, { stop: s.stop });
      assert.equal(s.polls(), 2, 'no poll after the stop');
      assert.ok(part.history.txnCount < whole.history.txnCount / 2, `${part.history.txnCount} of ${whole.history.txnCount} transactions`);
    });
  }
});

describe('RC, RA and CC poll stop', () => {
  // 20,000 transactions in 8 sessions: every saturation polls about twenty times.
  const text = toHistString(generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 8, transactions: 20_000, keys: 200, store: 'causal', seed: 5 }));
  const src = (): ReadSource => readerNamed('hist')!.read({ text });
  const weak = { levels: ['RC', 'RA', 'CC'] as const, keepForced: true };

  test('a stop that fires at the first poll ends the checks there: every verdict undecided, no forced edges kept', () => {
    const never = counting();
    const full = analyzeSource(src(), { ...weak, levels: [...weak.levels], stop: never.stop });
    assert.deepEqual(full.levels.map((v) => v.consistent), [true, true, true]);
    // The saturations poll (once per STOP_POLL_ITEMS transactions each): the old checks never did.
    assert.ok(never.polls() >= 3 * Math.floor(20_000 / STOP_POLL_ITEMS), `${never.polls()} polls`);
    assert.deepEqual(full.levels, analyzeSource(src(), { levels: [...weak.levels] }).levels, 'a stop that never fires changes nothing');
    for (let first = 1; first <= 40; first += 13) {
      const s = stopAt(first);
      const a = analyzeSource(src(), { levels: [...weak.levels], stop: s.stop });
      // Once it fired, each level's check sees it at once: a poll or two each, not another saturation's twenty.
      assert.ok(s.polls() <= first + 8, `stopped at poll ${first}: ${s.polls()} polls in all`);
      const decided = a.levels.filter((v) => v.consistent !== null);
      assert.ok(a.levels.some((v) => v.note === STOPPED_REASON), `stopped at poll ${first}: ${a.levels.map((v) => v.note).join('; ')}`);
      // A level decided before the stop is decided as without it; none is decided on a part of its edges.
      for (const v of decided) assert.deepEqual(v, full.levels.find((w) => w.level === v.level));
      for (const v of a.levels) if (v.note === STOPPED_REASON) assert.equal(a.forced.has(v.level as 'RC'), false);
    }
  });

  test('a list-append (Jepsen) history: stopped between reading consistency and the list analysis, every verdict undecided', () => {
    const edn = listEvents('edn');
    const read = readerNamed('edn')!.read({ text: edn });
    const a = analyzeSource(read, { levels: ['RC', 'RA', 'CC', 'SER'], stop: () => true });
    assert.deepEqual(a.levels.map((v) => v.note), Array(4).fill(STOPPED_REASON));
    assert.equal(a.list, null, 'the list analysis did not run');
  });
});
