import { applyEdits, findNodeAtLocation, modify, type Node, parse as parseJsonc, parseTree, type ParseError, printParseErrorCode } from 'jsonc-parser';

// Editing .claude/settings.json the way a person would: only the hooks stallguard owns are touched, and
// every other setting, comment and indentation stays as it was. Our handlers carry a `# stallguard`
// marker at the end of the command (a shell comment), which is how uninstall finds exactly them; an http
// handler of `stallguard serve` is known by its URL on the loopback address, under /stallguard/.

export const MARKER = '# stallguard';

/** The events the hook needs, and whether each takes a tool matcher. */
export const CLAUDE_EVENTS: readonly [string, boolean][] = [
  ['UserPromptSubmit', false],
  ['PreToolUse', true],
  ['PostToolUse', true],
  ['PostToolUseFailure', true],
  ['PostToolBatch', false],
  ['Stop', false],
  ['SubagentStop', false],
];

export function isOurs(command: unknown): boolean {
  return typeof command === 'string' && /#\s*stallguard\s*$/.test(command);
}

type Handler = { type?: unknown; command?: unknown; url?: unknown };
type Group = { matcher?: string; hooks?: Handler[] };

function isOurHttp(h: Handler | undefined): boolean {
  return h?.type === 'http' && typeof h.url === 'string' && /^http:\/\/127\.0\.0\.1:\d+\/stallguard\//.test(h.url);
}

function isOurHandler(h: Handler | undefined): boolean {
  return isOurs(h?.command) || isOurHttp(h);
}

/** The http handler that sends an event to `stallguard serve`; a short timeout, since a healthy daemon answers in milliseconds. */
export function httpHandler(url: string): { type: 'http'; url: string; timeout: number } {
  return { type: 'http', url, timeout: 3 };
}

export class SettingsError extends Error {}

