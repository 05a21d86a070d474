import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileLines } from '../readers/lines.ts';
import { appendLine } from './session-log.ts';
import type { SignalCode } from '../types.ts';
import type { CallRef } from '../core/call-ref.ts';

// STALLGUARD_HOME/verdicts.jsonl: one line per verdict given in `stallguard review`, appended (0600). A
// later line for the same stall replaces an earlier one, so changing one's mind is one more line.
//
// A verdict is a person's answer on one intervention: was stallguard right to step in there? It keeps what
// tune needs to find the stall again and weigh it, and what a person needs to recognise it: short forms
// (redacted, as in the ledger), signal values, counts. Never an output, a file's content or a message's text.

export type Answer = 'right' | 'wrong' | 'skip';
export const ANSWERS: readonly Answer[] = ['right', 'wrong', 'skip'];

export interface Verdict extends CallRef {
  v: 1;
  /** refId(session, ref): a later line with the same id replaces an earlier one. */
  id: string;
  session: string;
  verdict: Answer;
  /** When the verdict was given. */
  time: number;
  source: 'ledger' | 'scan';
  /** The ledger's session file, or the history file the stall is in. */
  file: string;
  agentName: string;
  cwd?: string;
  action: string;
  mode?: string;
  /** The signals that saw the loop, with their values when the intervention was made (the judge's score left out). */
  signals: { code: SignalCode; value: number }[];
  loop: string;
  /** The distinct calls of the loop, in short form: a pattern marked wrong is not a learning. */
  calls: string[];
  span: number;
  more: number;
}

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

/** Whether a line read back is a verdict this version understands. */
export function isVerdict(x: unknown): x is Verdict {
  const v = x as Verdict;
  return (
    !!v &&
    typeof v === 'object' &&
    v.v === 1 &&
    typeof v.id === 'string' &&
    typeof v.session === 'string' &&
    typeof v.agent === 'string' &&
    typeof v.call === 'string' &&
    Number.isInteger(v.nth) &&
    ANSWERS.includes(v.verdict) &&
    typeof v.file === 'string' &&
    Array.isArray(v.signals) &&
    Number.isInteger(v.span) &&
    Number.isInteger(v.more)
  );
}

/** The verdicts that say something (right or wrong): skips are only "not now". */
export function given(verdicts: Iterable<Verdict>): Verdict[] {
  return [...verdicts].filter((v) => v.verdict !== 'skip');
}
