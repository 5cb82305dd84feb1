// The shapes of the requests' params the server reads, checked on arrival: a wrong one is answered InvalidParams (-32602), not logged as a crash.

/** Why `p` is not the params a request of this kind needs, or null when it is. */
export type ParamCheck = (p: unknown) => string | null;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isIndex = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;

function position(v: unknown, what: string): string | null {
  if (!isObject(v) || !isIndex(v.line) || !isIndex(v.character)) return `${what} must be { line, character } with non-negative integers`;
  return null;
}

function range(v: unknown, what: string): string | null {
  if (!isObject(v)) return `${what} must be { start, end }`;
  return position(v.start, `${what}.start`) ?? position(v.end, `${what}.end`);
}

/** TextDocumentIdentifier: `{ textDocument: { uri } }`. */
export const documentParams: ParamCheck = (p) => {
  if (!isObject(p)) return 'params must be an object';
  if (!isObject(p.textDocument) || typeof p.textDocument.uri !== 'string') return 'params.textDocument.uri must be a string';
  return null;
};

/** TextDocumentPositionParams (hover, definition). */
export const positionParams: ParamCheck = (p) => documentParams(p) ?? position((p as Record<string, unknown>).position, 'params.position');

export const referenceParams: ParamCheck = (p) => {
  const why = positionParams(p);
  if (why) return why;
  const c = (p as Record<string, unknown>).context;
  return isObject(c) && typeof c.includeDeclaration === 'boolean' ? null : 'params.context.includeDeclaration must be a boolean';
};

export const completionParams: ParamCheck = (p) => {
  const why = positionParams(p);
  if (why) return why;
  const c = (p as Record<string, unknown>).context;
  if (c === undefined) return null;
  if (!isObject(c)) return 'params.context must be an object';
  return c.triggerCharacter === undefined || typeof c.triggerCharacter === 'string' ? null : 'params.context.triggerCharacter must be a string';
};

export const codeActionParams: ParamCheck = (p) => {
  const why = documentParams(p) ?? range((p as Record<string, unknown>).range, 'params.range');
  if (why) return why;
  const c = (p as Record<string, unknown>).context;
  if (!isObject(c) || !Array.isArray(c.diagnostics)) return 'params.context.diagnostics must be an array';
  for (const [i, d] of c.diagnostics.entries()) {
    if (!isObject(d) || typeof d.message !== 'string') return `params.context.diagnostics[${i}] must be a diagnostic with a message`;
    const bad = range(d.range, `params.context.diagnostics[${i}].range`);
    if (bad) return bad;
  }
  return null;
};

/** isocheck/analysis: `{ uri, limit? }` (a limit that is no count means the default: custom-requests.ts edgeLimit). */
export const analysisParams: ParamCheck = (p) => (isObject(p) && typeof p.uri === 'string' ? null : 'params.uri must be a string');

/** isocheck/report: `{ uri, file }`. */
export const reportParams: ParamCheck = (p) => (isObject(p) && typeof p.uri === 'string' && typeof p.file === 'string' ? null : 'params must be { uri, file } with strings');

/** isocheck/exportWitness: `{ uri, … }` (a wrong level or format is answered as a failed export, which the client shows). */
export const exportParamsShape: ParamCheck = (p) => (isObject(p) && typeof p.uri === 'string' ? null : 'params.uri must be a string');
