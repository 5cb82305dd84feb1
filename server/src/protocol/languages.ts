// The editor language ids IsoCheck serves (one per reader with its own file ending), shared by the client and the server.

/** VS Code language ids whose documents the server analyses, each with the reader of the same name. */
export const HISTORY_LANGUAGES = ['hist', 'plume', 'dbcop'] as const;

/**
 * Files of other languages offered to the server too, whatever language the editor gives them: it
 * reads those whose content looks like a history of a reader claiming their ending (`.txt`: plume,
 * dbcop or AWDIT test; `.edn`: Jepsen EDN; `.jsonl` and `.json`: Jepsen JSON lines or dbcop JSON).
 */
export const TEXT_HISTORY_PATTERN = '**/*.{txt,edn,jsonl,json}';

export function isHistoryLanguage(languageId: string): boolean {
  return (HISTORY_LANGUAGES as readonly string[]).includes(languageId);
}
