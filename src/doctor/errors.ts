import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_LOG } from '../store/paths.ts';
import { type Check, ok, warn } from './check.ts';

// The hook fails open and writes what went wrong to errors.log: the place a person looks last.

const RECENT_MS = 24 * 3600 * 1000;

export function checkErrors(home: string, now = Date.now()): Check[] {
  let text: string;
  try {
    text = readFileSync(join(home, ERROR_LOG), 'utf8');
  } catch {
    return [ok('errors', 'no errors recorded')];
  }
  const recent = text.split('\n').filter((l) => {
    const t = Date.parse(l.slice(0, l.indexOf(' ')));
    return Number.isFinite(t) && now - t < RECENT_MS;
  });
  if (recent.length === 0) return [ok('errors', 'no errors in the last 24 hours')];
  const last = recent
    .slice(-3)
    .map((l) => `\n    ${l}`)
    .join('');
  return [
    warn(
      'errors',
      `${recent.length} error${recent.length === 1 ? '' : 's'} in the ` +
        `last 24 hours in ${join(home, ERROR_LOG)}; the latest:${last}`,
      'each was allowed through; fix what they name, then the log can be deleted',
    ),
  ];
}
