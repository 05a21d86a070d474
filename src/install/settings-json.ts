import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse as parseJsonc,
  parseTree,
  type ParseError,
  printParseErrorCode,
} from 'jsonc-parser';

// Editing an agent's settings file the way a person would: only the hooks stallguard owns are touched, and
// every other setting, comment and indentation stays as it was. Our handlers carry a `# stallguard`
// marker at the end of the command (./ours.ts), which is how uninstall finds exactly them.

export class SettingsError extends Error {}

export function parseSettings(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length > 0) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split('\n').length;
    throw new SettingsError(
      `${file} is not valid JSON (${printParseErrorCode(e.error)} at ` +
        `line ${line}); fix it or move it aside, then run install again`,
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new SettingsError(`${file} must hold a JSON object`);
  return value as Record<string, unknown>;
}

/** The `hooks` object of a settings file, or an error naming the file when it is something else. */
export function hooksOf(text: string, file: string): Record<string, unknown> | undefined {
  const hooks = parseSettings(text, file).hooks;
  if (hooks === undefined) return undefined;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks))
    throw new SettingsError(
      `${file}: "hooks" must be an object; fix it or move the file aside, then run install again`,
    );
  return hooks as Record<string, unknown>;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

// jsonc-parser's modify() reformats the neighbours of what it edits, and those are the person's lines. So
// additions next to existing items and every removal are spliced in by hand, touching nothing else;
// modify() is used only where there are no neighbours (a new property of an empty object).

type Path = (string | number)[];

function nodeAt(text: string, path: Path) {
  const root = parseTree(text);
  return root ? findNodeAtLocation(root, path) : undefined;
}

function indentOf(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset))![0];
}

/** `value` as JSON indented to sit at `indent`. */
function json(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, '\n' + indent);
}

/** Removes the property or array element at `path` with the separator before it (after it, for the first). */
export function remove(text: string, path: Path): string {
  let node = nodeAt(text, path);
  if (!node) return text;
  if (node.parent?.type === 'property') node = node.parent;
  const siblings = node.parent?.children ?? [];
  const i = siblings.indexOf(node);
  const prev = siblings[i - 1];
  const next = siblings[i + 1];
  if (prev) return text.slice(0, prev.offset + prev.length) + text.slice(node.offset + node.length);
  if (next) return text.slice(0, node.offset) + text.slice(next.offset);
  const container = node.parent!;
  return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
}

/** Adds property `key` (absent so far) to the object at `path`, after its last property. */
export function addProperty(text: string, path: Path, key: string, value: unknown): string {
  const object = nodeAt(text, path);
  const last = object?.type === 'object' ? object.children?.at(-1) : undefined;
  if (!last) return applyEdits(text, modify(text, [...path, key], value, FORMAT));
  const indent = indentOf(text, last.offset);
  const end = last.offset + last.length;
  return `${text.slice(0, end)},\n${indent}${JSON.stringify(key)}: ${json(value, indent)}${text.slice(end)}`;
}

/** Appends `value` to the array at `path`, after its last element and indented like it. */
export function append(text: string, path: Path, value: unknown): string {
  const array = nodeAt(text, path);
  const last = array?.type === 'array' ? array.children?.at(-1) : undefined;
  if (!last) return applyEdits(text, modify(text, path, [value], FORMAT));
  const indent = indentOf(text, last.offset);
  const end = last.offset + last.length;
  return `${text.slice(0, end)},\n${indent}${json(value, indent)}${text.slice(end)}`;
}

/** Adds an event (absent so far) with its list to `hooks`, creating `hooks` where there is none. */
export function addEvent(text: string, file: string, event: string, list: unknown[]): string {
  return hooksOf(text, file)
    ? addProperty(text, ['hooks'], event, list)
    : addProperty(text, [], 'hooks', { [event]: list });
}

/**
 * Removes the events a removal left empty (`emptied`: those it took something out of), and `hooks`
 * itself once that left it empty. An empty list or `hooks` the person had before is theirs, and stays.
 */
export function pruneEmpty(text: string, file: string, emptied: Iterable<string>): string {
  let out = text;
  let pruned = false;
  for (const event of emptied) {
    const now = hooksOf(out, file)?.[event];
    if (Array.isArray(now) && now.length === 0) {
      out = remove(out, ['hooks', event]);
      pruned = true;
    }
  }
  const left = hooksOf(out, file);
  if (pruned && left && Object.keys(left).length === 0) out = remove(out, ['hooks']);
  return out;
}
