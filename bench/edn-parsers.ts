// The measurement behind the hand-written EDN reader: the npm package edn-data against readJepsenEdn on one Jepsen history.
//
//   npm install --no-save edn-data@1.2.2 && node --import tsx bench/edn-parsers.ts [TRANSACTIONS]   (default 100,000)
//
// edn-data parses each event into plain objects (what the reader would then walk); readJepsenEdn goes
// from bytes straight into the history's typed arrays. Not a test: figures only.

import { DEFAULT_LIST_GEN, generateListHistory, writeListEvents } from '../server/src/engine/gen/list-append-store.ts';
import { readJepsenEdn } from '../server/src/engine/readers/edn-reader.ts';

type ParseEdn = (text: string, options: Record<string, string>) => unknown;

async function loadEdnData(): Promise<ParseEdn | null> {
  const name = 'edn-data'; // not a dependency: installed by hand for this measurement
  try {
    const m = (await import(name)) as { parseEDNString?: ParseEdn; default?: { parseEDNString?: ParseEdn } };
    return m.parseEDNString ?? m.default?.parseEDNString ?? null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const txns = Number(process.argv[2] ?? '100000');
  const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: txns, sessions: 64, keys: 1024, maxAppends: 32, opsPerTxn: 4, fixedSize: true, abortRatio: 0.01, unknownRatio: 0.1, store: 'serial', seed: 1 });
  const parts: string[] = [];
  writeListEvents(d, 'edn', (c) => parts.push(c));
  const text = parts.join('');
  const bytes = new TextEncoder().encode(text);
  const mb = bytes.length / 1e6;
  console.log(`${txns} transactions, ${mb.toFixed(1)} MB of EDN`);
  const time = (what: string, run: () => void): void => {
    const t0 = performance.now();
    run();
    const s = (performance.now() - t0) / 1000;
    console.log(`  ${what.padEnd(40)} ${s.toFixed(2)} s  (${(mb / s).toFixed(1)} MB/s)`);
  };
  time('readJepsenEdn (bytes → typed arrays)', () => void readJepsenEdn(bytes));
  const parse = await loadEdnData();
  if (!parse) {
    console.log('  edn-data is not installed: npm install --no-save edn-data@1.2.2');
    return;
  }
  time('edn-data parseEDNString (one per line)', () => {
    for (const line of text.split('\n')) if (line.length > 0) parse(line, { mapAs: 'object', keywordAs: 'string', listAs: 'array' });
  });
}

void main();
