// How stallguard knows its own hook handlers in an agent's settings: install ends each command it writes
// with a `# stallguard` marker (a shell comment), and the daemon's http handler posts to /stallguard/ on
// the loopback address. Uninstall removes exactly these; self-protection protects exactly these. Kept
// apart from the JSON editing so that the hook can load it without jsonc-parser.

const MARKER = '# stallguard';

export function isOurs(command: unknown): boolean {
  return typeof command === 'string' && /#\s*stallguard\s*$/.test(command);
}

export function marked(command: string): string {
  return `${command} ${MARKER}`;
}

type Handler = { type?: unknown; command?: unknown; url?: unknown };

function isOurHttp(h: Handler | undefined): boolean {
  return h?.type === 'http' && typeof h.url === 'string' && /^http:\/\/127\.0\.0\.1:\d+\/stallguard\//.test(h.url);
}

export function isOurHandler(h: Handler | undefined): boolean {
  return isOurs(h?.command) || isOurHttp(h);
}
