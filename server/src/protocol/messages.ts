// Every custom LSP message between the IsoCheck client and server, declared once and typed (vscode-eslint style).
/* eslint-disable @typescript-eslint/no-namespace -- one namespace per message (method + type) is the convention LSP clients share. */

import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { FileReport } from '../engine/report.ts';
import type { AnalysisParams, AnalysisResult, ReportParams, StatusParams, WitnessExportAnswer, WitnessExportParams } from './shapes.ts';

/** server → client: a document's verdict summary, for the status bar; sent when a check starts and ends. */
export namespace StatusNotification {
  export const method = 'isocheck/status';
  export const type = new NotificationType<StatusParams>(method);
}

/** client → server: the latest analysis of an open document as plain JSON (the graph view); null when none yet. */
export namespace AnalysisRequest {
  export const method = 'isocheck/analysis';
  export const type = new RequestType<AnalysisParams, AnalysisResult | null, void>(method);
}

/** server → client: a document has a new analysis (fetch it with AnalysisRequest to refresh a graph). */
export namespace AnalysisChangedNotification {
  export const method = 'isocheck/analysisChanged';
  export const type = new NotificationType<{ uri: string; version: number }>(method);
}

/**
 * client → server: an open document's verdicts, witnesses, diagnostics and expectations as
 * `isocheck check --json` writes them for one file (engine report.ts); null before the first analysis.
 */
export namespace ReportRequest {
  export const method = 'isocheck/report';
  export const type = new RequestType<ReportParams, FileReport | null, void>(method);
}

/** client → server: one level's witness of an open document as JSON, DOT, SVG or a minimised .hist (the graph's export). */
export namespace WitnessExportRequest {
  export const method = 'isocheck/exportWitness';
  export const type = new RequestType<WitnessExportParams, WitnessExportAnswer, void>(method);
}
