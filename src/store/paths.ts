import { join } from 'node:path';
import { digest } from '../core/digest.ts';

// Payload strings (session ids, agent ids) never become paths as they are: a session id of
// "../../etc/passwd" must land inside STALLGUARD_HOME like any other.

/** A file name made only of [A-Za-z0-9_-]; anything else, or anything long, gets a digest suffix. */
export function safeName(id: string): string {
  const clean = id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  if (clean === id && clean.length > 0) return clean;
  return `${clean || 'x'}-${digest(id).slice(0, 12)}`;
}

export const SESSIONS_DIR = 'sessions';
export const ERROR_LOG = 'errors.log';

export function sessionFile(home: string, sessionId: string): string {
  return join(home, SESSIONS_DIR, safeName(sessionId) + '.jsonl');
}
