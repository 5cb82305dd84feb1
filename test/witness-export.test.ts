// Witness export: JSON, DOT (accepted by Graphviz), SVG (well-formed) and minimised .hist (still violated, no larger).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { analyzeHistText, type Analysis } from '../server/src/engine/analyze.ts';
import { exportWitness } from '../server/src/engine/export/witness-export.ts';
import { histKey, histValue } from '../server/src/engine/export/hist-writer.ts';
import type { ViewLevel } from '../server/src/engine/export/layout.ts';
import { CAPTION_CHARS, TITLE_CHARS } from '../server/src/engine/export/svg-writer.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { xmlErrors } from './helpers/xml-check.ts';

const ROOT = join(import.meta.dirname, '..');
const EXAMPLES = join(ROOT, 'examples');
const CLI = join(ROOT, 'out', 'cli.js');
const hasDot = spawnSync('dot', ['-V']).status === 0;
const dotSkip = !hasDot && process.env.CI !== 'true' ? 'needs Graphviz (apt-get install graphviz)' : false;

function violatedLevels(a: Analysis): ViewLevel[] {
  const out: ViewLevel[] = a.levels.filter((v) => v.consistent === false).map((v) => v.level);
  if (a.mixed?.consistent === false) out.push('mixed');
  return out;
}

function size(text: string): { txns: number; ops: number } {
  const h = parseHist(text).history;
  return { txns: h.txnCount - 1, ops: h.opCount };
}

/** The verdict of `level` for a re-analysed export; mixed needs the file's own `level` directive. */
function verdictOf(text: string, level: ViewLevel): boolean | null | undefined {
  const a = analyzeHistText(text, { levels: level === 'mixed' ? [] : [level] });
  return level === 'mixed' ? a.mixed?.consistent : a.levels.find((v) => v.level === level)?.consistent;
}

function checkMinimised(name: string, original: string, level: ViewLevel, claimed: ViewLevel | null): string {
  const a = analyzeHistText(original, { levels: level === 'mixed' ? [] : [level] });
  const r = exportWitness(a, { file: name, level, format: 'hist', claimed: claimed === 'mixed' ? null : claimed, minimizeMillis: 5000 });
  assert.ok(r.ok, `${name} ${level}: ${r.ok ? '' : r.message}`);
  const text = r.text;
  assert.equal(parseHist(text).findings.filter((f) => f.code === 'syntax').length, 0, `${name} ${level}: parses\n${text}`);
  assert.equal(verdictOf(text, level), false, `${name} ${level}: the minimised history still violates it\n${text}`);
  // The comment tells the file's own witness (not the whole history's, whose transactions may be gone).
  const own = analyzeHistText(text, { levels: level === 'mixed' ? [] : [level] });
  const ownWitness = (level === 'mixed' ? own.mixed : own.levels.find((v) => v.level === level))?.witness;
  assert.equal(text.split('\n')[1], `# ${ownWitness?.message.replace(/[\r\n]+/g, ' ')}`, `${name} ${level}: the comment is the file's own witness\n${text}`);
  const before = size(original);
  const after = size(text);
  assert.ok(after.txns <= before.txns && after.ops <= before.ops, `${name} ${level}: ${JSON.stringify(after)} ≤ ${JSON.stringify(before)}`);
  if (level !== 'mixed') {
    assert.ok(!analyzeHistText(text).findings.some((f) => f.code === 'expectation-failed'), `${name} ${level}: its expectation holds`);
  }
  return text;
}

