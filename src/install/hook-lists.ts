import { isOurs, marked } from './ours.ts';
import { addEvent, addProperty, append, hooksOf, parseSettings, pruneEmpty, remove } from './settings-json.ts';

// The hooks format of Cursor and Copilot CLI: {"version": 1, "hooks": {event: [entry...]}}, one flat list
// of entries per event. stallguard adds one entry per event and removes exactly the entries whose command
// carries its marker (and whether a file left with nothing but the version goes is uninstall's call: it
// knows whether install created it).

export interface ListSpec {
  events: readonly string[];
  /** The field of an entry that holds the command (Cursor: command; Copilot: bash). */
  commandField: string;
  entry(command: string): Record<string, unknown>;
}

export function removeEntries(text: string, file: string, spec: ListSpec): string {
  let out = text;
  const hooks = hooksOf(out, file);
  if (!hooks) return out;
  const touched: string[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    for (let i = entries.length - 1; i >= 0; i--) {
      if (!isOurs((entries[i] as Record<string, unknown> | undefined)?.[spec.commandField])) continue;
      out = remove(out, ['hooks', event, i]);
      touched.push(event);
    }
  }
  return pruneEmpty(out, file, touched);
}

export function addEntries(text: string, file: string, command: string, spec: ListSpec): string {
  let out = removeEntries(text.trim() === '' ? '{}\n' : text, file, spec);
  if (out.trim() === '') out = '{}\n';
  if (parseSettings(out, file).version === undefined) out = addProperty(out, [], 'version', 1);
  for (const event of spec.events) {
    const existing = hooksOf(out, file)?.[event];
    const entry = spec.entry(marked(command));
    out = Array.isArray(existing) ? append(out, ['hooks', event], entry) : addEvent(out, file, event, [entry]);
  }
  return out;
}

export function installedEntries(text: string, file: string, spec: ListSpec): string | undefined {
  const hooks = hooksOf(text, file);
  let found: string | undefined;
  for (const event of spec.events) {
    const entries = hooks?.[event];
    const cmd = (Array.isArray(entries) ? entries : [])
      .map((e) => (e as Record<string, unknown> | undefined)?.[spec.commandField])
      .find(isOurs);
    if (typeof cmd !== 'string') return undefined;
    found = cmd;
  }
  return found;
}
