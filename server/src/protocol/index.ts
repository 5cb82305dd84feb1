// The IsoCheck protocol: shapes, LSP messages, commands and webview messages in one import.

export * from './shapes.ts';
export * from './messages.ts';
export * from './commands.ts';
export * from './webview.ts';
export * from './languages.ts';
