// `isocheck convert FILE [--format F] [-o OUT.hist]`: any input (Jepsen EDN, JSON lines, plume, .hist) as a .hist file.

import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { writeHistoryAsHist } from '../engine/export/convert-hist.ts';
import type { Finding } from '../engine/model/diagnostics.ts';
import type { History } from '../engine/model/history.ts';
import { readJepsenEdn } from '../engine/readers/edn-reader.ts';
import { readJepsenJson } from '../engine/readers/json-events-reader.ts';
import { readPlume } from '../engine/readers/plume-reader.ts';
import { parseHist } from '../engine/syntax/hist-parser.ts';
import type { LineIndex } from '../engine/syntax/line-index.ts';
import { LineIndex as Lines } from '../engine/syntax/line-index.ts';
import { lastValue, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';
import { formatOf, INPUT_FORMATS, type InputFormat } from './inputs.ts';

export const CONVERT_USAGE = 'usage: isocheck convert FILE [--format hist|plume|edn|json] [-o OUT.hist]';

export function runConvert(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--format', '-o', '--output'], []);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.positional.length !== 1) return usage(io, 'give exactly one input file');
  const file = args.positional[0];
  const forced = lastValue(args, '--format');
  if (forced !== undefined && !(INPUT_FORMATS as readonly string[]).includes(forced)) return usage(io, `unknown format '${forced}' (${INPUT_FORMATS.join(', ')})`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    io.err(`isocheck: cannot read ${file}: ${(e as Error).message}`);
    return 2;
  }
  const fmt = formatOf(file, forced as InputFormat | undefined);
  let read: { history: History; findings: Finding[]; lines: LineIndex };
  if (fmt === 'edn') read = readJepsenEdn(bytes);
  else if (fmt === 'json') read = readJepsenJson(bytes.toString('utf8'));
  else if (fmt === 'plume') read = readPlume(bytes);
  else {
    const text = bytes.toString('utf8');
    const p = parseHist(text);
    read = { history: p.history, findings: p.findings, lines: Lines.ofText(text) };
  }
  const problems = read.findings.filter((f) => f.severity === 'error');
  for (const f of problems.slice(0, 20)) {
    const at = read.lines.range(f.span.start, f.span.end).start;
    io.err(`${file}:${at.line + 1}:${at.character + 1}: ${f.message}`);
  }
  if (read.history.txnCount <= 1 && problems.length > 0) {
    io.err(`isocheck: nothing to convert in ${file}`);
    return 2;
  }
  const parts: string[] = [];
  writeHistoryAsHist(read.history, `converted from ${basename(file)}`, (c) => parts.push(c));
  const text = parts.join('');
  const output = lastValue(args, '-o', '--output');
  if (output === undefined) {
    io.out(text);
  } else {
    // Atomically: a temporary file beside the target, then a rename.
    const tmp = `${output}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, text);
      renameSync(tmp, output);
    } catch (e) {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing to clean up
      }
      io.err(`isocheck: cannot write ${output}: ${(e as Error).message}`);
      return 2;
    }
  }
  return problems.length > 0 ? 1 : 0;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck convert: ${message}\n${CONVERT_USAGE}`);
  return 2;
}
