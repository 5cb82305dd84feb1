// A minimal test runner for the extension host (no mocha): runs cases in order and records results as JSON.

import { writeFileSync } from 'node:fs';

export interface CaseResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

interface Case {
  name: string;
  fn: () => Promise<void>;
  timeoutMs: number;
}

const cases: Case[] = [];

export function test(name: string, fn: () => Promise<void>, timeoutMs = 30_000): void {
  cases.push({ name, fn, timeoutMs });
}

/** Runs every case; writes the results where the node:test side reads them; rejects when one failed. */
export async function runAll(resultsFile: string | undefined): Promise<void> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    const start = Date.now();
    try {
      await withTimeout(c.fn(), c.timeoutMs, c.name);
      results.push({ name: c.name, ok: true, ms: Date.now() - start });
      console.log(`  ✔ ${c.name} (${Date.now() - start} ms)`);
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      results.push({ name: c.name, ok: false, ms: Date.now() - start, error });
      console.log(`  ✖ ${c.name}\n${error}`);
    }
    if (resultsFile) writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  }
  const failed = results.filter((r) => !r.ok).length;
  if (failed > 0) throw new Error(`${failed} of ${results.length} extension tests failed`);
}

function withTimeout<T>(p: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${name}: timed out after ${ms} ms`)), ms); });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `probe` until it returns a value other than undefined (or throws its last error on timeout). */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const reason = last instanceof Error ? `: ${last.message}` : '';
  throw new Error(`waited ${ms} ms for ${what}${reason}`);
}
