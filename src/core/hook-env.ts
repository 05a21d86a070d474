// The daemon answers hooks started in other environments than its own: each request carries the values,
// in the hook's environment, of the variables that change an answer, and the daemon runs the hook with
// those in place of its own. Claude Code's http hook sends them through header interpolation (an unset
// variable comes as an empty header), the bash first stage (src/hook/client.sh) through its own headers.
// An empty value is an unset variable: the hook reads each of them as unset when it is empty.

/** The variables the hook's answer depends on: where its home is (one daemon serves one), its mode, the places
 *  self-protection guards. */
export const HOOK_ENV = [
  'STALLGUARD_HOME',
  'CLAUDE_PLUGIN_DATA',
  'HOME',
  'STALLGUARD_MODE',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
] as const;

export type HookEnvName = (typeof HOOK_ENV)[number];

/** The header that carries a variable (node gives header names in lower case). */
export function envHeader(name: HookEnvName): string {
  return `x-stallguard-env-${name.toLowerCase()}`;
}

/**
 * The environment of the hook that sent `headers`: the daemon's own, with what the request says of each
 * variable; `sent` when it said anything (an older install's http hook sends none).
 */
export function requestEnv(
  base: NodeJS.ProcessEnv,
  headers: Record<string, string | string[] | undefined>,
): { env: NodeJS.ProcessEnv; sent: boolean } {
  let env: NodeJS.ProcessEnv | undefined;
  for (const name of HOOK_ENV) {
    const value = headers[envHeader(name)];
    if (typeof value !== 'string') continue;
    env ??= { ...base };
    if (value === '') delete env[name];
    else env[name] = value;
  }
  return { env: env ?? base, sent: env !== undefined };
}

/** The http hook's headers for Claude Code: each variable's value, filled in from the hook's environment. */
export function claudeHeaders(): { headers: Record<string, string>; allowedEnvVars: string[] } {
  return {
    headers: Object.fromEntries(HOOK_ENV.map((name) => [`X-Stallguard-Env-${name}`, `$${name}`])),
    allowedEnvVars: [...HOOK_ENV],
  };
}
