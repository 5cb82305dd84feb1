// Which reader reads an open document: its language id, or for plain `.txt` files what the content looks like.

import { readerForFile } from '../engine/readers/registry.ts';
import { isHistoryLanguage } from '../protocol/languages.ts';

/** A reader's name, or null when the document is no history IsoCheck reads (a .txt of prose). */
export function formatOfDocument(uri: string, languageId: string, text: string): string | null {
  if (isHistoryLanguage(languageId)) return languageId;
  let path = uri.split(/[?#]/)[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape: match the raw text
  }
  const head = text.slice(0, 4096);
  const reader = readerForFile(path, head);
  return reader?.sniff?.(head) ? reader.name : null;
}
