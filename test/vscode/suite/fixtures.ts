// The example the extension tests use and where things are in it (0-based lines/characters, as in the CLI's JSON).

import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { fracturedRead, type Span } from './locate.ts';

export const EXTENSION_ID = 'isocheck.isocheck';

export function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the tests need a workspace folder (the examples copy)');
  return vscode.Uri.joinPath(folder.uri, name);
}

const toRange = (s: Span): vscode.Range => new vscode.Range(s.line, s.start, s.line, s.end);

function fractured() {
  const spans = fracturedRead(readFileSync(workspaceFile('fractured-read.hist').fsPath, 'utf8'));
  return {
    file: 'fractured-read.hist',
    /** The same history with its `expect` lines commented out, so the claimed level's violation is an error. */
    claimedFile: 'fractured-read-claimed.hist',
    /** `r(y, init)` in T2: the read whose RA axiom forces T1 →co init (the witness range of the CLI). */
    readYInit: toRange(spans.readYInit),
    /** Inside `r(x, 1)`, the read of T1's write of x. */
    readX1: new vscode.Position(spans.readX1.line, spans.readX1.start + 2),
    /** `w(x, 1)` in T1. */
    writeX1: toRange(spans.writeX1),
  };
}

export const FRACTURED = fractured();

/** test/fixtures/elle/la-g-single.edn: a Jepsen list-append history whose G-single violates PSI (an .edn file: language clojure, not hist). */
export const G_SINGLE_EDN = `{:index 0, :process 0, :type :invoke, :f :txn, :value [[:append :x 1] [:append :y 1]]}
{:index 1, :process 1, :type :invoke, :f :txn, :value [[:append :x 2] [:r :y nil]]}
{:index 2, :process 2, :type :invoke, :f :txn, :value [[:r :x nil]]}
{:index 3, :process 0, :type :ok, :f :txn, :value [[:append :x 1] [:append :y 1]]}
{:index 4, :process 1, :type :ok, :f :txn, :value [[:append :x 2] [:r :y nil]]}
{:index 5, :process 2, :type :ok, :f :txn, :value [[:r :x [1 2]]]}
`;
