// Assertions shared by the harness tests: recorded histories parse cleanly and every witness is a real cycle.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeHistText, type Analysis } from '../../server/src/engine/analyze.ts';
import { fileReport, type EdgeJson, type WitnessJson } from '../../server/src/engine/report.ts';

/** Parses and checks a recorded history; fails on any syntax error (the recorder must write valid `.hist`). */
export function checkRecorded(text: string): Analysis {
  const a = analyzeHistText(text, { maxWitnesses: 1 });
  const syntax = a.findings.filter((f) => f.code === 'syntax' || f.code === 'duplicate-name' || f.code === 'undefined-transaction');
  assert.deepEqual(syntax.map((f) => f.message), [], 'the recorded history has syntax errors');
  return a;
}

/** The witness of `level` chains into a cycle through transactions of the history. */
export function assertRealCycle(a: Analysis, level: string): WitnessJson {
  const rep = fileReport('run.hist', a);
  const v = rep.levels[level];
  assert.equal(v?.consistent, false, `${level} should be violated`);
  const w: WitnessJson | undefined = v.witness;
  assert.ok(w, `${level} has a witness`);
  const names = new Set<string>(['init']);
  for (let t = 0; t < a.history.txnCount; t++) names.add(a.history.names.txnName(t));
  if (w.cycle.length > 0) {
    for (let i = 0; i < w.cycle.length; i++) {
      const e: EdgeJson = w.cycle[i];
      const next: EdgeJson = w.cycle[(i + 1) % w.cycle.length];
      assert.equal(e.to, next.from, `witness edge ${i} does not chain: ${JSON.stringify(w.cycle)}`);
      assert.ok(names.has(e.from) && names.has(e.to), `witness names a transaction not in the history: ${e.from} → ${e.to}`);
    }
  } else {
    // A strong level without a forced cycle explains every commit order instead.
    assert.ok((w.explanation ?? []).length > 0 || w.message.length > 0, 'the witness explains itself');
  }
  return w;
}

/**
 * What a failed expectation on a recorded history needs for a diagnosis after the run (the
 * temporary files are gone by then): the history kept in test-results/harness/, and the level's
 * witness and the error findings in the message.
 */
export function evidence(name: string, text: string, a: Analysis, level: string): string {
  const dir = join(import.meta.dirname, '..', '..', 'test-results', 'harness');
  mkdirSync(dir, { recursive: true });
  const kept = join(dir, name);
  writeFileSync(kept, text);
  const v = fileReport(name, a).levels[level];
  const cycle = (v?.witness?.cycle ?? []).map((e) => `  ${e.from} → ${e.to} [${e.kind}] ${e.because}`);
  const errors = a.findings.filter((f) => f.severity === 'error').slice(0, 5).map((f) => `  ${f.code}: ${f.message}`);
  return [`${level} is ${v?.consistent}; the history is kept in ${kept}`, v?.witness?.message ?? v?.note ?? '', ...cycle, ...errors].join('\n');
}

export function verdict(a: Analysis, level: string): boolean | null {
  return a.levels.find((v) => v.level === level)?.consistent ?? null;
}

/**
 * In a list-append history every read of a key must be a prefix of the longest read of it (else
 * the database lost or reordered an append). Checked on the text, independently of the engine.
 */
export function assertListsPrefixConsistent(text: string): number {
  const longest = new Map<string, string[]>();
  const reads: [string, string[]][] = [];
  // Committed transactions only: an aborted one may have read its own append, which never took effect.
  for (const m of text.matchAll(/^ {2}T\d+(?: @ \d+\.\.\d+)?:(.*)$/gm)) {
    for (const r of m[1].matchAll(/r\((k\d+), \[([^\]]*)\]\)/g)) {
      const list = r[2].length === 0 ? [] : r[2].split(', ');
      reads.push([r[1], list]);
      if (list.length > (longest.get(r[1])?.length ?? -1)) longest.set(r[1], list);
    }
  }
  for (const [key, list] of reads) {
    const full = longest.get(key) ?? [];
    assert.deepEqual(list, full.slice(0, list.length), `a read of ${key} is not a prefix of the longest read`);
  }
  return reads.length;
}

const made: string[] = [];

/** A temporary directory removed by removeTempDirs() (call it in the file's after hook). */
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export function removeTempDirs(...more: string[]): void {
  for (const d of [...made.splice(0), ...more]) rmSync(d, { recursive: true, force: true });
}
