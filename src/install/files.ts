import { existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Replaces a file's content in one rename, keeping its permissions, so a crash never leaves half a file.
 * Returns the folders it had to create for it, outermost first.
 */
export function writeTextAtomic(file: string, text: string): string[] {
  const first = mkdirSync(dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
  const tmp = `${file}.stallguard-${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, file);
  const created: string[] = [];
  if (first) for (let dir = dirname(file); dir.length >= first.length; dir = dirname(dir)) created.unshift(dir);
  return created;
}

/**
 * Removes the folders of `created` (outermost first) that are
 * empty now, innermost first; a folder with anything in it stays.
 */
export function removeEmptyFolders(created: readonly string[]): string[] {
  const removed: string[] = [];
  for (const dir of [...created].reverse()) {
    try {
      rmdirSync(dir);
      removed.push(dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      break; // not empty: neither it nor the folders around it are install's to take
    }
  }
  return removed;
}

/** A line diff for --dry-run: removed lines with "-", added lines with "+", a little context. */
export function lineDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const rows: [string, string][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) rows.push([' ', a[i++]!]), j++;
    else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) rows.push(['+', b[j++]!]);
    else rows.push(['-', a[i++]!]);
  }
  const keep = rows.map((_, k) => rows.slice(Math.max(0, k - 2), k + 3).some((r) => r[0] !== ' '));
  const out: string[] = [];
  rows.forEach((r, k) => {
    if (keep[k]) out.push(`${r[0]} ${r[1]}`);
    else if (keep[k - 1]) out.push('  …');
  });
  return out.join('\n');
}
