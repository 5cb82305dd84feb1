// The editor language ids IsoCheck serves (one per reader with its own file ending), shared by the client and the server.

/** VS Code language ids whose documents the server analyses, each with the reader of the same name. */
export const HISTORY_LANGUAGES = ['hist', 'plume', 'dbcop'] as const;

/** Plain-text `.txt` files are offered to the server too: it reads those that look like plume, dbcop or AWDIT test histories. */
export const TEXT_HISTORY_PATTERN = '**/*.txt';

export function isHistoryLanguage(languageId: string): boolean {
  return (HISTORY_LANGUAGES as readonly string[]).includes(languageId);
}
