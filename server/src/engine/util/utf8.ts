// UTF-8 bytes to a string without platform APIs (the engine runs in browsers and Node alike): for short tokens.

/** Decodes bytes[start, end); malformed sequences become U+FFFD. */
export function utf8(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let i = start;
  while (i < end) {
    const c = bytes[i];
    let cp = 0xfffd;
    let len = 1;
    if (c < 0x80) cp = c;
    else if (c >= 0xc2 && c < 0xe0 && i + 1 < end) {
      cp = ((c & 0x1f) << 6) | (bytes[i + 1] & 0x3f);
      len = 2;
    } else if (c >= 0xe0 && c < 0xf0 && i + 2 < end) {
      cp = ((c & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
      len = 3;
    } else if (c >= 0xf0 && c < 0xf5 && i + 3 < end) {
      cp = ((c & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f);
      len = 4;
    }
    out += String.fromCodePoint(cp);
    i += len;
  }
  return out;
}