function parseSettings(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split('\n').length;
    throw new SettingsError(`${file} is not valid JSON (${printParseErrorCode(e.error)} at line ${line}); fix it or move it aside, then run install again`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SettingsError(`${file} must hold a JSON object`);
  return value as Record<string, unknown>;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/**
 * Cuts one element out of an array or one property out of an object, with exactly the separator that
 * joined it to its neighbours, so that nothing around it is reformatted.
 */
function cut(text: string, node: Node): string {
  const siblings = node.parent?.children ?? [];
  const i = siblings.indexOf(node);
  const next = siblings[i + 1];
  const prev = siblings[i - 1];
  if (next) return text.slice(0, node.offset) + text.slice(next.offset);
  if (prev) return text.slice(0, prev.offset + prev.length) + text.slice(node.offset + node.length);
  // the only child: keep the container's own whitespace
  return text.slice(0, node.offset).replace(/\s*$/, '') + text.slice(node.offset + node.length).replace(/^\s*/, '');
}

function at(text: string, path: (string | number)[]): Node | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root && findNodeAtLocation(root, path);
  // a property's value node sits under its property node; cut the property, key included
  return node?.parent?.type === 'property' ? node.parent : node;
}

/** The settings text without stallguard's handlers for one event (and without the groups and the event left empty). */
function removeFromEvent(text: string, file: string, event: string): string {
  let out = text;
  const groups = (parseSettings(out, file).hooks as Record<string, unknown> | undefined)?.[event];
  if (!Array.isArray(groups)) return out;
  // backwards, so that earlier indices stay valid as items go
  for (let g = groups.length - 1; g >= 0; g--) {
    const group = groups[g] as Group;
    if (!Array.isArray(group?.hooks)) continue;
    const ours = group.hooks.map((h, i) => (isOurHandler(h) ? i : -1)).filter((i) => i >= 0);
    if (ours.length === 0) continue;
    if (ours.length === group.hooks.length) out = cut(out, at(out, ['hooks', event, g])!);
    else for (const i of ours.reverse()) out = cut(out, at(out, ['hooks', event, g, 'hooks', i])!);
  }
  const now = (parseSettings(out, file).hooks as Record<string, unknown> | undefined)?.[event];
  if (Array.isArray(now) && now.length === 0) out = cut(out, at(out, ['hooks', event])!);
  return out;
}

/** The settings text with every stallguard handler removed, and groups and events left empty by that removed. */
export function removeHooks(text: string, file: string): string {
  let out = text;
  const hooks = parseSettings(out, file).hooks;
  if (!hooks || typeof hooks !== 'object') return out;
  for (const event of Object.keys(hooks as Record<string, unknown>)) out = removeFromEvent(out, file, event);
  const left = parseSettings(out, file).hooks;
  if (left && typeof left === 'object' && Object.keys(left).length === 0) out = cut(out, at(out, ['hooks'])!);
  return out;
}

/**
 * The settings text with stallguard's handlers for `command` registered, and with `httpUrl` its http
 * handler just before the command, in the same group. Handlers already there are updated in place (so a
 * second install changes nothing); when the set of handlers changes (the http handler added or dropped),
 * the event's handlers are replaced by a new group at the start of its list, where it cannot take a
 * neighbour's trailing comment with it on uninstall.
 */
export function addHooks(text: string, file: string, command: string, httpUrl?: string): string {
  let out = text.trim() === '' ? '{}\n' : text;
  const full = `${command} ${MARKER}`;
  for (const [event, takesMatcher] of CLAUDE_EVENTS) {
    const groups = (parseSettings(out, file).hooks as Record<string, unknown> | undefined)?.[event];
    const commands: [number, number][] = [];
    const https: [number, number][] = [];
    if (Array.isArray(groups))
      groups.forEach((g: Group, gi) =>
        (Array.isArray(g?.hooks) ? g.hooks : []).forEach((h, hi) => {
          if (isOurs(h?.command)) commands.push([gi, hi]);
          else if (isOurHttp(h)) https.push([gi, hi]);
        }),
      );
    const sameShape = httpUrl
      ? commands.length === 1 && https.length === 1 && https[0]![0] === commands[0]![0] && https[0]![1] === commands[0]![1] - 1
      : commands.length > 0 && https.length === 0;
    if (sameShape) {
      for (const [gi, hi] of commands)
        if ((groups as Group[])[gi]!.hooks![hi]!.command !== full) out = applyEdits(out, modify(out, ['hooks', event, gi, 'hooks', hi, 'command'], full, FORMAT));
      const [gi, hi] = https[0] ?? [];
      if (httpUrl && (groups as Group[])[gi!]!.hooks![hi!]!.url !== httpUrl) out = applyEdits(out, modify(out, ['hooks', event, gi!, 'hooks', hi!, 'url'], httpUrl, FORMAT));
      continue;
    }
    out = removeFromEvent(out, file, event);
    const handlers = [...(httpUrl ? [httpHandler(httpUrl)] : []), { type: 'command', command: full, timeout: 10 }];
    const group = { ...(takesMatcher ? { matcher: '*' } : {}), hooks: handlers };
    const left = (parseSettings(out, file).hooks as Record<string, unknown> | undefined)?.[event];
    out = Array.isArray(left)
      ? applyEdits(out, modify(out, ['hooks', event, 0], group, { ...FORMAT, isArrayInsertion: true }))
      : applyEdits(out, modify(out, ['hooks', event], [group], FORMAT));
  }
  return out;
}

/** Whether the settings register stallguard for every event it needs. */
export function installedCommand(text: string, file: string): string | undefined {
  const hooks = parseSettings(text, file).hooks as Record<string, Group[]> | undefined;
  let found: string | undefined;
  for (const [event] of CLAUDE_EVENTS) {
    const cmd = hooks?.[event]?.flatMap((g) => g.hooks ?? []).find((h) => isOurs(h.command))?.command;
    if (typeof cmd !== 'string') return undefined;
    found = cmd;
  }
  return found;
}
