// Standard output with backpressure (files go through io/atomic-write.ts, shared with the harness).

import { writeFileAtomic } from '../io/atomic-write.ts';
import type { Io } from './check-command.ts';

/**
 * Writes the chunks to standard output, waiting for 'drain' when the pipe is full; stops
 * quietly when the reader has gone (`| head`). Returns false in that case.
 */
export async function pipeToStdout(chunks: Iterable<string>): Promise<boolean> {
  const out = process.stdout;
  let gone = false;
  const onError = (): void => {
    gone = true;
  };
  out.on('error', onError);
  try {
    let n = 0;
    for (const chunk of chunks) {
      if (gone || out.destroyed) return false;
      if (!out.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            out.off('drain', done);
            out.off('close', done);
            out.off('error', done);
            resolve();
          };
          out.on('drain', done);
          out.on('close', done);
          out.on('error', done);
        });
      } else if (++n % 16 === 0) {
        // Writes to a pipe may complete synchronously: let a pending EPIPE surface now and then.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return !gone;
  } finally {
    out.off('error', onError);
  }
}

/**
 * A command's generated text to `-o FILE` (atomically: a temporary file beside it, renamed over it
 * at the end) or, without one or with `-`, to standard output (backpressured; a reader that stops
 * early, `| head`, ends it quietly). 0 written, 2 when the file cannot be written (said on stderr).
 */
export async function emitOutput(output: string | undefined, chunks: Iterable<string>, io: Io): Promise<number> {
  if (output !== undefined && output !== '-') {
    const written = writeFileAtomic(output, chunks);
    if (!written.ok) {
      io.err(`isocheck: ${written.message}`);
      return 2;
    }
    return 0;
  }
  await pipeToStdout(chunks);
  return 0;
}
