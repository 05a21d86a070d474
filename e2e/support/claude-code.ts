import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// The real Claude Code CLI, pinned, installed from the npm registry on first use into a cache folder
// outside the source tree (it is not a dependency of stallguard). The npm package is a small wrapper
// whose platform-specific optional dependency carries the native binary; its postinstall only copies
// that binary into place, so the install needs nothing but the registry.

export const CLAUDE_CODE_VERSION = '2.1.197';
const PACKAGE = '@anthropic-ai/claude-code';

export interface ClaudeCode {
  /** The executable and the arguments that come before the CLI's own. */
  command: string;
  prefix: string[];
  /** The version the CLI reports, e.g. 2.1.197. */
  version: string;
  /** `Claude Code 2.1.197` */
  label: string;
}

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(
    env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'),
    'stallguard-e2e',
    `claude-code-${CLAUDE_CODE_VERSION}`,
  );
}

function reportedVersion(command: string, prefix: string[]): string | undefined {
  try {
    const out = execFileSync(command, [...prefix, '--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /^(\d+\.\d+\.\d+) \(Claude Code\)/.exec(out.trim())?.[1];
  } catch {
    return undefined;
  }
}

/** The working launcher of an install: the native binary put in place by the postinstall, or, when install scripts did not run, the package's own fallback wrapper. */
function locate(dir: string): ClaudeCode | undefined {
  const pkg = join(dir, 'node_modules', ...PACKAGE.split('/'));
  if (!existsSync(join(pkg, 'package.json'))) return undefined;
  const candidates: [string, string[]][] = [
    [join(pkg, 'bin', 'claude.exe'), []],
    [process.execPath, [join(pkg, 'cli-wrapper.cjs')]],
  ];
  for (const [command, prefix] of candidates) {
    const version = reportedVersion(command, prefix);
    if (version) return { command, prefix, version, label: `Claude Code ${version}` };
  }
  return undefined;
}

/**
 * The pinned Claude Code, installed first if it is not in the cache yet. Safe to call from several test
 * processes at once: each installs into a folder of its own and the first to finish moves it into place.
 */
export function ensureClaudeCode(env: NodeJS.ProcessEnv = process.env): ClaudeCode {
  const dir = cacheDir(env);
  const found = locate(dir);
  if (found?.version === CLAUDE_CODE_VERSION) return found;
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true }); // an unusable earlier install
  const tmp = `${dir}.tmp-${process.pid}`;
  mkdirSync(tmp, { recursive: true });
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        tmp,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${PACKAGE}@${CLAUDE_CODE_VERSION}`,
      ],
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 600_000,
      },
    );
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // npm's first error lines name the cause (code, failed request); the last ones point at its debug log
    const stderr = String((e as { stderr?: Buffer }).stderr ?? '')
      .trim()
      .split('\n')
      .slice(0, 2)
      .join(' ');
    throw new Error(
      `could not install ${PACKAGE}@${CLAUDE_CODE_VERSION} into ${dir}: ${stderr || (e as Error).message}`,
    );
  }
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another process moved its install into place first
  }
  const installed = locate(dir);
  if (!installed)
    throw new Error(
      `${PACKAGE}@${CLAUDE_CODE_VERSION} was installed into ${dir} but does not run (neither bin/claude.exe nor cli-wrapper.cjs reports a version)`,
    );
  if (installed.version !== CLAUDE_CODE_VERSION)
    throw new Error(`${dir} holds Claude Code ${installed.version}, not ${CLAUDE_CODE_VERSION}`);
  return installed;
}
