import type { Config } from '../types.ts';
import { sessionsUnder, sizeOf } from './discover.ts';
import { fileMeter, type MeteredFile, scanSession, type SessionScan, sessionOf } from './scan-session.ts';
import { playTape } from './tape.ts';
import { type TapedFile, tapedInOrder } from './threads.ts';
import { addSession, newTotals, type ScanTotals } from './totals.ts';

export interface ScanHooks {
  onSession?(session: SessionScan): void;
  /** The files are listed first, so a progress bar knows the total. */
  onStart?(bytes: number, sessions: number): void;
  onBytes?(bytes: number): void;
  onFile?(): void;
}

/**
 * Scans the sessions under each root, in order: memory stays flat whatever the history's size. With more
 * than one thread, the files are read and replayed in worker threads and metered here, in the same order,
 * so that the result is the same: a response copied into a resumed or forked session is counted once,
 * where it first came, across all files.
 */
export async function scanRoots(
  roots: string[],
  config: Config,
  hooks: ScanHooks = {},
  threads = 1,
): Promise<ScanTotals> {
  const sessions = roots.flatMap((r) => [...sessionsUnder(r)]);
  hooks.onStart?.(
    sessions.reduce((sum, s) => sum + sizeOf(s), 0),
    sessions.length,
  );
  const totals = newTotals();
  // responses already counted, across files: a resumed or forked session repeats earlier messages
  const seen = new Map<string, number>();
  const add = (scanned: SessionScan | undefined) => {
    hooks.onFile?.();
    if (!scanned) {
      totals.unreadableFiles++;
      return;
    }
    addSession(totals, scanned);
    hooks.onSession?.(scanned);
  };
  const files = sessions.flatMap((s) => [s.main, ...s.subagents]);
  if (threads <= 1 || files.length <= 1) {
    for (const s of sessions) {
      add(scanSession(s, config, seen, hooks.onBytes));
      // let the output's events in between sessions (a closed pipe ends the scan there, not at its end)
      await new Promise((resolve) => setImmediate(resolve));
    }
    return totals;
  }
  const taped = tapedInOrder(files, config, Math.min(threads, files.length), hooks.onBytes);
  try {
    for (const s of sessions) {
      const read = new Map<string, TapedFile | undefined>();
      for (const file of [s.main, ...s.subagents]) read.set(file, (await taped.next()).value as TapedFile | undefined);
      add(
        sessionOf(s, (file): MeteredFile | undefined => {
          const t = read.get(file);
          if (!t) return undefined;
          const meter = fileMeter(config, seen);
          playTape(t.ops, meter);
          return { ...t.facts, meter };
        }),
      );
    }
  } finally {
    // the threads end here, whether the scan ended or failed
    await taped.return(undefined);
  }
  return totals;
}
