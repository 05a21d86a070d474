import { callCommand, callFields, callPath } from './call-fields.ts';
import { redact } from './redact.ts';

// The name a person reads in a nudge or a report: `Bash npm test`, `Edit src/billing.ts`,
// `Grep "parse_args" in src`. Paths are made relative to the working folder, secrets are redacted, and
// the whole stays short enough to list five of them on a line.

const MAX = 72;

function clip(s: string, max = MAX): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}

function rel(path: string, cwd?: string): string {
  if (cwd && path.startsWith(cwd.endsWith('/') ? cwd : cwd + '/'))
    return path.slice(cwd.length + (cwd.endsWith('/') ? 0 : 1));
  return path;
}

export function shortForm(tool: string, rawInput: unknown, cwd?: string): string {
  const o = callFields(rawInput);
  const s = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  const path = callPath(o);
  const command = callCommand(o);
  let detail: string | undefined;
  if (s('pattern') !== undefined) detail = `"${s('pattern')}"` + (path ? ` in ${rel(path, cwd)}` : '');
  else if (s('query') !== undefined) detail = `"${s('query')}"`;
  else if (command !== undefined) {
    // bash-only traces name the tool after the command's first word; do not say it twice
    const first = command.trim().split('\n')[0] ?? '';
    detail = first.startsWith(tool + ' ') || first === tool ? first.slice(tool.length).trim() : first;
    if (command.includes('\n') && detail === first.slice(tool.length).trim() && detail.length < 20) detail += ' …';
  } else if (path !== undefined) detail = rel(path, cwd);
  else if (s('subagent_type') !== undefined) detail = `${s('subagent_type')}: ${s('description') ?? ''}`;
  else if (s('url') !== undefined) detail = s('url');
  else if (s('agent_name') !== undefined) detail = s('agent_name');
  else {
    // a tool of its own (an MCP server's, a custom loop's): its first plain argument tells the calls apart
    const first = Object.values(o).find((v) => typeof v === 'string' || typeof v === 'number');
    if (first !== undefined) detail = String(first);
  }
  if (detail === undefined || detail.length === 0) return clip(tool);
  if (cwd && cwd.length > 1) detail = detail.split(cwd.endsWith('/') ? cwd : cwd + '/').join('');
  return clip(`${tool} ${redact(detail)}`);
}
