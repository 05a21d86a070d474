import { isOurHandler, isOurs } from '../install/ours.ts';
import { stableJson } from '../core/stable-json.ts';
import type { SettingsFormat } from './paths.ts';
import { tomlHoldings } from './toml-tables.ts';

// What an agent's settings file holds that is stallguard's: its hook entries (the handlers install wrote,
// known by the `# stallguard` marker at the end of their command, or the daemon's URL), the settings named
// after it (`enabledPlugins["stallguard@..."]`, `env.STALLGUARD_MODE`, its extension's enablement), and
// the switches that turn every hook off. A change to the file is tampering when it drops or alters one of
// stallguard's entries, changes a setting named after it, or turns a switch on; anything else in the file
// is the person's. JSON is read with JSON.parse (comments and trailing commas taken out first where the
// file has them now); Codex's TOML by its tables (./toml-tables.ts). jsonc-parser and smol-toml would read
// both more fully, but loading them costs the hook about 0.3 ms each at every start, for files it rarely sees.

export interface Holdings {
  /** stallguard's handlers, each with its event and its group's matcher. */
  entries: Set<string>;
  /** Settings whose key names stallguard, with their values. */
  named: Set<string>;
  /** Switches that are on: every hook off, only managed hooks, stallguard's hook disabled by name. */
  offs: Set<string>;
}

export type Tamper = 'entry' | 'switch';

const EMPTY: Holdings = { entries: new Set(), named: new Set(), offs: new Set() };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A handler or a flat entry is stallguard's: install's marker, the daemon's URL, or a hand-written run of its bundle.
 */
function ours(h: unknown): boolean {
  if (!isObj(h)) return false;
  if (isOurHandler(h)) return true;
  return ['command', 'bash', 'powershell', 'command_windows', 'commandWindows'].some((f) => {
    const c = h[f];
    return typeof c === 'string' && (isOurs(c) || (/stallguard/i.test(c) && /hook(?:-main)?\.c?js/.test(c)));
  });
}

/**
 * hooks[event] is a list of groups {matcher, hooks: [handler]}
 * (Claude, Codex, Gemini) or of flat entries (Cursor, Copilot).
 */
function entriesOf(root: Obj, out: Set<string>): void {
  const hooks = root.hooks;
  if (!isObj(hooks)) return;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (!isObj(item)) continue;
      if (Array.isArray(item.hooks)) {
        const { hooks: handlers, ...group } = item;
        for (const h of handlers as unknown[]) if (ours(h)) out.add(stableJson([event, group, h]));
      } else if (ours(item)) out.add(stableJson([event, item]));
    }
  }
}

/**
 * Settings whose key names stallguard, a few levels down:
 * `enabledPlugins["stallguard@stallguard"]`, `env.STALLGUARD_MODE`.
 */
function namedOf(v: unknown, path: string[], out: Set<string>): void {
  if (!isObj(v) || path.length > 4) return;
  for (const [k, x] of Object.entries(v)) {
    if (path.length === 0 && k === 'hooks') continue;
    if (/stallguard/i.test(k)) out.add(stableJson([...path, k, x]));
    else namedOf(x, [...path, k], out);
  }
}

function offsOf(root: Obj, out: Set<string>): void {
  const at = (...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), root);
  // Claude Code (any settings file; only managed settings can limit hooks to managed ones)
  if (at('disableAllHooks') === true) out.add('disableAllHooks');
  if (at('allowManagedHooksOnly') === true) out.add('allowManagedHooksOnly');
  // Codex: [features] hooks = false (codex_hooks: its old name); managed requirements
  if (at('features', 'hooks') === false || at('features', 'codex_hooks') === false) out.add('features.hooks');
  if (at('allow_managed_hooks_only') === true || at('hooks', 'allow_managed_hooks_only') === true)
    out.add('allow_managed_hooks_only');
  // Gemini CLI: the global switch, its older name, and hooks disabled by name
  if (at('hooksConfig', 'enabled') === false) out.add('hooksConfig.enabled');
  if (at('tools', 'enableHooks') === false) out.add('tools.enableHooks');
  const disabled = at('hooksConfig', 'disabled');
  if (Array.isArray(disabled) && disabled.some((d) => typeof d === 'string' && /stallguard/i.test(d)))
    out.add('hooksConfig.disabled');
}

/**
 * JSON with comments (Gemini CLI's settings may have them) as JSON:
 * comments and trailing commas taken out, strings left alone.
 */
export function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) if (text[j] === '\\') j++;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = (nl === -1 ? text.length : nl) - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? text.length : close + 1;
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 200))) {
      // a trailing comma
    } else out += c;
  }
  return out;
}

