import { claudeHeaders } from '../core/hook-env.ts';
import { isOurHandler, isOurs, marked } from './ours.ts';
import { addEvent, append, hooksOf, pruneEmpty, remove } from './settings-json.ts';

// The hooks format Claude Code, Codex CLI and Gemini CLI share: settings.hooks[event] is a list of groups
// {matcher?, hooks: [handler...]}. stallguard adds one group per event with one handler, and removes
// exactly the handlers that carry its marker (and groups and events left empty by that). With the daemon
// (Claude Code's http hooks), the group also holds an http handler to `stallguard serve`, known by its URL on
// the loopback address under /stallguard/, just before the command that stands in when the daemon is down.
// Each command hook costs Claude Code a process, about what a node start saves, so with the daemon the events
// that follow a call (httpAlone) have the http handler alone: the command that comes first in each call
// (PreToolUse) starts the daemon when it is down and waits until it listens.

export interface GroupEvent {
  name: string;
  /** The matcher the group gets, for events that take one. */
  matcher?: string;
  /** With the daemon's http handler, no command beside it: an event that follows one whose command starts the
   *  daemon. */
  httpAlone?: boolean;
}

export interface GroupSpec {
  events: readonly GroupEvent[];
  /** The handler object for a (marked) command. */
  handler(command: string): Record<string, unknown>;
}

type Handler = { type?: unknown; command?: unknown; url?: unknown };
type Group = { matcher?: string; hooks?: Handler[] };

/**
 * The http handler that sends an event to `stallguard serve`, with the hook environment's variables that
 * change an answer; a short timeout, since a healthy daemon answers in milliseconds.
 */
export function httpHandler(url: string): Record<string, unknown> {
  return { type: 'http', url, timeout: 3, ...claudeHeaders() };
}

/** The settings text with every stallguard handler removed. */
export function removeGroups(text: string, file: string): string {
  let out = text;
  const hooks = hooksOf(out, file);
  if (!hooks) return out;
  const touched: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    // walk backwards so that earlier indices stay valid as items are removed
    for (let g = groups.length - 1; g >= 0; g--) {
      const group = groups[g] as Group;
      if (!Array.isArray(group?.hooks)) continue;
      const ours = group.hooks.map((h, i) => (isOurHandler(h) ? i : -1)).filter((i) => i >= 0);
      if (ours.length === 0) continue;
      touched.push(event);
      if (ours.length === group.hooks.length) out = remove(out, ['hooks', event, g]);
      else for (const i of ours.reverse()) out = remove(out, ['hooks', event, g, 'hooks', i]);
    }
  }
  return pruneEmpty(out, file, touched);
}

/**
 * The settings text with stallguard's handlers for `command` registered (replacing any earlier ones), and
 * with `httpUrl` the daemon's http handler before the command, in the same group.
 */
export function addGroups(text: string, file: string, command: string, spec: GroupSpec, httpUrl?: string): string {
  let out = removeGroups(text.trim() === '' ? '{}\n' : text, file);
  for (const { name, matcher, httpAlone } of spec.events) {
    const existing = hooksOf(out, file)?.[name];
    const handlers = httpUrl
      ? [httpHandler(httpUrl), ...(httpAlone ? [] : [spec.handler(marked(command))])]
      : [spec.handler(marked(command))];
    const group = { ...(matcher !== undefined ? { matcher } : {}), hooks: handlers };
    out = Array.isArray(existing) ? append(out, ['hooks', name], group) : addEvent(out, file, name, [group]);
  }
  return out;
}

/** Events that hold a stallguard handler though `spec` needs none there: the layout of an earlier install. */
export function strayEvents(text: string, file: string, spec: GroupSpec): string[] {
  const hooks = (hooksOf(text, file) ?? {}) as Record<string, Group[]>;
  const needed = new Set(spec.events.map((e) => e.name));
  return Object.entries(hooks)
    .filter(([name, groups]) => !needed.has(name) && Array.isArray(groups))
    .filter(([, groups]) => groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isOurHandler(h))))
    .map(([name]) => name);
}

/** The command stallguard is registered with, if it is registered for every event it needs. */
export function installedGroups(text: string, file: string, spec: GroupSpec): string | undefined {
  return ourGroupCommand(hooksOf(text, file), spec);
}

/**
 * In a parsed `hooks` table (JSON or TOML): stallguard's command, if stallguard is there for every event of
 * `spec` (an httpAlone event through the daemon's http handler alone).
 */
export function ourGroupCommand(table: Record<string, unknown> | undefined, spec: GroupSpec): string | undefined {
  const hooks = table as Record<string, Group[]> | undefined;
  let found: string | undefined;
  for (const { name, httpAlone } of spec.events) {
    const groups = hooks?.[name];
    const handlers = (Array.isArray(groups) ? groups : []).flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : []));
    const cmd = handlers.find((h) => isOurs(h?.command))?.command;
    if (typeof cmd === 'string') found = cmd;
    else if (!httpAlone || !handlers.some((h) => h?.type === 'http' && isOurHandler(h))) return undefined;
  }
  return found;
}
