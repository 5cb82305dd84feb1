// The graph webview's Content-Security-Policy, apart from the panel so a test can read it without VS Code.

/**
 * Nothing by default; the bundle's script only under this page's nonce; styles, fonts and images from the extension
 * (`cspSource`); no <base> to redirect relative URLs and no form to submit anywhere.
 */
export function graphCsp(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `img-src ${cspSource} data:`, `style-src ${cspSource}`, `font-src ${cspSource}`, `script-src 'nonce-${nonce}'`, `base-uri 'none'`, `form-action 'none'`].join('; ');
}