/** Parses as the agent reads the file: strict JSON where the file is strict now, JSON with comments where it is not. */
function parse(text: string, lenient: boolean): Obj | undefined {
  if (text.trim() === '') return {};
  for (const t of lenient ? [text, withoutComments(text)] : [text]) {
    try {
      const v: unknown = JSON.parse(t);
      return isObj(v) ? v : undefined;
    } catch {
      // not JSON as it stands
    }
  }
  return undefined;
}

function holdingsOfObject(root: Obj): Holdings {
  const h: Holdings = { entries: new Set(), named: new Set(), offs: new Set() };
  entriesOf(root, h.entries);
  namedOf(root, [], h.named);
  offsOf(root, h.offs);
  return h;
}

/**
 * Switches written as text: what a fragment of a settings file
 * (an edit's new string) or a file that does not parse turns on.
 */
const OFF_TEXT: [string, RegExp][] = [
  ['disableAllHooks', /disableAllHooks['"]?\s{0,3}[:=]\s{0,3}true/],
  ['allowManagedHooksOnly', /allowManagedHooksOnly['"]?\s{0,3}:\s{0,3}true/],
  ['allow_managed_hooks_only', /allow_managed_hooks_only\s{0,3}=\s{0,3}true/],
  ['features.hooks', /^\s{0,20}(?:codex_)?hooks\s{0,3}=\s{0,3}false/m],
  ['hooksConfig.enabled', /hooksConfig['"]?\s{0,3}:\s{0,3}\{[^{}]{0,400}?['"]enabled['"]\s{0,3}:\s{0,3}false/],
  ['tools.enableHooks', /enableHooks['"]?\s{0,3}:\s{0,3}false/],
  ['STALLGUARD', /STALLGUARD_(?:MODE|HOME)['"]?\s{0,3}[:=]/],
];

export function offsInText(text: string): Set<string> {
  return new Set(OFF_TEXT.filter(([, re]) => re.test(text)).map(([name]) => name));
}

/** A file that does not parse, read line by line: its lines that name stallguard, and the switches in it. */
function holdingsOfText(text: string): Holdings {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /stallguard/i.test(l));
  return { entries: new Set(lines), named: new Set(), offs: offsInText(text) };
}

function holdingsOfToml(text: string | undefined): Holdings {
  if (text === undefined) return EMPTY;
  const { entries, offs } = tomlHoldings(text);
  return { entries, named: new Set(), offs };
}

/** What of stallguard's a settings file holds now; undefined text: no such file. */
function holdingsOf(text: string | undefined, format: SettingsFormat): Holdings {
  if (format === 'toml') return holdingsOfToml(text);
  if (text === undefined) return EMPTY;
  const root = parse(text, true);
  return root ? holdingsOfObject(root) : holdingsOfText(text);
}

/** Whether the file holds anything of stallguard's that a change could break. */
export function holdsStallguard(text: string, format: SettingsFormat): boolean {
  const h = holdingsOf(text, format);
  return h.entries.size > 0 || h.named.size > 0;
}

/** The holdings of the text before and after a change, each read as the agent would. */
function beforeAndAfter(
  before: string | undefined,
  after: string | undefined,
  format: SettingsFormat,
): [Holdings, Holdings] {
  if (format === 'toml') return [holdingsOfToml(before), holdingsOfToml(after)];
  const strict = before === undefined || before.trim() === '' || parse(before, false) !== undefined;
  const beforeRoot = before === undefined ? {} : parse(before, true);
  // the file does not parse now: compare line by line
  if (beforeRoot === undefined) return [holdingsOfText(before!), after === undefined ? EMPTY : holdingsOfText(after)];
  // a file that parsed as strict JSON and no longer does is a file the agent may ignore, entries and all
  const afterRoot = after === undefined ? {} : parse(after, !strict);
  return [
    holdingsOfObject(beforeRoot),
    afterRoot ? holdingsOfObject(afterRoot) : { ...EMPTY, offs: offsInText(after!) },
  ];
}

/** Whether replacing a settings file's text `before` with `after` (undefined: no file) is tampering. */
export function tamperOf(
  before: string | undefined,
  after: string | undefined,
  format: SettingsFormat,
): Tamper | undefined {
  const [b, a] = beforeAndAfter(before, after, format);
  if ([...b.entries].some((e) => !a.entries.has(e))) return 'entry';
  const changed = [...[...b.named].filter((n) => !a.named.has(n)), ...[...a.named].filter((n) => !b.named.has(n))];
  // env.STALLGUARD_MODE and the like switch stallguard off; a plugin's enablement is one of its entries
  if (changed.length > 0) return changed.some((n) => n.includes('"STALLGUARD_')) ? 'switch' : 'entry';
  if ([...a.offs].some((o) => !b.offs.has(o))) return 'switch';
  return undefined;
}
