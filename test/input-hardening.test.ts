// Hostile and odd inputs an audit found mishandled: findings bounded per code, byte order marks, UTF-16 columns, names kept.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileReport } from '../server/src/engine/report.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { MAX_FINDINGS_PER_CODE } from '../server/src/engine/model/diagnostics.ts';
import { identifiers } from '../server/src/engine/export/hist-writer.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
let dir = '';

function file(name: string, content: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

function check(path: string, ...args: string[]): { status: number | null; report: FileReport; stdout: string } {
  const r = spawnSync(process.execPath, [CLI, 'check', path, '--json', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, report: (JSON.parse(r.stdout) as FileReport[])[0], stdout: r.stdout };
}

function table(path: string): string {
  return spawnSync(process.execPath, [CLI, 'check', path], { encoding: 'utf8', timeout: 60_000 }).stdout;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'isocheck-hardening-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('findings are bounded per code', () => {
  test('a write repeated 20,000 times: the first findings, then one that counts the rest', () => {
    const a = analyzeHistText(`session s\nT1: ${'w(x, 1) '.repeat(20_000)}\n`);
    const dup = a.findings.filter((f) => f.code === 'duplicate-write');
    assert.equal(dup.length, MAX_FINDINGS_PER_CODE + 1);
    // 19,999 duplicates of the first write: the first is named once, each later one once.
    assert.equal(dup[dup.length - 1].message, `${20_000 - MAX_FINDINGS_PER_CODE} more duplicate-write findings in this file not shown (the first ${MAX_FINDINGS_PER_CODE} are)`);
  });

  test('thin-air reads by the thousand: as many findings as the CLI shows, and the verdict still counts them all', () => {
    const reads = Array.from({ length: 5_000 }, (_, i) => `T${i + 2}: r(x, ${i + 7})`).join('\n');
    const { status, report } = check(file('thin.hist', `session s\nT1: w(x, 1)\nsession t\n${reads}\n`));
    assert.equal(status, 1);
    const thin = report.diagnostics.filter((d) => d.code === 'thin-air');
    assert.equal(thin.length, MAX_FINDINGS_PER_CODE + 1);
    assert.match(thin[thin.length - 1].message, /^4900 more thin-air findings/);
  });

  test('rereads by the hundred: the anomalies listed are bounded, the table names each code once', () => {
    const txns = Array.from({ length: 300 }, (_, i) => `T${i + 2}: r(x, []) r(x, [1])`).join('\n');
    const p = file('rereads.hist', `level SER\nsession w\nT1: a(x, 1)\nsession r\n${txns}\n`);
    const { report } = check(p);
    const internal = (report.anomalies ?? []).filter((a) => a.code === 'internal');
    assert.equal(internal.length, MAX_FINDINGS_PER_CODE + 1);
    const row = table(p).split('\n')[1];
    assert.equal(row.split('internal').length, 2, row);
  });
});

describe('lost updates by the hundred', () => {
  test('the first are listed and the rest counted in one; every one still decides the verdicts', () => {
    const pairs = Array.from({ length: 150 }, (_, i) => `session a${i}\nT${2 * i + 1}: r(k${i}, []) a(k${i}, 1)\nsession b${i}\nT${2 * i + 2}: r(k${i}, []) a(k${i}, 2)`).join('\n');
    const a = analyzeHistText(`level SI\n${pairs}\n`);
    const lost = a.list?.anomalies.filter((x) => x.code === 'lost-update') ?? [];
    assert.equal(lost.length, MAX_FINDINGS_PER_CODE + 1);
    assert.match(lost[lost.length - 1].message, /^50 more lost-update findings/);
    assert.equal(a.levels.find((v) => v.level === 'SI')?.consistent, false);
    assert.equal(a.mixed?.consistent, false);
  });
});

describe('empty histories', () => {
  test('a dbcop JSON history of empty sessions in a .json file is dbcop, not Jepsen: every level holds', () => {
    for (const text of ['[]', '[[], [], []]\n']) {
      const { status, report } = check(file('empty.json', text));
      assert.equal(status, 0, text);
      assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), [], text);
      assert.equal(report.levels.SER?.consistent, true, text);
    }
  });
});

describe('byte order marks and columns', () => {
  const EVENT = '{:type :ok, :f :txn, :value [[:append :x 1]], :process 0}\n{:type :ok, :f :txn, :value [[:r :x [1]]], :process 1}\n';

  test('an EDN history that starts with a byte order mark reads as without it', () => {
    const plain = check(file('plain.edn', EVENT));
    const bom = check(file('bom.edn', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(EVENT)])));
    assert.equal(bom.status, 0);
    assert.deepEqual(bom.report.levels, plain.report.levels);
    assert.deepEqual(bom.report.diagnostics, plain.report.diagnostics);
  });

  test('a plume file with a byte order mark has no negative columns', () => {
    const p = file('bom.plume', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('w(1,1,1,1)\nw(2,1,1,1)\nr(2,0,2,2)\nr(1,1,2,2)\n')]));
    const { stdout } = check(p);
    assert.doesNotMatch(stdout, /"character": -/);
  });

  test('EDN columns count UTF-16 code units, not UTF-8 bytes', () => {
    const p = file('wide.edn', '{:type :ok, :f :txn, :value [[:append "ééé😀" 1]], :process 0} @@\n');
    const { report } = check(p);
    const syntax = report.diagnostics.find((d) => d.code === 'syntax');
    // `@@` follows the event's 59 UTF-16 code units and a space (é: 1 unit in 2 bytes, 😀: 2 in 4).
    assert.equal(syntax?.range.start.character, '{:type :ok, :f :txn, :value [[:append "ééé😀" 1]], :process 0} '.length);
  });

  test('a JSON-lines history with CRLF line ends: a range ends on its own line', () => {
    const p = file('crlf.jsonl', '{"type":"ok","f":"txn","value":[["append","x",1]],"process":0} junk\r\n{"type":"ok","f":"txn","value":[["r","x",[1]]],"process":1}\r\n');
    const { report } = check(p);
    const syntax = report.diagnostics.find((d) => d.code === 'syntax');
    assert.ok(syntax);
    assert.equal(syntax.range.end.line, 0);
    assert.equal(syntax.range.end.character, '{"type":"ok","f":"txn","value":[["append","x",1]],"process":0} junk'.length);
  });
});

describe('the command line bounds what it is asked for', () => {
  test('--witnesses past 1,000 is a usage error', () => {
    const p = file('w.hist', 'session s\nT1: w(x, 1)\n');
    const r = spawnSync(process.execPath, [CLI, 'check', p, '--witnesses', '99999999999999999999'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--witnesses needs an integer from 1 to 1000/);
  });
});

describe('exports keep names', () => {
  test('names that are identifiers are kept; only the others are renamed, around them', () => {
    assert.deepEqual(identifiers(['T', 'T1', 'T2'], 'T'), ['T', 'T1', 'T2']);
    assert.deepEqual(identifiers(['s'], 's'), ['s']);
    assert.deepEqual(identifiers(['a b', 'a_b'], 'T'), ['a_b_2', 'a_b']);
    assert.deepEqual(identifiers(['', 'T0'], 'T'), ['T0_2', 'T0']);
  });


  test('one mistyped anomaly in an expect line is one error, which lists the anomalies', () => {
    const p = parseHist('expect bogus-anomaly found\nsession s\nT1: a(x, 1)\n');
    assert.equal(p.findings.length, 1);
    assert.match(p.findings[0].message, /unknown anomaly 'bogus-anomaly': expected one of G0, G1c/);
  });
});
