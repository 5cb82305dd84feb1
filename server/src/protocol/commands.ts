// Command ids the server puts into code lenses and the client registers.

/** Opens the graph view of a document; arguments: the document URI (string), optionally the level to show (a level lens). */
export const SHOW_GRAPH_COMMAND = 'isocheck.showGraph';

/** The configuration section the server reads (`isocheck.levels`, `isocheck.checkOn`, …). */
export const CONFIGURATION_SECTION = 'isocheck';

/** The `source` of every diagnostic the server publishes (the client keeps the workspace check's by it). */
export const DIAGNOSTIC_SOURCE = 'isocheck';
