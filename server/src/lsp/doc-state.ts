// Everything the server keeps about one open document, in one object that is dropped whole on close.

import type { IsoCheckSettings } from '../protocol/shapes.ts';
import type { DocModel } from './doc-model.ts';

/** An analysis in a worker: its job id, and the version, settings and text it analyses. */
export interface Running {
  id: number;
  version: number;
  key: string;
  text: string;
}

export class DocState {
  /** The latest analysis (possibly of an older version), or null before the first one. */
  model: DocModel | null = null;
  /** The analysis in progress, if any. */
  running: Running | null = null;
  /** The document's `isocheck` settings, asked of the client once (until configuration changes). */
  settings: Promise<IsoCheckSettings> | null = null;
  /** Until the content-change event that the open itself fires has been seen (not told apart by version: a client may reuse it). */
  opening = true;

  /**
   * format: the reader that reads the document, null when IsoCheck leaves it alone (a plain
   * `.txt` that does not look like a history); chosen again on every change, as for a fresh open.
   */
  constructor(readonly uri: string, public format: string | null) {}
}

/** The open documents' states by URI. */
export class DocStates {
  private readonly byUri = new Map<string, DocState>();

  open(uri: string, format: string | null): DocState {
    const s = new DocState(uri, format);
    this.byUri.set(uri, s);
    return s;
  }

  get(uri: string): DocState | undefined {
    return this.byUri.get(uri);
  }

  /** Forgets a document; returns its state so that its running analysis can be cancelled. */
  close(uri: string): DocState | undefined {
    const s = this.byUri.get(uri);
    this.byUri.delete(uri);
    return s;
  }

  all(): IterableIterator<DocState> {
    return this.byUri.values();
  }

  /** Settings changed: every document asks again. */
  forgetSettings(): void {
    for (const s of this.byUri.values()) s.settings = null;
  }
}
