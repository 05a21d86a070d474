import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// An agent CLI from the npm registry, pinned, installed on first use into a cache folder outside the source
// tree (it is not a dependency of stallguard). Several test processes may ask at once: each installs into a
// folder of its own and the first to finish moves it into place.

export interface NpmCliSpec {
  /** The npm package and its pinned version. */
  pkg: string;
  version: string;
  /** What the CLI is called in test names: `Codex CLI`. */
  name: string;
  /** The executable and the arguments before the CLI's own, given the package folder. */
  launcher(pkgDir: string): [string, string[]];
  /** The version in the output of `--version`. */
  versionOf(output: string): string | undefined;
  /** Environment every run needs, pointing into the install folder (Copilot unpacks itself into XDG_CACHE_HOME). */
  runEnv?(dir: string): Record<string, string>;
  /** A command run once after installing, so that sessions started together do not each do first-run work. */
  warmUp?: string[];
}

export interface NpmCli {
  command: string;
  prefix: string[];
  version: string;
  /** `Codex CLI 0.171.0` */
  label: string;
  /** The spec's runEnv for this install. */
  env: Record<string, string>;
}

export function cacheDir(spec: NpmCliSpec, env: NodeJS.ProcessEnv = process.env): string {
  const slug = spec.pkg.replace(/^@/, '').replace(/[/@]/g, '-');
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'stallguard-e2e', `${slug}-${spec.version}`);
}

function locate(spec: NpmCliSpec, dir: string): NpmCli | undefined {
  const pkgDir = join(dir, 'node_modules', ...spec.pkg.split('/'));
  if (!existsSync(join(pkgDir, 'package.json'))) return undefined;
  const [command, prefix] = spec.launcher(pkgDir);
  const env = spec.runEnv?.(dir) ?? {};
  const runEnv = { ...process.env, HOME: dir, ...env };
  // some CLIs print their version on stderr (pi)
  const run = spawnSync(command, [...prefix, '--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: runEnv,
  });
  if (run.status !== 0) return undefined;
  const version = spec.versionOf(`${run.stdout}\n${run.stderr}`.trim());
  if (!version) return undefined;
  const warm = join(dir, '.warmed-up');
  if (spec.warmUp && !existsSync(warm)) {
    try {
      execFileSync(command, [...prefix, ...spec.warmUp], { timeout: 60_000, stdio: 'ignore', env: runEnv });
    } catch {
      return undefined;
    }
    writeFileSync(warm, '');
  }
  return { command, prefix, version, label: `${spec.name} ${version}`, env };
}

export function ensureNpmCli(spec: NpmCliSpec, env: NodeJS.ProcessEnv = process.env): NpmCli {
  const dir = cacheDir(spec, env);
  const found = locate(spec, dir);
  if (found?.version === spec.version) return found;
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
        `${spec.pkg}@${spec.version}`,
      ],
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 900_000,
      },
    );
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const stderr = String((e as { stderr?: Buffer }).stderr ?? '')
      .trim()
      .split('\n')
      .slice(0, 2)
      .join(' ');
    throw new Error(`could not install ${spec.pkg}@${spec.version} into ${dir}: ${stderr || (e as Error).message}`);
  }
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another process moved its install into place first
  }
  const installed = locate(spec, dir);
  if (!installed)
    throw new Error(`${spec.pkg}@${spec.version} was installed into ${dir} but does not report its version`);
  if (installed.version !== spec.version) throw new Error(`${dir} holds ${installed.label}, not ${spec.version}`);
  return installed;
}

/** Codex CLI: a node launcher; the native binary comes in a platform-specific optional dependency. */
export const CODEX_CLI: NpmCliSpec = {
  pkg: '@openai/codex',
  version: '0.171.0',
  name: 'Codex CLI',
  launcher: (dir) => [process.execPath, [join(dir, 'bin', 'codex.js')]],
  versionOf: (out) => /codex-cli (\d+\.\d+\.\d+)/.exec(out)?.[1],
};

/** Gemini CLI: a pure JS bundle. */
export const GEMINI_CLI: NpmCliSpec = {
  pkg: '@google/gemini-cli',
  version: '0.61.0',
  name: 'Gemini CLI',
  launcher: (dir) => [process.execPath, [join(dir, 'bundle', 'gemini.js')]],
  versionOf: (out) => /^(\d+\.\d+\.\d+)/m.exec(out)?.[1],
};

/**
 * GitHub Copilot CLI: a node loader that runs the native binary of the platform package. On first use the
 * binary unpacks its JavaScript into $XDG_CACHE_HOME/copilot (about 2 s); that cache is kept in the
 * install folder, and unpacked once after installing (`help config` is a command that does it offline).
 */
export const COPILOT_CLI: NpmCliSpec = {
  pkg: '@github/copilot',
  version: '1.0.102',
  name: 'Copilot CLI',
  launcher: (dir) => [process.execPath, [join(dir, 'npm-loader.js')]],
  versionOf: (out) => /GitHub Copilot CLI (\d+\.\d+\.\d+)/.exec(out)?.[1],
  runEnv: (dir) => ({ XDG_CACHE_HOME: join(dir, 'xdg-cache'), COPILOT_AUTO_UPDATE: 'false' }),
  warmUp: ['help', 'config'],
};

/** Qwen Code: a JS bundle (a Gemini CLI fork). */
export const QWEN_CODE: NpmCliSpec = {
  pkg: '@qwen-code/qwen-code',
  version: '0.24.4',
  name: 'Qwen Code',
  launcher: (dir) => [process.execPath, [join(dir, 'cli-entry.js')]],
  versionOf: (out) => /^(\d+\.\d+\.\d+)/m.exec(out)?.[1],
};

/**
 * opencode: a 4-file wrapper whose platform-specific optional dependency carries the native binary (a Bun
 * single-file executable); the postinstall only copies it over bin/opencode.exe. When install scripts did
 * not run, the platform package's own binary is used.
 */
export const OPENCODE_CLI: NpmCliSpec = {
  pkg: 'opencode-ai',
  version: '1.18.33',
  name: 'opencode',
  launcher: (dir) => {
    const copied = join(dir, 'bin', 'opencode.exe');
    const platform = join(dir, '..', `opencode-${process.platform}-${process.arch}`, 'bin', 'opencode');
    return [existsSync(platform) && !isBinary(copied) ? platform : copied, []];
  },
  versionOf: (out) => /^(\d+\.\d+\.\d+)$/m.exec(out)?.[1],
};

/** pi: plain JavaScript on Node (its own engines field asks for Node >= 20.6). */
export const PI_CLI: NpmCliSpec = {
  pkg: '@mariozechner/pi-coding-agent',
  version: '0.73.1',
  name: 'pi',
  launcher: (dir) => [process.execPath, [join(dir, 'dist', 'cli.js')]],
  versionOf: (out) => /^(\d+\.\d+\.\d+)$/m.exec(out)?.[1],
};

/** Whether a file is an executable binary rather than the placeholder script a skipped postinstall leaves. */
function isBinary(file: string): boolean {
  try {
    return statSync(file).size > 1 << 20;
  } catch {
    return false;
  }
}
