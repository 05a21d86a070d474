import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Decision } from '../types.ts';
import { isSessionName, sessionLog, sessionMtime } from './segments.ts';
import { SESSIONS_DIR } from './paths.ts';

// The ledger read back for people: what each session did and what stallguard decided about it.

export interface SessionSummary {
  id: string;
  file: string;
  agent?: string;
  cwd?: string;
  calls: number;
  stalls: number;
  refusals: number;
  decisions: { time?: number; mode: string; decision: Decision }[];
  lastActivity: number;
  unreadableLines: number;
}

export function sessionFiles(home: string): string[] {
  const dir = join(home, SESSIONS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter(isSessionName).map((n) => join(dir, n));
}

export function summarizeSession(file: string): SessionSummary {
  const s: SessionSummary = {
    id: '',
    file,
    calls: 0,
    stalls: 0,
    refusals: 0,
    decisions: [],
    lastActivity: sessionMtime(file),
    unreadableLines: 0,
  };
  for (const line of sessionLog(file)) {
    if (!line) {
      s.unreadableLines++;
      continue;
    }
    if (line.t === 'm') {
      s.id = line.session;
      if (line.agent) s.agent = line.agent;
      if (line.cwd) s.cwd = line.cwd;
    } else if (line.t === 'o' && line.o?.step?.k === 'call') s.calls++;
    else if (line.t === 'd' && line.d) {
      s.decisions.push({ ...(line.time ? { time: line.time } : {}), mode: line.mode, decision: line.d });
      if (line.d.code === 'STALL' || line.d.code === 'STALL_AGAIN') s.stalls++;
      if (line.d.code === 'SPAWN_REFUSED' || line.d.code === 'SPAWN_STOP') s.refusals++;
    }
  }
  if (!s.id) s.id = file.replace(/^.*\//, '').replace(/\.jsonl$/, '');
  return s;
}
