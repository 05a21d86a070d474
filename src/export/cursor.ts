import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { digest } from '../core/digest.ts';

// What was already shipped to an OTLP endpoint: per session, how many of its interventions. Each export
// sends only what came after, so a collector's counters add up however often `export` runs.

export interface Cursor {
  file: string;
  sent: Record<string, number>;
}

export function loadCursor(home: string, endpoint: string): Cursor {
  const file = join(home, 'export', `otlp-${digest(endpoint).slice(0, 16)}.json`);
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { sent?: unknown };
    if (v && typeof v.sent === 'object' && v.sent) return { file, sent: v.sent as Record<string, number> };
  } catch {
    /* first export to this endpoint, or an unreadable cursor: everything is new */
  }
  return { file, sent: {} };
}

/** Writes the cursor whole, through a temporary file, so a crash never leaves half of it. */
export function saveCursor(c: Cursor, endpoint: string): void {
  mkdirSync(join(c.file, '..'), { recursive: true, mode: 0o700 });
  const tmp = `${c.file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ endpoint, sent: c.sent }) + '\n', { mode: 0o600 });
  renameSync(tmp, c.file);
}
