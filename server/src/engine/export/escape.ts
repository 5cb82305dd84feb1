// Escaping for the text formats the graph is exported to (XML/SVG/HTML, Graphviz DOT).

/** Characters XML 1.0 does not allow at all (control characters, lone surrogates, U+FFFE/F). */
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for XML/SVG/HTML content and attribute values: every markup character escaped. */
export function xmlEscape(s: string): string {
  return s.replace(XML_INVALID, '\uFFFD').replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/**
 * A DOT double-quoted string: `"` and `\` escaped, line breaks as `\n`. Other characters stay
 * exact (a name's control characters too: the CLI escapes them when it prints to a terminal).
 */
export function dotString(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\r?\n|\r/g, '\\n')}"`;
}
