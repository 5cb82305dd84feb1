// UTF-8 bytes to a string without platform APIs (the engine runs in browsers and Node alike): for short tokens.

/**
 * Decodes bytes[start, end) as TextDecoder does: each malformed sequence (its longest valid start) becomes one
 * U+FFFD. Overlong forms, surrogates and code points past U+10FFFF are malformed: they must not reach
 * String.fromCodePoint, which throws a RangeError on the last (a binary file dropped as .edn stopped the reader).
 */
export function utf8(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let i = start;
  while (i < end) {
    const c = bytes[i];
    if (c < 0x80) {
      out += String.fromCharCode(c);
      i++;
      continue;
    }
    // Continuation bytes needed, and the bounds of the first one (they rule out the malformed forms).
    let need = 0;
    let cp = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      cp = c & 0x0f;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      cp = c & 0x07;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else {
      out += '\ufffd';
      i++;
      continue;
    }
    let j = i + 1;
    let got = 0;
    while (got < need && j < end && bytes[j] >= lo && bytes[j] <= hi) {
      cp = (cp << 6) | (bytes[j] & 0x3f);
      lo = 0x80;
      hi = 0xbf;
      got++;
      j++;
    }
    out += got === need ? String.fromCodePoint(cp) : '\ufffd';
    i = j;
  }
  return out;
}
