// Starts code-server (VS Code 1.100 for the browser) on a free port with a private profile, and installs .vsix files.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_SERVER_ENTRY } from './paths.ts';

export interface CodeServer {
  url: string;
  /** host:port, the authority of vscode-remote:// URIs in the test payload. */
  authority: string;
  log: string[];
  stop(): Promise<void>;
}

export interface Profile {
  /** Holds user-data/, extensions/, config/ and data/ (XDG dirs, else code-server writes to the home folder). */
  dir: string;
  env?: Record<string, string>;
  /** User settings on top of the test defaults (e.g. a colour theme). */
  settings?: Record<string, unknown>;
}

/** Settings that keep the workbench quiet and deterministic for tests and screenshots. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'editor.hover.delay': 200,
  // code-server saves after a delay by default, which would hide the difference between checkOn change and save.
  'files.autoSave': 'off',
  'git.openRepositoryInParentFolders': 'never',
  'git.enabled': false,
};

function profileArgs(p: Profile): { args: string[]; env: NodeJS.ProcessEnv } {
  for (const d of ['user-data/User', 'extensions', 'config', 'data', 'tmp']) mkdirSync(join(p.dir, d), { recursive: true });
  writeUserSettings(p, p.settings);
  writeFileSync(join(p.dir, 'config.yaml'), 'auth: none\ncert: false\n');
  return {
    args: ['--config', join(p.dir, 'config.yaml'), '--user-data-dir', join(p.dir, 'user-data'), '--extensions-dir', join(p.dir, 'extensions')],
    env: {
      ...process.env, ...p.env,
      XDG_CONFIG_HOME: join(p.dir, 'config'), XDG_DATA_HOME: join(p.dir, 'data'), TMPDIR: join(p.dir, 'tmp'),
      // The tests' own runner env must not leak into the extension host's Node (it would load tsx there).
      NODE_OPTIONS: '',
    },
  };
}

/** Writes the profile's user settings (code-server reads them when it starts). */
export function writeUserSettings(p: Profile, settings: Record<string, unknown> = {}): void {
  p.settings = settings;
  mkdirSync(join(p.dir, 'user-data/User'), { recursive: true });
  writeFileSync(join(p.dir, 'user-data/User/settings.json'), JSON.stringify({ ...USER_SETTINGS, ...settings }, null, 2));
}

export function installExtension(p: Profile, vsix: string): string {
  const { args, env } = profileArgs(p);
  const r = spawnSync(process.execPath, [CODE_SERVER_ENTRY, ...args, '--install-extension', vsix, '--force'], { env, encoding: 'utf8', timeout: 120_000 });
  const out = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`code-server --install-extension failed (${r.status}):\n${out}`);
  return out;
}

export async function startCodeServer(p: Profile): Promise<CodeServer> {
  const { args, env } = profileArgs(p);
  const child = spawn(process.execPath, [
    CODE_SERVER_ENTRY, ...args, '--bind-addr', '127.0.0.1:0', '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
  ], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start in 60 s:\n${log.join('')}`)), 60_000);
    const onData = (d: Buffer): void => {
      log.push(d.toString());
      const m = /HTTP server listening on (http:\/\/[\d.]+:\d+)/.exec(log.join(''));
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`code-server exited (${code}):\n${log.join('')}`)); });
  });
  await waitHealthy(url);
  return { url, authority: new URL(url).host, log, stop: () => stop(child) };
}

async function waitHealthy(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server at ${url} never answered /healthz`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(kill); resolve(); });
    child.kill('SIGTERM');
  });
}
