import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileLines } from '../readers/lines.ts';
import { appendLine } from './session-log.ts';
import { isVerdict, type Verdict } from '../review/verdict.ts';

// STALLGUARD_HOME/verdicts.jsonl: one line per verdict given in `stallguard review`, appended (0600). A
// later line for the same stall replaces an earlier one, so changing one's mind is one more line.

const VERDICTS = 'verdicts.jsonl';

export function verdictsFile(home: string): string {
  return join(home, VERDICTS);
}

export interface ReadVerdicts {
  /** The latest verdict per stall id, in the order first given. */
  verdicts: Map<string, Verdict>;
  unreadableLines: number;
}

export function readVerdicts(home: string): ReadVerdicts {
  const verdicts = new Map<string, Verdict>();
  let unreadableLines = 0;
  let lines: Iterable<string>;
  try {
    statSync(verdictsFile(home));
    lines = fileLines(verdictsFile(home));
  } catch {
    return { verdicts, unreadableLines };
  }
  for (const line of lines) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      unreadableLines++;
      continue;
    }
    if (isVerdict(v)) verdicts.set(v.id, v);
    else unreadableLines++;
  }
  return { verdicts, unreadableLines };
}

export function appendVerdict(home: string, verdict: Verdict): void {
  const file = verdictsFile(home);
  appendLine(file, verdict);
  // made by hand or copied in with looser permissions: the verdicts are as private as the ledger
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}
