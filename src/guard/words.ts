import { escapeGlob, HOLE } from '../shell/lex.ts';
import type { GuardContext } from './context.ts';
import { globMatcher, piecesMatch } from './glob.ts';
import { placesAndFolders, resolvePath } from './paths.ts';
import { dirFound, fileFound, type Found, treeFound } from './reach.ts';
import { anyOf, regex } from '../core/regex.ts';

// A shell word as a path, checked against what stallguard protects: a plain name resolved as the program
// would resolve it, a glob matched against the protected places it could name, a name with parts known
// only at run time matched by the parts that are known.

export interface Scope {
  ctx: GuardContext;
  cwd: string | undefined;
  vars: Map<string, string>;
  windows: boolean;
  depth: number;
  /** The whole command, for a name of which nothing is known before it runs. */
  text: string;
}

/**
 * `file`: the program writes the path; `dir`: it writes into the
 * folder; `tree`: it removes or moves the path with all it holds.
 */
export type Test = 'file' | 'dir' | 'tree';

/**
 * Names that, written anywhere, mean hook settings or stallguard's
 * files: used to spot them in code and in commands of unknown names.
 */
export const MENTION = regex(
  'g',
  /[^\s'"`()[\]{},;=<>|&]{0,256}/,
  anyOf(/\.claude|\.codex|\.gemini|\.cursor|\.github[/\\]hooks|\.stallguard|managed-settings/),
  /[^\s'"`()[\]{},;<>|&]{0,256}/,
);

/** Variables resolvePath knows at the start of a path; any other is a value known only at run time. */
const KNOWN_VARS =
  /^(?:HOME|PWD|STALLGUARD_HOME|CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CURSOR_PROJECT_DIR|env:USERPROFILE|env:HOME)$/;

export function substitute(word: string, vars: Map<string, string>): string {
  return word.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (m, a: string | undefined, b: string | undefined) => vars.get((a ?? b)!) ?? m,
  );
}

/** Unknown variables become holes, but not the known ones that start the word (resolvePath expands them). */
function holesForVariables(word: string): string {
  return word.replace(/\$\{[^}]{0,200}\}|\$(?:env:)?\w+/g, (m, offset: number) => {
    const name = m.replace(/^\$\{?|\}$/g, '');
    return offset === 0 && KNOWN_VARS.test(name) ? m : HOLE;
  });
}

function found(abs: string, s: Scope, test: Test): Found | undefined {
  return test === 'file'
    ? fileFound(abs, s.ctx)
    : test === 'dir'
      ? dirFound(abs, s.ctx, s.cwd)
      : treeFound(abs, s.ctx, s.cwd);
}

/** Protected places named anywhere in the text: for a name of which nothing is known before the command runs. */
function mentionHits(text: string, s: Scope, test: Test): Found | undefined {
  for (const m of text.matchAll(MENTION)) {
    const hit = found(resolvePath(m[0], s.ctx, s.cwd, s.windows), s, test === 'tree' ? 'tree' : 'dir');
    if (hit) return hit;
  }
  return undefined;
}

/**
 * A glob made absolute the way the shell would resolve it: literal parts of the prefix escaped, `.` and `..` folded.
 */
function absoluteGlob(pattern: string, s: Scope): string {
  let p = s.windows ? pattern.replace(/\\/g, '/') : pattern;
  const home = s.ctx.home;
  if (home && /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.test(p))
    p = escapeGlob(home) + p.replace(/^(?:~|\$HOME|\$\{HOME\})/, '');
  else if (s.ctx.stallguardHome && /^\$\{?STALLGUARD_HOME\}?(?=\/|$)/.test(p))
    p = escapeGlob(s.ctx.stallguardHome) + p.replace(/^\$\{?STALLGUARD_HOME\}?/, '');
  else if (!p.startsWith('/') && s.cwd) p = escapeGlob(s.cwd) + '/' + p;
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '.' || (seg === '' && out.length > 0)) continue;
    if (seg === '..' && out.length > 1) out.pop();
    else out.push(seg);
  }
  return out.join('/') || '/';
}

function globHits(pattern: string, s: Scope, test: Test): Found | undefined {
  const matches = globMatcher(absoluteGlob(pattern, s));
  for (const place of placesAndFolders(s.ctx, s.cwd)) {
    if (!matches(place)) continue;
    const hit = found(place, s, test);
    if (hit) return hit;
  }
  return undefined;
}

function holeHits(word: string, s: Scope, test: Test): Found | undefined {
  const abs = word.startsWith(HOLE) ? word.replace(/\\/g, '/') : resolvePath(word, s.ctx, s.cwd, s.windows);
  const pieces = abs.split(HOLE);
  // nothing known, or a `..` that the run-time part could move anywhere: what the command mentions decides
  if (pieces.every((p) => p === '' || p === '/') || pieces.slice(1).some((p) => /(?:^|\/)\.\.(?:\/|$)/.test(p)))
    return mentionHits(s.text, s, test);
  for (const place of placesAndFolders(s.ctx, s.cwd)) {
    if (!piecesMatch(pieces, place)) continue;
    const hit = found(place, s, test);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Whether the path a word names reaches something of stallguard's; `globs` are the word's command's globs (lexShell).
 */
export function hits(word: string, s: Scope, test: Test, globs?: Map<string, string>): Found | undefined {
  const pattern = globs?.get(word);
  const w = holesForVariables(substitute(word, s.vars));
  // STALLGUARD_HOME is stallguard's wherever it points
  if (/^\$\{?STALLGUARD_HOME\b/.test(w) && !s.ctx.stallguardHome) return { kind: 'own', path: '$STALLGUARD_HOME' };
  if (w.includes(HOLE)) return holeHits(w, s, test);
  if (pattern !== undefined) return globHits(substitute(pattern, s.vars), s, test);
  return found(resolvePath(w, s.ctx, s.cwd, s.windows), s, test);
}

export function firstHit(words: string[], s: Scope, test: Test, globs?: Map<string, string>): Found | undefined {
  for (const w of words) {
    const hit = hits(w, s, test, globs);
    if (hit) return hit;
  }
  return undefined;
}
