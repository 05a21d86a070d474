// What the guard knows of the machine it protects. Pure code reads the file system only through the two
// functions passed in here (the hook passes the real ones, src/hook/guard-context.ts); a replay of a session
// recorded elsewhere passes neither, since that machine's files are not this one's.

export interface GuardContext {
  cwd?: string;
  home?: string;
  /** STALLGUARD_HOME, resolved. */
  stallguardHome?: string;
  /** The folder of the installed hook bundle. */
  selfDir?: string;
  /** The node binary that runs the installed hook: without it every hook call fails, and fails open. */
  nodePath?: string;
  /** Agents' own config folders set by the environment (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME). */
  configDirs?: string[];
  /** Resolves symbolic links (the hook passes fs.realpath); a path is protected if it or its target is. */
  realpath?: (abs: string) => string | undefined;
  /**
   * A file's text as it is now: undefined when there is no such file, null when something is there that
   * cannot be read (a folder, no permission, too large). Without it, hook settings count as holding no
   * stallguard entries: only stallguard's own files and the switches that turn it off are protected.
   */
  readText?: (abs: string) => string | null | undefined;
}

/** What is known of a file now. */
export type Now = { text: string } | { none: true } | { unreadable: true } | { unknown: true };

export function nowOf(abs: string, ctx: GuardContext): Now {
  if (!ctx.readText) return { unknown: true };
  const text = ctx.readText(abs);
  return text === undefined ? { none: true } : text === null ? { unreadable: true } : { text };
}
