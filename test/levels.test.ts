// The level table is the one declaration of the levels: every list in the product derives from it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_LEVELS, isSnapshotLevel, isWeakLevel, LEVEL_TABLE, levelById, levelId, levelRow, LEVELS, parseLevel, RULES, strongestHolding, weakerOrEqual, WEAK_LEVELS, type Level,
} from '../server/src/engine/levels/levels.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { GRAPH_LEVELS } from '../server/src/protocol/webview.ts';
import { renderTable } from '../server/src/cli/text-report.ts';
import { fileReport } from '../server/src/engine/report.ts';

const ROOT = join(import.meta.dirname, '..');

test('package.json: the isocheck.levels setting lists exactly the table\'s levels, in its order', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { items?: { enum?: string[] }; default?: unknown }> } } };
  const setting = pkg.contributes.configuration.properties['isocheck.levels'];
  assert.deepEqual(setting.items?.enum, [...LEVELS]);
  assert.deepEqual(setting.default, [...DEFAULT_LEVELS], 'the default set: the seven (SSER when asked for or when the file has real times)');
});

test('the table: names, stable unique ids, aliases, lattice edges that name levels of the table', () => {
  assert.deepEqual(LEVELS, Object.keys(LEVEL_TABLE));
  const ids = LEVELS.map(levelId);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const l of LEVELS) {
    assert.equal(levelById(levelId(l)), l);
    assert.equal(parseLevel(l.toLowerCase()), l);
    for (const a of levelRow(l).aliases) assert.equal(parseLevel(a.toUpperCase()), l, a);
    for (const b of [...levelRow(l).below, ...levelRow(l).decideFirst, ...levelRow(l).useKnown, ...levelRow(l).witnessFrom]) assert.ok(LEVELS.includes(b), `${l} names ${b}`);
    for (const w of levelRow(l).witnessFrom) assert.ok(weakerOrEqual(w, l) && w !== l, `${l}'s witness may come from ${w} only if ${w} is weaker`);
    assert.ok(levelRow(l).below.every((b) => LEVELS.indexOf(b) < LEVELS.indexOf(l)), `${l}: the levels below come earlier (weakest first)`);
  }
  // The ids in History.txnLevel are the table's, not positions in a list.
  // A level added later gets a fresh id: these never change.
  const stable: Record<string, number> = { RC: 0, RA: 1, CC: 2, PC: 3, PSI: 4, SI: 5, SER: 6, SSER: 7 };
  for (const [l, id] of Object.entries(stable)) assert.equal(levelId(l as Level), id, l);
  assert.equal(parseLevel('nonsense'), null);
});

