// Text from a file shown on a terminal: control characters escaped, so a history cannot clear the screen or fake output.

/**
 * C0 controls (with newline and tab), DEL, C1 controls (0x9b is a one-byte CSI), the line and
 * paragraph separators, and the bidirectional overrides that reorder what a line seems to say.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_KEEP_NEWLINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw although a terminal acts on it. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Fields longer than this are cut on the terminal (a 5M-character key name would flood it); --json keeps them whole. */
export const MAX_FIELD_CHARS = 1000;

/** One field (a file name, a title, a message): every control character shown as \x1b, \u202e…, cut when very long. */
export function terminalSafe(text: string): string {
  const cut = text.length > MAX_FIELD_CHARS ? `${text.slice(0, MAX_FIELD_CHARS)}… (${text.length} characters)` : text;
  return cut.replace(UNSAFE, escape);
}

/** A whole message of several lines: the same, but its newlines stay. */
export function terminalSafeLines(text: string): string {
  return text.replace(UNSAFE_KEEP_NEWLINES, escape);
}

/** JSON text with the characters JSON.stringify leaves raw written as \uXXXX escapes (the same JSON value). */
export function jsonSafe(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
