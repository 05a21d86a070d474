import { anchorList, ownPlaces, placeOf, resolvePath } from './paths.ts';
import { fileFound, type Found, treeFound } from './reach.ts';
import { MENTION, type Scope } from './words.ts';
import { either, regex } from '../core/regex.ts';

// Code an interpreter runs (python -c, node -e, a here-document fed to perl) is not read as a program: it
// counts when it can write files and names something of stallguard's, or when it can remove or move
// folders and names one that holds something of stallguard's. Switching stallguard off counts anywhere.

/**
 * Assigning STALLGUARD_MODE/HOME in shell or code, or exporting, unsetting or persisting them. Reading them is fine.
 */
const ENV_SWITCH = either(
  'i',
  /(?:^|[^\w$])STALLGUARD_(?:MODE|HOME)['"\]]{0,3}\s{0,3}=(?!=)/,
  regex('', /\b(?:unset|export|setenv|setx|declare|typeset|readonly)\b/, /[^;&|\n]{0,200}\bSTALLGUARD_(?:MODE|HOME)\b/),
  /\blaunchctl\s+(?:un)?setenv\s+STALLGUARD_/,
);
/** Claude Code's switch for every hook, set to true (`claude config set disableAllHooks true`, a JSON edit). */
const HOOKS_OFF = /disableAllHooks['"]?\s{0,3}[:=,]?\s{0,3}['"]?true/i;

/** Calls in code that write, move or delete files, or run a command that might. */
const WRITE_API = either(
  '',
  /open\s*\([^)]{0,200}['"][wax+]|write|unlink|rename|remove|rmSync|rmdir|rmtree/,
  /truncate|copy|dump\s*\(|symlink|chmod|chown|move|replace\s*\(|system\s*\(|exec|spawn/,
  /popen|subprocess|child_process|`|>\s*\S|-i\b|sub\s*\(|inplace|File\.|IO\.|Path\(/,
);
/** Calls that remove or move whole folders, or run a command that might. */
const TREE_API =
  /rmtree|rmSync|rmdir|removedirs|rm_rf|remove_dir|rename|move|system\s*\(|exec|spawn|popen|subprocess|child_process|`/;

/**
 * STALLGUARD_MODE or STALLGUARD_HOME set, or hooks switched off,
 * anywhere in the text (the plain searches first: they are cheap).
 */
export function switchHit(text: string): Found | undefined {
  const env = /stallguard_/i.test(text) ? ENV_SWITCH.exec(text) : null;
  if (env) return { kind: 'switch', path: /HOME/i.test(env[0]) ? 'STALLGUARD_HOME' : 'STALLGUARD_MODE' };
  if (/disableallhooks/i.test(text) && HOOKS_OFF.test(text)) return { kind: 'switch', path: 'disableAllHooks' };
  return undefined;
}

/**
 * The folder and file names of a settings place, as code would
 * spell them apart: `Path.home() / '.claude' / 'settings.json'`.
 */
function spelledApart(place: string, code: string): boolean {
  const segs = place.split('/');
  const name = segs.at(-1)!;
  const folder = segs.at(-2) ?? '';
  return folder.startsWith('.') && code.includes(folder) && code.includes(name);
}

export function codeHit(code: string, s: Scope): Found | undefined {
  const off = switchHit(code);
  if (off) return off;
  if (!WRITE_API.test(code)) return undefined;
  const trees = TREE_API.test(code);
  for (const m of code.matchAll(MENTION)) {
    const abs = resolvePath(m[0], s.ctx, s.cwd, s.windows);
    const hit = trees ? treeFound(abs, s.ctx, s.cwd) : fileFound(abs, s.ctx);
    if (hit) return hit;
  }
  // code spells a place as it is written, so the list unresolved is enough (fileFound follows links)
  for (const a of anchorList(s.ctx, s.cwd)) {
    if (placeOf(a, s.ctx)?.kind !== 'settings' || !spelledApart(a, code)) continue;
    const hit = fileFound(a, s.ctx);
    if (hit) return hit;
  }
  for (const p of ownPlaces(s.ctx)) if (code.includes(p)) return { kind: 'own', path: p };
  return undefined;
}
