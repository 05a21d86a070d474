import type { Config } from '../types.ts';
import { historyRuns, ledgerRuns } from './collect.ts';
import { type ReviewItem, reviewItems } from './items.ts';
import { replayRun } from './run.ts';

// Every intervention review can ask about: the ledger's (decided live, in shadow or enforce mode) and, when
// asked, those a replay of the agents' history makes under the settings in force. The same stall seen in
// both (a session stallguard watched live, and its transcript) is asked about once, as the ledger has it.

export interface Gathered {
  items: ReviewItem[];
  ledgerSessions: number;
  historySessions: number;
}

export function gatherItems(
  home: string,
  config: Config,
  history?: { roots: string[]; onBytes?: (n: number) => void; onSession?: () => void },
): Gathered {
  const items = new Map<string, ReviewItem>();
  const sessions = new Set<string>();
  let ledgerSessions = 0;
  for (const run of ledgerRuns(home)) {
    ledgerSessions++;
    sessions.add(run.session);
    for (const item of reviewItems(run, run.recorded ?? new Map())) if (!items.has(item.id)) items.set(item.id, item);
  }
  let historySessions = 0;
  if (history) {
    const counted = new Set<string>();
    for (const run of historyRuns(history.roots, history.onBytes, history.onSession)) {
      if (!counted.has(run.session)) historySessions++;
      counted.add(run.session);
      // watched live: the ledger says what was decided, and its verdicts are the ones kept
      if (sessions.has(run.session)) continue;
      for (const item of reviewItems(run, replayRun(run, config))) if (!items.has(item.id)) items.set(item.id, item);
    }
  }
  const list = [...items.values()].sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
  return { items: list, ledgerSessions, historySessions };
}
