import { basename } from 'node:path';
import type { Config } from '../types.ts';
import { historyRoots, type SessionFiles, sessionsUnder } from '../scan/discover.ts';
import { scanSession, type ScannedStall } from '../scan/scan-session.ts';

// The agent's own transcript of a session the ledger recorded, found by the session id in the agents'
// history folders (Claude Code: <session>.jsonl; Codex: rollout-<time>-<id>.jsonl; Gemini CLI:
// session-<time>-<first 8 characters of the id>.jsonl), and its stalls with their tokens.

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

function idsOf(file: string): string[] {
  const stem = basename(file).replace(/\.jsonl?$/, '');
  const ids = [stem];
  const uuid = UUID.exec(stem);
  if (uuid) ids.push(uuid[1]!);
  if (stem.startsWith('session-')) ids.push(stem.slice(-8));
  return ids;
}

export class Transcripts {
  private index: Map<string, SessionFiles> | undefined;

  constructor(
    private readonly config: Config,
    private readonly roots: () => string[] = () => historyRoots(),
  ) {}

  private find(session: string): SessionFiles | undefined {
    if (!this.index) {
      this.index = new Map();
      for (const root of this.roots())
        for (const files of sessionsUnder(root))
          for (const id of idsOf(files.main)) if (!this.index.has(id)) this.index.set(id, files);
    }
    return this.index.get(session) ?? this.index.get(session.slice(0, 8));
  }

  /**
   * The stalls of the session's transcript, replayed, with what they cost; undefined when it is not on this machine.
   */
  stalls(session: string): ScannedStall[] | undefined {
    const files = this.find(session);
    if (!files) return undefined;
    return scanSession(files, this.config, new Map())?.stalls;
  }
}
