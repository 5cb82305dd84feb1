// Reader for Jepsen histories as JSON lines: the same events as the EDN reader, one JSON object per line.

import { LineIndex } from '../syntax/line-index.ts';
import { Int32Vec } from '../util/int-vec.ts';
import type { JepsenFile } from './edn-reader.ts';
import { EV_FAIL, EV_INFO, EV_INVOKE, EV_OK, JepsenAssembler, looksListAppend, MOP_APPEND, MOP_READ, MOP_WRITE, type ScalarIds } from './jepsen-history.ts';

const TYPES: Record<string, number> = { invoke: EV_INVOKE, ok: EV_OK, fail: EV_FAIL, info: EV_INFO };
const MOPS: Record<string, number> = { append: MOP_APPEND, r: MOP_READ, w: MOP_WRITE };

/** `{"type": "ok", "f": "txn", "value": [["append", k, v], ["r", k, [..] | null], ["w", k, v]], "process": p, "time": t, "index": i}` per line. */
export function readJepsenJson(text: string): JepsenFile {
  const starts = new Int32Vec(1024);
  const asm = new JepsenAssembler((text.length / 30) | 0, looksListAppend(text));
  let pos = 0;
  let lineNo = 0;
  while (pos <= text.length) {
    starts.push(pos);
    lineNo++;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const line = text.slice(pos, nl).trim();
    const start = pos;
    pos = nl + 1;
    if (line.length === 0 || line === '[' || line === ']') continue;
    const json = line.endsWith(',') ? line.slice(0, -1) : line;
    try {
      event(asm, JSON.parse(json) as unknown, lineNo, start, nl);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      asm.problem(`malformed JSON event at line ${lineNo}: ${message}; the event is skipped`, start, Math.max(nl, start + 1));
    }
  }
  return { history: asm.finish(), findings: asm.findings, lines: LineIndex.ofLineStarts(starts.toArray()) };
}

function scalar(ids: ScalarIds, v: unknown): number {
  if (v === null) return -1;
  if (typeof v === 'number') return ids.num(v);
  if (typeof v === 'string') return ids.text(v);
  throw new Error(`expected a number or a string, found ${JSON.stringify(v)}`);
}

function event(asm: JepsenAssembler, e: unknown, lineNo: number, start: number, end: number): void {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) throw new Error('expected an object');
  const o = e as Record<string, unknown>;
  const type = typeof o.type === 'string' ? TYPES[o.type] : undefined;
  if (type === undefined) throw new Error(`unknown "type" ${JSON.stringify(o.type)} (expected invoke, ok, fail or info)`);
  if (o.f !== 'txn') return;
  if (typeof o.process !== 'number') return; // the nemesis
  if (!Number.isInteger(o.process) || o.process < 0) throw new Error('"process" must be a non-negative integer');
  if (!Array.isArray(o.value)) throw new Error('"value" must be the list of micro-ops');
  asm.resetScratch();
  for (const m of o.value as unknown[]) {
    if (!Array.isArray(m) || m.length !== 3 || typeof m[0] !== 'string' || MOPS[m[0]] === undefined) throw new Error(`expected a micro-op like ["append", k, v], found ${JSON.stringify(m)}`);
    const kind = MOPS[m[0]];
    const key = scalar(asm.keys, m[1]);
    if (key < 0) throw new Error('a micro-op on the key null');
    let value = -1;
    let listStart = -1;
    let listLen = 0;
    if (Array.isArray(m[2])) {
      if (kind !== MOP_READ) throw new Error(`"${m[0]}" takes a single value, found a list`);
      listStart = asm.mElems.length;
      for (const x of m[2] as unknown[]) {
        const id = scalar(asm.values, x);
        if (id < 0) throw new Error('null inside a read list');
        asm.mElems.push(id);
        listLen++;
      }
    } else {
      value = scalar(asm.values, m[2]);
      if (value < 0 && kind !== MOP_READ) throw new Error(`"${m[0]}" of null`);
    }
    asm.addMicroOp(kind, key, value, listStart, listLen, start, end);
  }
  const index = typeof o.index === 'number' ? o.index : lineNo;
  const time = typeof o.time === 'number' ? o.time : index;
  asm.event(type, o.process, time, index, start, end);
}
