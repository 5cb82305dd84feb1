// The playground's one size limit for the editor, shared by opened files and share links.

/** Files up to this many bytes go into the editor (larger ones are checked as a summary); share links inflate to at most this. */
export const EDITOR_MAX = 200_000;
