import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentName } from '../types.ts';

/** The bundled hook file beside the running CLI (dist/hook.cjs). */
export function hookPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'hook.cjs');
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\/.:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command an agent runs for every hook: the absolute node binary and the absolute bundle, never npx
 * (which costs about half a second per call).
 */
export function hookCommand(agent: AgentName, node = process.execPath, hook = hookPath()): string {
  return `${shellQuote(node)} ${shellQuote(hook)} --agent ${agent}`;
}
