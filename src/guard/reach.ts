import { posix } from 'node:path';
import type { GuardKind } from '../types.ts';
import { type GuardContext, nowOf } from './context.ts';
import { holdsStallguard } from './entries.ts';
import { anchors, forms, placeOf, under } from './paths.ts';

// Whether a change whose new text is not known (a shell command writing, moving or removing a path)
// reaches something of stallguard's: one of its own files, a settings file holding its entries, or a
// folder holding either.

export interface Found {
  kind: GuardKind;
  /** The protected file or folder, or the switch. */
  path: string;
  /** For an uninstall: the command, for the person to run themselves. */
  command?: string;
}

/**
 * Whether writing or removing this path changes something of stallguard's:
 * an own file, or a settings file that holds its entries now.
 */
export function fileFound(abs: string, ctx: GuardContext): Found | undefined {
  for (const p of forms(abs, ctx)) {
    const place = placeOf(p, ctx);
    if (place?.kind === 'own') return { kind: 'own', path: p };
    if (place?.kind === 'settings') {
      const now = nowOf(p, ctx);
      // something there that cannot be read may be anything
      if ('unreadable' in now || ('text' in now && holdsStallguard(now.text, place.format)))
        return { kind: 'entry', path: p };
    }
  }
  return undefined;
}

/** The path itself when it is stallguard's, or else the first protected place `reaches` lets through that is. */
function foundFrom(
  abs: string,
  ctx: GuardContext,
  cwd: string | undefined,
  reaches: (place: string, paths: string[]) => boolean,
): Found | undefined {
  const own = fileFound(abs, ctx);
  if (own) return own;
  // only a folder holds anything: a path that is not there, or a file, is answered by itself
  const now = nowOf(abs, ctx);
  if ('none' in now || 'text' in now) return undefined;
  const paths = forms(abs, ctx);
  for (const a of anchors(ctx, cwd)) {
    if (!reaches(a, paths)) continue;
    const found = fileFound(a, ctx);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether writing into this folder can reach something of stallguard's:
 * the folder is stallguard's, or holds a settings file with its entries.
 */
export function dirFound(abs: string, ctx: GuardContext, cwd = ctx.cwd): Found | undefined {
  return foundFrom(abs, ctx, cwd, (a, dirs) => dirs.includes(posix.dirname(a)) && placeOf(a, ctx)?.kind === 'settings');
}

/**
 * Whether removing or moving this path takes something of stallguard's with it
 * (`rm -rf ~`, `mv .claude x`); a place that is not there cannot be taken away.
 */
export function treeFound(abs: string, ctx: GuardContext, cwd = ctx.cwd): Found | undefined {
  return foundFrom(abs, ctx, cwd, (a, roots) => roots.some((r) => under(a, r)) && !('none' in nowOf(a, ctx)));
}