test('derived facts: weak levels, rules, snapshot levels, the lattice and the strongest that holds', () => {
  const seven = (ls: readonly Level[]): Level[] => ls.filter((l) => ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER'].includes(l));
  assert.deepEqual(WEAK_LEVELS, ['RC', 'RA', 'CC']);
  assert.deepEqual(RULES, ['RC', 'RA', 'CC']);
  assert.deepEqual(seven(LEVELS.filter(isSnapshotLevel)), ['PC', 'SI', 'SER']);
  assert.deepEqual(seven(LEVELS.filter((l) => !isWeakLevel(l))), ['PC', 'PSI', 'SI', 'SER']);
  const lattice: [Level, Level][] = [['RC', 'RA'], ['RA', 'CC'], ['CC', 'PC'], ['CC', 'PSI'], ['PC', 'SI'], ['PSI', 'SI'], ['SI', 'SER'], ['RC', 'SER']];
  for (const [a, b] of lattice) assert.ok(weakerOrEqual(a, b) && !weakerOrEqual(b, a), `${a} ⊑ ${b}`);
  assert.ok(!weakerOrEqual('PC', 'PSI') && !weakerOrEqual('PSI', 'PC'), 'PC and PSI are incomparable');
  assert.deepEqual(strongestHolding(['RC', 'RA', 'CC', 'PC', 'PSI']), ['PC', 'PSI']);
  assert.deepEqual(strongestHolding(['PSI', 'CC', 'RC']), ['PSI'], 'not picked by list order');
  assert.deepEqual(strongestHolding([]), []);
  for (const l of LEVELS) assert.ok(levelRow(l).anomaly, `${l} names its anomaly`);
});

test('user-facing lists follow the table: parser messages, the graph\'s levels, the CLI table, the JSON report', () => {
  const a = analyzeHistText('level bogus\nsession s1\n  T1: w(x, 1)\n');
  const unknown = a.findings.find((f) => f.code === 'unknown-level');
  assert.ok(unknown?.message.includes(`expected ${LEVELS.slice(0, -1).join(', ')} or ${LEVELS[LEVELS.length - 1]}`), unknown?.message);
  assert.deepEqual(GRAPH_LEVELS, [...LEVELS, 'mixed']);
  const report = fileReport('f.hist', analyzeHistText('session s1\n  T1: w(x, 1)\n'));
  assert.deepEqual(Object.keys(report.levels), [...DEFAULT_LEVELS], 'the default set');
  assert.deepEqual(renderTable([report]).split('\n')[0].split(/\s+/), ['file', ...DEFAULT_LEVELS, 'result']);
  // Real times (or a file naming SSER) add SSER; every level of the table is then shown.
  const timed = fileReport('t.hist', analyzeHistText('session s1\n  T1 @ 1..2: w(x, 1)\n'));
  assert.deepEqual(Object.keys(timed.levels), [...LEVELS]);
  assert.deepEqual(renderTable([timed]).split('\n')[0].split(/\s+/), ['file', ...LEVELS, 'result']);
  const named = analyzeHistText('check SSER\nsession s1\n  T1: w(x, 1)\n');
  assert.deepEqual(named.levels.map((v) => v.level), [...LEVELS]);
  assert.deepEqual(analyzeHistText('session s1\n  T1 @ 1..2: w(x, 1)\n', { levels: ['SER'] }).levels.map((v) => v.level), ['SER'], 'the caller narrows');
});

test('verdicts carry a typed basis: implied verdicts name the level they come from', () => {
  // A causality violation: CC is violated, every strong level is implied by it.
  const a = analyzeHistText('session s1\n  T1: r(x, 2) w(y, 1)\nsession s2\n  T2: r(y, 1) w(x, 2)\n');
  const cc = a.levels.find((v) => v.level === 'CC')!;
  assert.equal(cc.basis.kind, 'decided');
  for (const l of ['PC', 'PSI', 'SI', 'SER']) assert.deepEqual(a.levels.find((v) => v.level === l)?.basis, { kind: 'implied', from: 'CC' });
  // Serializable: SER is decided by its search, the others are implied by it.
  const b = analyzeHistText('session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n');
  assert.deepEqual(b.levels.find((v) => v.level === 'SER')?.basis, { kind: 'decided' });
  for (const l of ['PC', 'PSI', 'SI']) assert.deepEqual(b.levels.find((v) => v.level === l)?.basis, { kind: 'implied', from: 'SER' });
  const pending = analyzeHistText('session s1\n  T1: w(x, 1)\n', { deferStrong: true });
  assert.deepEqual(pending.levels.find((v) => v.level === 'SI')?.basis, { kind: 'pending' });
  assert.deepEqual(fileReport('f', b).levels.PC.basis, { kind: 'implied', from: 'SER' });
});

test('the syntax grammar highlights exactly the table\'s level names and aliases', () => {
  const grammar = JSON.parse(readFileSync(join(ROOT, 'syntaxes', 'hist.tmLanguage.json'), 'utf8')) as { repository: { level: { match: string } } };
  const m = /\\b\((.*)\)\\b/.exec(grammar.repository.level.match);
  const highlighted = new Set(m![1].split('|').map((s) => s.toLowerCase()));
  const names = new Set(LEVELS.flatMap((l) => [l.toLowerCase(), ...levelRow(l).aliases]));
  assert.deepEqual([...highlighted].sort(), [...names].sort());
});

test('the engine index: analyzeSource over an already-read source gives what analyzeHistText gives', async () => {
  const engine = await import('../server/src/engine/index.ts');
  const text = 'level SI\nsession s1\n  T1: r(x, _) w(x, 1)\nsession s2\n  T2: r(x, _) w(x, 2)\n';
  const p = engine.parseHist(text);
  const a = engine.analyzeSource({ history: p.history, lines: engine.LineIndex.ofText(text), findings: p.findings, directives: p.directives, hasTags: p.hasTags });
  assert.equal(JSON.stringify(engine.fileReport('f', a)), JSON.stringify(engine.fileReport('f', engine.analyzeHistText(text))));
  assert.equal(a.mixed?.consistent, false, 'a lost update violates SI');
  assert.deepEqual(engine.LEVELS, LEVELS);
});
