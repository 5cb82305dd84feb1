// Progress of `isocheck check` on a terminal's standard error: the file, the level being decided, a strong-level search against its time budget.

import type { SingleBar as Bar } from 'cli-progress';
import { terminalSafe } from './terminal-text.ts';
import { isWeakLevel, parseLevel } from '../engine/levels/levels.ts';

export interface Progress {
  /** A file is being read (`index` of `count` files). */
  file(name: string, index: number, count: number): void;
  /** It was read (`bytes` long) and is being parsed; its strong-level searches may take `strongMillis` each, or all together when `shared`. */
  read(bytes: number, strongMillis: number, shared?: boolean): void;
  /** For AnalyzeOptions.onProgress: the verdict of `stage` (a level) is being computed, `done` of `total` levels are. */
  stage: (stage: string, done: number, total: number) => void;
  /** For AnalyzeOptions.stop, polled by the strong-level searches (and the weak checks, not shown): shows the time spent against the budget; never stops. */
  poll: () => boolean;
  /** The file is done. */
  fileDone(): void;
  /** Clears the bar; call before anything else is written. */
  end(): void;
}

const SILENT: Progress = { file() {}, read() {}, stage() {}, poll: () => false, fileDone() {}, end() {} };

/** `enabled` only when standard error is a terminal and --quiet was not given: pipes and logs stay clean. */
export function createProgress(enabled: boolean): Progress {
  if (!enabled) return SILENT;
  // Loaded only when a bar is shown: the library and its terminal modules cost ~25 ms of every
  // `isocheck check` start otherwise (measured with --cpu-prof), the time a small file takes.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SingleBar } = require('cli-progress') as { SingleBar: typeof Bar };
  const bar = new SingleBar({
    stream: process.stderr,
    format: 'isocheck {file} [{bar}] {value}/{total} levels · {stage}',
    barsize: 20,
    clearOnComplete: true,
    hideCursor: true,
    linewrap: false,
    fps: 5,
  });
  let running = false;
  let stage = '';
  let stageStart = 0;
  /** Whether the current stage's search was shown yet: the first poll is drawn at once, later ones as the bar's frame rate allows. */
  let searchShown = false;
  let budget = '';
  /** With a budget shared by the strong levels: when the file's first strong search started (0: none yet). */
  let shared = false;
  let sharedStart = 0;
  let label = '';
  /** Whether the stage is a strong level's search: reading and the RC/RA/CC checks poll too (to stop a cancelled editor's analysis), with no budget to show. */
  let searching = false;
  return {
    file(name, index, count) {
      // The name comes from the command line or a directory listing: escaped like every terminal text.
      label = `${count > 1 ? `[${index + 1}/${count}] ` : ''}${terminalSafe(name)}`;
      const file = label;
      stage = 'reading';
      searching = false;
      // A new file and a new level are drawn at once (a few lines per file); the rest is throttled.
      if (running) {
        bar.update(0, { file, stage });
        bar.render();
      } else bar.start(7, 0, { file, stage });
      running = true;
    },
    read(bytes, strongMillis, sharedBudget = false) {
      budget = `${(strongMillis / 1000).toFixed(1)} s`;
      shared = sharedBudget;
      sharedStart = 0;
      stage = 'parsing';
      searching = false;
      bar.update({ file: `${label} (${megabytes(bytes)})`, stage });
      bar.render();
    },
    stage(name, done, total) {
      stage = name;
      const level = parseLevel(name);
      searching = level === null || !isWeakLevel(level); // a strong level, or the mixed verdict
      stageStart = Date.now();
      searchShown = false;
      bar.setTotal(total);
      bar.update(done, { stage: name });
      bar.render();
    },
    poll() {
      if (!searching) return false;
      if (shared && sharedStart === 0) sharedStart = stageStart;
      const seconds = ((Date.now() - (shared ? sharedStart : stageStart)) / 1000).toFixed(1);
      bar.update({ stage: `${stage}: searching, ${seconds} s of ${shared ? `the strong levels' shared ${budget}` : `its ${budget}`} budget` });
      if (!searchShown) bar.render();
      searchShown = true;
      return false;
    },
    fileDone() {
      bar.update(bar.getTotal(), { stage: 'done' });
    },
    end() {
      if (running) bar.stop();
      running = false;
    },
  };
}

function megabytes(bytes: number): string {
  return bytes < 1e6 ? `${Math.max(1, Math.round(bytes / 1e3))} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
}
