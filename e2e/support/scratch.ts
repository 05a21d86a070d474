import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentName, Decision, Mode, Observation } from '../../src/types.ts';
import { daemonWay } from '../../src/cli/_daemon.ts';
import type { Where } from '../../src/install/place.ts';
import { TARGETS } from '../../src/install/targets.ts';
import { type BoundedResult, runBounded } from './bounded-run.ts';
import { freePort } from '../../test/support/free-port.ts';

// The world of one end-to-end scenario, whatever the client: a scratch HOME (so no real credentials or
// settings are read), a scratch copy of the fixture project with a failing `npm test`, a scratch
// STALLGUARD_HOME, and stallguard installed into the project by its own CLI, as a person would.

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(REPO, 'dist', 'cli.js');
const FIXTURE = join(REPO, 'e2e', 'fixtures', 'project');

export interface Scratch {
  root: string;
  home: string;
  project: string;
  stallguardHome: string;
  /** Every request the fake model server received, one JSON object a line. */
  requestsLog: string;
}

export function makeScratch(name: string, mode: Mode): Scratch {
  const root = mkdtempSync(join(tmpdir(), `stallguard-e2e-${name}-`));
  const scratch: Scratch = {
    root,
    home: join(root, 'home'),
    project: join(root, 'proj'),
    stallguardHome: join(root, 'stallguard'),
    requestsLog: join(root, 'requests.jsonl'),
  };
  mkdirSync(scratch.home);
  cpSync(FIXTURE, scratch.project, { recursive: true });
  writeFileSync(join(scratch.project, '.stallguard.json'), JSON.stringify({ mode }) + '\n');
  // a git repository, as most projects are: stallguard fingerprints the working tree after failing runs
  execFileSync('git', ['init', '-q'], { cwd: scratch.project, stdio: 'ignore' });
  return scratch;
}

/** The scratch environment for anything run inside the scenario: nothing from the developer's own. */
export function scratchEnv(scratch: Scratch, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: scratch.home,
    LANG: 'C.UTF-8',
    STALLGUARD_HOME: scratch.stallguardHome,
    // keeps "a new npm is available" out of `npm test` output
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    ...extra,
  };
}

/**
 * An install's arguments with a daemon port of the scenario's own where the install takes the daemon (as by
 * default): scenarios run side by side, each with its STALLGUARD_HOME, as two people would on two machines.
 */
function withOwnPort(args: string[]): string[] {
  const flag = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
  if (args[0] !== 'install' || flag('port') !== undefined) return args;
  const target = TARGETS[(flag('agent') ?? 'claude') as AgentName];
  const flags = { daemon: args.includes('--daemon'), 'no-daemon': args.includes('--no-daemon') };
  return daemonWay(flags, target, (flag('scope') ?? 'local') as Where) ? [...args, '--port', String(freePort())] : args;
}

/** `stallguard <args>` from this checkout's build, run in the scratch project. */
export function stallguard(scratch: Scratch, args: string[]): string {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
  return execFileSync(process.execPath, [CLI, ...withOwnPort(args)], {
    cwd: scratch.project,
    env: scratchEnv(scratch),
    encoding: 'utf8',
  });
}

export type LedgerLine =
  | { t: 'm'; session: string; agent?: string }
  | { t: 'o'; id: string; o: Observation }
  | { t: 'd'; id: string; d: Decision; mode: string }
  | { t: 'c' };

function jsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** Every line of every session file stallguard wrote, by session file name. */
export function readLedger(scratch: Scratch): Map<string, LedgerLine[]> {
  const dir = join(scratch.stallguardHome, 'sessions');
  const out = new Map<string, LedgerLine[]>();
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')))
    out.set(name.replace(/\.jsonl$/, ''), jsonLines<LedgerLine>(join(dir, name)));
  return out;
}

/** What the hook wrote to errors.log: it fails open, so this is where its bugs show. */
export function hookErrors(scratch: Scratch): string {
  const file = join(scratch.stallguardHome, 'errors.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

export function readRequests<T>(scratch: Scratch): T[] {
  return jsonLines<T>(scratch.requestsLog);
}

export function removeScratch(scratch: Scratch): void {
  rmSync(scratch.root, { recursive: true, force: true });
}

/** A client run in the scratch project, with its stdout read as JSON lines. */
export interface ClientRun extends BoundedResult {
  events: Record<string, unknown>[];
}

/**
 * Runs a client CLI in the scratch project to its end or the deadline, then stops the fake model server.
 * Its stdout and stderr are kept beside the scratch for a failure to be looked into.
 */
export async function runClient(
  scratch: Scratch,
  cli: { command: string; label: string },
  args: string[],
  opts: { env: NodeJS.ProcessEnv; server: { close(): Promise<void> }; timeoutMs?: number },
): Promise<ClientRun> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  let run: BoundedResult;
  try {
    run = await runBounded(cli.command, args, { cwd: scratch.project, env: opts.env, timeoutMs });
  } finally {
    await opts.server.close();
  }
  writeFileSync(join(scratch.root, 'stream.jsonl'), run.stdout);
  writeFileSync(join(scratch.root, 'stderr.txt'), run.stderr);
  if (run.timedOut)
    throw new Error(
      `${cli.label} did not finish within ${timeoutMs} ms (scratch kept in ${scratch.root})\n${run.stderr.slice(-2000)}`,
    );
  const events = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { ...run, events };
}

/** The ledger of the one session a scenario ran; more than one means the hook split a session. */
export function onlySession(scratch: Scratch): LedgerLine[] {
  const sessions = [...readLedger(scratch).values()];
  if (sessions.length > 1)
    throw new Error(`expected one stallguard session, found ${sessions.length} (scratch kept in ${scratch.root})`);
  return sessions[0] ?? [];
}

/**
 * Runs a scenario's checks. The scratch folder is removed when they pass and kept, named in the error,
 * when they fail, so a failure can be looked into.
 */
export async function checkScratch(scratch: Scratch, check: () => void | Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof Error)
      error.message += `\n(scratch kept in ${scratch.root}: requests.jsonl, stream.jsonl, proj/, stallguard/)`;
    throw error;
  }
  removeScratch(scratch);
}

/** Turns a scenario runner into one that also runs the scenario's checks, as checkScratch does. */
export function withChecks<S, R extends { scratch: Scratch }>(run: (scenario: S) => Promise<R>) {
  return async (scenario: S, check: (run: R) => void | Promise<void>): Promise<R> => {
    const result = await run(scenario);
    await checkScratch(result.scratch, () => check(result));
    return result;
  };
}
