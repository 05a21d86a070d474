import type { Config } from '../types.ts';
import { sessionsUnder, sizeOf } from './discover.ts';
import { scanSession, type SessionScan } from './scan-session.ts';
import { addSession, newTotals, type ScanTotals } from './totals.ts';

export interface ScanHooks {
  onSession?(session: SessionScan): void;
  /** The files are listed first, so a progress bar knows the total. */
  onStart?(bytes: number, sessions: number): void;
  onBytes?(bytes: number): void;
  onFile?(): void;
}

/** Scans the sessions under each root, one at a time: memory stays flat whatever the history's size. */
export function scanRoots(roots: string[], config: Config, hooks: ScanHooks = {}): ScanTotals {
  const sessions = roots.flatMap((r) => [...sessionsUnder(r)]);
  hooks.onStart?.(
    sessions.reduce((sum, s) => sum + sizeOf(s), 0),
    sessions.length,
  );
  const totals = newTotals();
  // responses already counted, across files: a resumed or forked session repeats earlier messages
  const seen = new Map<string, number>();
  for (const files of sessions) {
    const scanned = scanSession(files, config, seen, hooks.onBytes);
    hooks.onFile?.();
    if (!scanned) {
      totals.unreadableFiles++;
      continue;
    }
    addSession(totals, scanned);
    hooks.onSession?.(scanned);
  }
  return totals;
}
