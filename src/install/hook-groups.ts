import { addEvent, append, hooksOf, isOurs, marked, pruneEmpty, remove } from './settings-json.ts';

// The hooks format Claude Code, Codex CLI and Gemini CLI share: settings.hooks[event] is a list of groups
// {matcher?, hooks: [handler...]}. stallguard adds one group per event with one handler, and removes
// exactly the handlers that carry its marker (and groups and events left empty by that).

export interface GroupEvent {
  name: string;
  /** The matcher the group gets, for events that take one. */
  matcher?: string;
}

export interface GroupSpec {
  events: readonly GroupEvent[];
  /** The handler object for a (marked) command. */
  handler(command: string): Record<string, unknown>;
}

type Group = { matcher?: string; hooks?: { command?: unknown }[] };

/** The settings text with every stallguard handler removed. */
export function removeGroups(text: string, file: string): string {
  let out = text;
  const hooks = hooksOf(out, file);
  if (!hooks) return out;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    // walk backwards so that earlier indices stay valid as items are removed
    for (let g = groups.length - 1; g >= 0; g--) {
      const group = groups[g] as Group;
      if (!Array.isArray(group?.hooks)) continue;
      const ours = group.hooks.map((h, i) => (isOurs(h?.command) ? i : -1)).filter((i) => i >= 0);
      if (ours.length === 0) continue;
      if (ours.length === group.hooks.length) out = remove(out, ['hooks', event, g]);
      else for (const i of ours.reverse()) out = remove(out, ['hooks', event, g, 'hooks', i]);
    }
  }
  return pruneEmpty(out, file, Object.keys(hooks));
}

/** The settings text with stallguard's handlers for `command` registered (replacing any earlier ones). */
export function addGroups(text: string, file: string, command: string, spec: GroupSpec): string {
  let out = removeGroups(text.trim() === '' ? '{}\n' : text, file);
  for (const { name, matcher } of spec.events) {
    const existing = hooksOf(out, file)?.[name];
    const group = { ...(matcher !== undefined ? { matcher } : {}), hooks: [spec.handler(marked(command))] };
    out = Array.isArray(existing) ? append(out, ['hooks', name], group) : addEvent(out, file, name, [group]);
  }
  return out;
}

/** The command stallguard is registered with, if it is registered for every event it needs. */
export function installedGroups(text: string, file: string, spec: GroupSpec): string | undefined {
  const hooks = hooksOf(text, file) as Record<string, Group[]> | undefined;
  let found: string | undefined;
  for (const { name } of spec.events) {
    const groups = hooks?.[name];
    const cmd = (Array.isArray(groups) ? groups : []).flatMap((g) => (Array.isArray(g?.hooks) ? g.hooks : [])).find((h) => isOurs(h?.command))?.command;
    if (typeof cmd !== 'string') return undefined;
    found = cmd;
  }
  return found;
}
