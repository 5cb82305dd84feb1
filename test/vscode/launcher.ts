// Stands in for the VS Code executable that @vscode/test-electron's runTests starts: code-server + headless Chromium.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { launchChromium, enableSmokeTestDriver } from './browser.ts';
import { startCodeServer } from './code-server.ts';
import { RESULTS } from './paths.ts';

const TIMEOUT_MS = 5 * 60_000;

interface LaunchArgs {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  userDataDir: string;
  folder: string;
}

/** runTests passes VS Code's own flags (`--name=value`) plus our launchArgs (the folder); the rest is for Electron. */
function parseArgs(argv: string[]): LaunchArgs {
  const flag = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const folder = argv.find((a) => !a.startsWith('--'));
  const extensionDevelopmentPath = flag('extensionDevelopmentPath');
  const extensionTestsPath = flag('extensionTestsPath');
  const userDataDir = flag('user-data-dir');
  if (!extensionDevelopmentPath || !extensionTestsPath || !userDataDir || !folder) throw new Error(`launcher: missing arguments in ${argv.join(' ')}`);
  return { extensionDevelopmentPath: resolve(extensionDevelopmentPath), extensionTestsPath: resolve(extensionTestsPath), userDataDir: resolve(userDataDir), folder: resolve(folder) };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  mkdirSync(RESULTS, { recursive: true });
  const server = await startCodeServer({ dir: dirname(args.userDataDir) });
  const browser = await launchChromium();
  const pageLog: string[] = [];
  const vscodeLog: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await enableSmokeTestDriver(page);
    page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
    const exit = new Promise<number>((done) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => done(code));
    });
    // runTests copies our stdout into the test runner's; VS Code's own chatter goes to a log file instead.
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => vscodeLog.push(`[${type}] ${args.map(String).join(' ')}`));
    const remote = (path: string): string => `vscode-remote://${server.authority}${path}`;
    const payload = [['extensionDevelopmentPath', remote(args.extensionDevelopmentPath)], ['extensionTestsPath', remote(args.extensionTestsPath)], ['skipWelcome', 'true']];
    await page.goto(`${server.url}/?folder=${encodeURIComponent(args.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    const timeout = new Promise<number>((done) => setTimeout(() => done(-1), TIMEOUT_MS).unref());
    const code = await Promise.race([exit, timeout]);
    if (code !== 0) await page.screenshot({ path: join(RESULTS, 'extension-tests-end.png') }).catch(() => undefined);
    if (code === -1) console.error(`launcher: the extension tests did not finish within ${TIMEOUT_MS / 1000} s`);
    return code === -1 ? 1 : code;
  } finally {
    writeFileSync(join(RESULTS, 'extension-tests-browser.log'), pageLog.join('\n'));
    writeFileSync(join(RESULTS, 'extension-tests-vscode.log'), vscodeLog.join('\n'));
    writeFileSync(join(RESULTS, 'extension-tests-code-server.log'), server.log.join(''));
    await browser.close();
    await server.stop();
  }
}

main().then((code) => process.exit(code), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