describe('witness export', () => {
  const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.hist')).sort();

  test('every violating example: JSON cycle as the CLI contract, well-formed SVG, minimised .hist still violated and no larger', () => {
    let exported = 0;
    for (const f of examples) {
      const text = readFileSync(join(EXAMPLES, f), 'utf8');
      const a = analyzeHistText(text);
      const claimed = parseHist(text).directives.level?.level ?? null;
      for (const level of violatedLevels(a)) {
        const json = exportWitness(a, { file: f, level, format: 'json', claimed });
        assert.ok(json.ok);
        const doc = JSON.parse(json.text) as { file: string; level: string; cycle: { from: string; to: string; kind: string; key: string | null; because: string; range: unknown }[] };
        assert.equal(doc.level, level);
        for (const e of doc.cycle) {
          assert.deepEqual(Object.keys(e).sort(), ['because', 'from', 'key', 'kind', 'range', 'to']);
          assert.ok(['so', 'wr', 'co', 'ww', 'rw'].includes(e.kind));
        }
        const svg = exportWitness(a, { file: f, level, format: 'svg', claimed });
        assert.ok(svg.ok);
        assert.deepEqual(xmlErrors(svg.text), [], `${f} ${level}`);
        assert.match(svg.text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        checkMinimised(f, text, level, claimed);
        exported++;
      }
    }
    assert.ok(exported >= 60, `${exported} witnesses exported`);
  });

  test('the JSON export carries the history title (null without one), as the spec says exports show it', () => {
    const body = 'session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n';
    for (const [text, title] of [[`history "fractured \\"read\\""\n${body}`, 'fractured "read"'], [body, null]] as const) {
      const r = exportWitness(analyzeHistText(text), { file: 'f.hist', level: 'RA', format: 'json', claimed: null });
      assert.ok(r.ok);
      const doc = JSON.parse(r.text) as { file: string; title: string | null; level: string };
      assert.deepEqual([doc.file, doc.title, doc.level], ['f.hist', title, 'RA']);
    }
  });

  test('DOT of every violating example is accepted by Graphviz (dot -Tsvg)', { skip: dotSkip }, () => {
    for (const f of examples) {
      const text = readFileSync(join(EXAMPLES, f), 'utf8');
      const a = analyzeHistText(text);
      for (const level of violatedLevels(a)) {
        const r = exportWitness(a, { file: f, level, format: 'dot', claimed: null });
        assert.ok(r.ok);
        const out = spawnSync('dot', ['-Tsvg'], { input: r.text, encoding: 'utf8' });
        assert.equal(out.status, 0, `${f} ${level}: ${out.stderr}\n${r.text}`);
        assert.match(out.stdout, /<svg/);
      }
    }
  });

  test('hostile keys and values are escaped in every format', () => {
    const text = `history "a \\"quoted\\" <title>"\nsession s1\n  T1: w("<k>&\\"x\\\\", "</text><script>alert(1)</script>") w(y, 1)\nsession s2\n  T2: r(y, init) r("<k>&\\"x\\\\", "</text><script>alert(1)</script>")\n`;
    const a = analyzeHistText(text);
    assert.equal(a.levels.find((v) => v.level === 'RA')?.consistent, false);
    const svg = exportWitness(a, { file: 'h.hist', level: 'RA', format: 'svg', claimed: null });
    assert.ok(svg.ok);
    assert.deepEqual(xmlErrors(svg.text), []);
    assert.doesNotMatch(svg.text, /<script/);
    if (hasDot) {
      const dot = exportWitness(a, { file: 'h.hist', level: 'RA', format: 'dot', claimed: null });
      assert.ok(dot.ok);
      assert.equal(spawnSync('dot', ['-Tsvg'], { input: dot.text }).status, 0);
    }
    const hist = checkMinimised('h.hist', text, 'RA', null);
    assert.match(hist, /w\("<k>&\\"x\\\\", "<\/text><script>alert\(1\)<\/script>"\)/);
    assert.equal(histKey('init'), '"init"');
    assert.equal(histKey('x.y-1'), 'x.y-1');
    assert.equal(histValue('"a\\"b"'), '"a\\"b"');
  });

  test('SVG: a 100,000-character key and a 100,000-character title stay out of the width and the size (caption clipped, tooltips bounded)', () => {
    const key = `"${'k'.repeat(100_000)}"`;
    const text = `history "${'<img>'.repeat(20_000)}"\ninit ${key} = 0, y = 0\nsession s1\n  T${'a'.repeat(5_000)}: r(${key}, 0) r(y, 0) w(${key}, 1)\nsession s2\n  T2: r(${key}, 0) r(y, 0) w(y, 1)\n`;
    const a = analyzeHistText(text, { levels: ['SER'] });
    assert.equal(a.levels.find((v) => v.level === 'SER')?.consistent, false);
    const svg = exportWitness(a, { file: 'long.hist', level: 'SER', format: 'svg', claimed: null });
    assert.ok(svg.ok);
    assert.deepEqual(xmlErrors(svg.text), []);
    const width = Number(/^<svg [^>]*width="([\d.]+)"/.exec(svg.text)?.[1]);
    // The caption's widest line takes at most MARGIN * 2 + CAPTION_CHARS * 6.5 + 24 = 1632 px; two lanes of clipped boxes about as much.
    assert.ok(width > 0 && width < 2_000, `width ${width}`);
    assert.ok(svg.text.length < 100_000, `${svg.text.length} characters`);
    const unescape = (x: string): string => x.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
    const titles = [...svg.text.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => unescape(m[1]));
    assert.ok(titles.length > 0 && titles.every((t) => [...t].length <= TITLE_CHARS), titles.map((t) => t.length).join(' '));
    // Each caption line: clipped with an ellipsis, its longer form in the line's own tooltip.
    const caption = [...svg.text.matchAll(/<text x="\d+" y="[\d.]+" fill="[^"]*">(<title>[^<]*<\/title>)?([^<]*)<\/text>/g)];
    assert.equal(caption.length, 2, 'two witness sentences');
    for (const [, tip, line] of caption) {
      assert.ok(tip, 'a clipped line keeps its sentence in a tooltip');
      assert.ok([...unescape(line)].length <= CAPTION_CHARS && line.endsWith('…'), line.slice(0, 80));
    }
  });

  test('a few hundred generated histories (permissive store): minimised .hist still violated and no larger', () => {
    let checked = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const g = generateHistory({
        sessions: 2 + (seed % 3), transactions: 6 + (seed % 7), opsPerTxn: 2 + (seed % 2), keys: 3 + (seed % 3), distribution: 'uniform', zipfS: 0.8,
        readRatio: 0.5, store: 'permissive', seed, abortRatio: seed % 5 === 0 ? 0.1 : 0,
      });
      const text = toHistString(g, `generated ${seed}`);
      const a = analyzeHistText(text, { levels: seed % 10 === 0 ? [...LEVELS] : ['RC', 'RA', 'CC'] });
      for (const level of violatedLevels(a)) {
        checkMinimised(`seed ${seed}`, text, level, null);
        checked++;
      }
    }
    assert.ok(checked >= 300, `${checked} minimisations checked`);
  });

  test('histories with unknown transactions: the minimised .hist keeps a reader of each unknown writer it needs', () => {
    // An unknown transaction counts only while someone reads it: a minimiser that drops the reader
    // leaves a writer that never ran, and the written witness would hold (an audit found one).
    const w1 = 'session a\n  T1: w(x, 1) w(x, 2)\nsession b\n  T2 unknown: r(x, 1) w(y, 1)\nsession c\n  T3: r(y, 1)\n';
    assert.match(checkMinimised('w1', w1, 'RC', null), /T3: r\(y, 1\)/);
    let checked = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const g = generateHistory({
        sessions: 2 + (seed % 3), transactions: 6 + (seed % 6), opsPerTxn: 2 + (seed % 2), keys: 2 + (seed % 3), distribution: 'uniform', zipfS: 0.8,
        readRatio: 0.5, store: 'permissive', seed, abortRatio: 0.05,
      });
      let n = 0;
      const text = toHistString(g, `unknown ${seed}`).replace(/^(\s*T\d+):/gm, (m, head: string) => (++n % 3 === seed % 3 ? `${head} unknown:` : m));
      const a = analyzeHistText(text, { levels: ['RC', 'RA', 'CC', 'SER'] });
      for (const level of violatedLevels(a)) {
        checkMinimised(`unknown seed ${seed}`, text, level, null);
        checked++;
      }
    }
    assert.ok(checked >= 150, `${checked} minimisations checked`);
  });

  test('isocheck witness: formats, -o, exit status 0 / 1 / 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'isocheck-witness-'));
    try {
      const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'witness', ...args], { encoding: 'utf8' });
      const file = join(EXAMPLES, 'fractured-read.hist');
      const json = run(file, '--level', 'RA');
      assert.equal(json.status, 0, json.stderr);
      assert.deepEqual((JSON.parse(json.stdout) as { cycle: { from: string; kind: string; to: string }[] }).cycle.map((e) => `${e.from}-${e.kind}->${e.to}`), ['T1-co->init', 'init-so->T1']);
      const out = join(dir, 'min.hist');
      const hist = run(file, '--level', 'ra', '--format', 'hist', '-o', out);
      assert.equal(hist.status, 0, hist.stderr);
      assert.equal(hist.stdout, '');
      const check = spawnSync(process.execPath, [CLI, 'check', out], { encoding: 'utf8' });
      assert.equal(check.status, 0, `the minimised file meets its expectation: ${check.stdout}`);
      assert.equal(run(file, '--level', 'RA', '--format', 'svg').status, 0);
      assert.equal(run(file, '--level', 'mixed', '--format', 'dot').status, 0);
      const holds = run(file, '--level', 'RC');
      assert.equal(holds.status, 1);
      assert.match(holds.stderr, /RC holds, so there is no witness/);
      assert.equal(holds.stdout, '');
      assert.equal(run(file, '--level', 'XX').status, 2);
      assert.equal(run(file).status, 2, '--level is required');
      assert.equal(run(file, '--level', 'RA', '--format', 'png').status, 2);
      assert.equal(run(join(dir, 'missing.hist'), '--level', 'RA').status, 2);
      assert.equal(run('--help').status, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
