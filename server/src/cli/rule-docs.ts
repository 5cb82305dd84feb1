// What each diagnostic code means, for SARIF rules: read from docs/anomalies.md (the one place it is written), with stable help links.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ANOMALIES } from '../engine/listappend/anomaly-table.ts';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../engine/model/diagnostics.ts';
import { docSection } from '../engine/model/doc-links.ts';

/**
 * A code's help link: `<docs>#<code in lower case>`. Each code has a section of docs/anomalies.md
 * headed by the code itself (`## rc`, `## thin-air`), so the anchor changes only if a code does.
 * `docs` is the page's address (`check --docs-url`) or, by default, the file beside the bundle.
 */
export function helpUri(docs: string, code: string): string {
  return `${docs}#${code.toLowerCase()}`;
}

export interface RuleDoc {
  code: string;
  /** The first sentence of the section's **Meaning.** paragraph (the code itself when the docs are missing). */
  short: string;
  /** The whole **Meaning.** paragraph as plain text. */
  full: string;
  /** Absent when there is no docs address to link to. */
  helpUri?: string;
}

export interface AnomaliesDoc {
  text: string;
  /** Its file: URI. */
  uri: string;
}

/**
 * The list-append codes are explained in docs/list-append.md (beside anomalies.md), the anomalies
 * by the anomaly table (whose meanings are the engine's own table), the rest in a section each.
 * Their sections are doc-links.ts's (listSection); SSER's is named here, as its own is in anomalies.md.
 */
const LIST_APPEND: Record<string, { meaning: string; section?: string }> = {
  SSER: { meaning: 'Strict serializability is violated: no commit order that also respects real time (the transactions\' @ START..END intervals) explains every read', section: 'levels-on-list-append-histories' },
  'append-order': { meaning: 'A read list holds a transaction\'s appends to a key out of their program order, or a later one without the earlier (no state of the list looks like that); a warning, as the commit-order axioms break no level there' },
  'mixed-key': { meaning: 'A key is used both as a register (w) and as a list (a): the first operation that mixes them is an error and is left out' },
  ...Object.fromEntries(ANOMALIES.map((a) => [a.code, { meaning: `List-append anomaly ${a.code}, ${a.meaning}` }])),
};

/** A list-append code's section of list-append.md: doc-links.ts's, else the anomaly table (a code anomalies.md explains too). */
function listSection(code: DiagnosticCode, list: { section?: string }): string {
  if (list.section !== undefined) return list.section;
  const s = docSection(code);
  return s.page === 'list-append.md' ? s.anchor : 'the-anomaly-table';
}

/** The rules of every diagnostic code, from docs/anomalies.md (null: not found); links into `docsUrl` (anomalies.md's address). */
export function ruleDocs(doc: AnomaliesDoc | null, docsUrl: string | null): RuleDoc[] {
  const meanings = doc === null ? new Map<string, string>() : meaningsOf(doc.text);
  return DIAGNOSTIC_CODES.map((code) => {
    const own = meanings.get(code.toLowerCase());
    const list = own === undefined ? LIST_APPEND[code] : undefined;
    const full = own ?? (list ? `${list.meaning}.` : `IsoCheck diagnostic ${code}.`);
    const rule: RuleDoc = { code, short: firstSentence(full), full };
    if (docsUrl !== null && own !== undefined) rule.helpUri = helpUri(docsUrl, code);
    else if (docsUrl !== null && list && URL.canParse('list-append.md', docsUrl)) rule.helpUri = new URL(`list-append.md#${listSection(code, list)}`, docsUrl).href;
    return rule;
  });
}

/** docs/anomalies.md beside the bundle (out/ → docs/) or the sources (server/src/cli → docs/). */
export function readAnomaliesDoc(): AnomaliesDoc | null {
  for (const p of [join(__dirname, '..', 'docs', 'anomalies.md'), join(__dirname, '..', '..', '..', 'docs', 'anomalies.md')]) {
    if (existsSync(p)) return { text: readFileSync(p, 'utf8'), uri: pathToFileURL(p).href };
  }
  return null;
}

/** Section heading (lower case) → its **Meaning.** text up to **Severity.**, markdown reduced to plain text. */
function meaningsOf(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  let heading: string | null = null;
  let lines: string[] | null = null;
  const flush = (): void => {
    if (heading !== null && lines !== null) out.set(heading, plain(lines));
    lines = null;
  };
  for (const line of markdown.split(/\r?\n/)) {
    const h = /^## (.+)$/.exec(line);
    if (h) {
      flush();
      heading = h[1].trim();
    } else if (line.startsWith('**Meaning.**')) {
      lines = [line.slice('**Meaning.**'.length)];
    } else if (lines !== null && (line.startsWith('**') || line.startsWith('```'))) {
      flush();
    } else if (lines !== null) {
      lines.push(line);
    }
  }
  flush();
  return out;
}

/** Paragraph lines joined, list items kept on their own lines, links, code and emphasis marks removed. */
function plain(lines: string[]): string {
  const text = lines
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n(?!- )/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]*)\*\*/g, '$1')
    .replace(/\*([^*]*)\*/g, '$1')
    .replace(/ {2,}/g, ' ');
  return text.trim();
}

/** Up to the first full stop or colon outside parentheses, as one sentence. */
function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if ((c === '.' || c === ':') && depth === 0 && (i + 1 === text.length || /\s/.test(text[i + 1]))) {
      return `${text.slice(0, i).replace(/\s+/g, ' ')}.`;
    }
  }
  return text;
}
