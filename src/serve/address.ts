// One daemon per user, on a port fixed at install time (Claude Code's http hook names a URL). The default
// comes from the user id, so that two users of one machine do not collide, and lies below the ephemeral
// ranges of Linux (32768+) and macOS (49152+), where an outgoing connection could hold it.

const BASE = 28000;

/** Requests go to /stallguard/<agent>; the path also marks the http handler as stallguard's in the settings. */
export const HOOK_PATH = '/stallguard/';

export function hookUrl(port: number, agent: string): string {
  return `http://127.0.0.1:${port}${HOOK_PATH}${agent}`;
}

export function defaultPort(): number {
  const uid = process.getuid?.() ?? 0;
  return BASE + (uid % 1000);
}
