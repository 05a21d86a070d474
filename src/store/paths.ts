import { join } from 'node:path';
import { digest } from '../core/digest.ts';

// Payload strings (session ids, agent ids) never become paths as they are: a session id of
// "../../etc/passwd" must land inside STALLGUARD_HOME like any other.

/**
 * A file name made only of [A-Za-z0-9_-]. An id that is such a name already, short and in lower case, is
 * kept as it is; any other gets a digest suffix. Capitals too: on a case-insensitive filesystem (macOS,
 * Windows) "Ab" and "ab" would otherwise share a file.
 */
export function safeName(id: string): string {
  const clean = id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  if (clean === id && clean.length > 0 && !/[A-Z]/.test(id)) return clean;
  return `${clean || 'x'}-${digest(id).slice(0, 12)}`;
}

export const SESSIONS_DIR = 'sessions';
export const ERROR_LOG = 'errors.log';

export function sessionFile(home: string, sessionId: string): string {
  return join(home, SESSIONS_DIR, safeName(sessionId) + '.jsonl');
}
