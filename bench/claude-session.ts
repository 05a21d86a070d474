// What stallguard adds to every tool call of a real Claude Code session: one scripted healthy session of
// 40 tool calls (Read and Bash, each different) against the fake Anthropic API on 127.0.0.1, run with each
// way of registering hooks on the seven events `install` registered when the target was set (it now leaves
// PostToolUse out: PostToolBatch lists each call's result), the variants interleaved in a new
// random order each round. Printed as a table: the median session wall time, and what each variant adds
// per tool call over the session without hooks.
//
//   node --import tsx bench/claude-session.ts [--rounds N] [--calls N] [--mode shadow|enforce] [--only a,b]
//
// Each variant keeps its STALLGUARD_HOME (and so its daemon) from round to round, as a person's does
// from session to session; one warm-up round is not counted. Nothing here asserts a target.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureClaudeCode } from '../e2e/support/claude-code.ts';
import { claudeArgs, claudeEnv } from '../e2e/support/claude-session.ts';
import { startFakeAnthropic } from '../e2e/support/fake-anthropic.ts';
import type { ModelScript, Turn } from '../e2e/support/model-script.ts';
import { runBounded } from '../e2e/support/bounded-run.ts';
import { CLAUDE_WITH_POST_TOOL_USE } from '../src/install/claude.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '40' },
    mode: { type: 'string', default: 'shadow' },
    only: { type: 'string' },
  },
});
const ROUNDS = Number(opts.rounds);
const CALLS = Number(opts.calls);

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** A healthy session: reads of different files and different shell commands, one call a turn. */
function healthySession(project: string, calls: number): ModelScript {
  const turns: Turn[] = [];
  for (let i = 0; i < calls; i++)
    turns.push(
      i % 2 === 0
        ? [{ tool: 'Read', input: { file_path: join(project, 'src', `part${i}.js`) } }]
        : [
            {
              tool: 'Bash',
              input: { command: `wc -l src/part${i - 1}.js`, description: `Count the lines of part ${i - 1}` },
            },
          ],
    );
  turns.push([{ text: 'Done: every part read and counted.' }]);
  return { main: turns };
}

interface World {
  root: string;
  home: string;
  project: string;
  stallguardHome: string;
}

/** A fresh scratch project (a git repository with the files the session reads) under a variant's folder. */
function freshProject(base: string, round: number): World {
  const root = join(base, `round-${round}`);
  const world = {
    root,
    home: join(root, 'home'),
    project: join(root, 'proj'),
    stallguardHome: join(base, 'stallguard'),
  };
  mkdirSync(join(world.project, 'src'), { recursive: true });
  mkdirSync(world.home, { recursive: true });
  for (let i = 0; i < CALLS; i += 2)
    writeFileSync(
      join(world.project, 'src', `part${i}.js`),
      Array.from({ length: 40 }, (_, l) => `export const v${l} = ${i * 100 + l};`).join('\n') + '\n',
    );
  writeFileSync(join(world.project, '.stallguard.json'), JSON.stringify({ mode: opts.mode }) + '\n');
  execFileSync('git', ['init', '-q'], { cwd: world.project, stdio: 'ignore' });
  return world;
}

/** Claude Code's settings with one command handler on each event install registers, `extra` its other fields. */
/**
 * The events of the reference rows (`true`, `node -e 0`, the http hook to a server that answers at once): the
 * seven `install` registered when the target of 1.3x `true` was set, PostToolUse among them, so that the
 * reference stays what the target was stated against while the install's own layout changes.
 */
const REFERENCE_EVENTS = CLAUDE_WITH_POST_TOOL_USE.events;

function commandSettings(command: string, extra: Record<string, unknown> = {}): string {
  const hooks: Record<string, unknown[]> = {};
  for (const { name, matcher } of REFERENCE_EVENTS)
    hooks[name] = [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command, timeout: 10, ...extra }] }];
  return JSON.stringify({ hooks }, null, 2);
}

/** Claude Code's settings with one http handler on each of the events install registers. */
function httpSettings(url: string): string {
  const hooks: Record<string, unknown[]> = {};
  for (const { name, matcher } of REFERENCE_EVENTS)
    hooks[name] = [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'http', url, timeout: 3 }] }];
  return JSON.stringify({ hooks }, null, 2);
}

/** An http server that answers every hook at once with nothing to say: the round trip without the daemon's work. */
function nullServer(): Promise<string> {
  return new Promise((done) => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-length': 0 }).end());
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => {
      server.unref();
      done(`http://127.0.0.1:${(server.address() as { port: number }).port}/stallguard/claude`);
    });
  });
}

/** Leaves only the handlers of one type in the installed settings. */
function keepOnly(world: World, type: string): void {
  const file = join(world.project, '.claude', 'settings.local.json');
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  for (const groups of Object.values(settings.hooks) as { hooks: { type: string }[] }[][])
    for (const g of groups) g.hooks = g.hooks.filter((h) => h.type === type);
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** Starts the daemon of a variant whose hooks never start it, unless it runs. */
function ensureServe(world: World, port: number): void {
  try {
    const pid = Number(readFileSync(join(world.stallguardHome, 'serve.pid'), 'utf8').split(' ')[0]);
    process.kill(pid, 0);
    return;
  } catch {
    /* not running */
  }
  spawn(process.execPath, [CLI, 'serve', '--port', String(port)], {
    env: { PATH: process.env.PATH, HOME: world.home, STALLGUARD_HOME: world.stallguardHome },
    stdio: 'ignore',
    detached: true,
  }).unref();
  for (let i = 0; i < 300 && !existsSync(join(world.stallguardHome, 'serve.pid')); i++) spawnSync('sleep', ['0.02']);
}

interface Variant {
  name: string;
  key: string;
  /** Registers the hooks in the project. */
  setup(world: World): void;
}

function writeSettings(world: World, text: string): void {
  mkdirSync(join(world.project, '.claude'), { recursive: true });
  writeFileSync(join(world.project, '.claude', 'settings.local.json'), text);
}

function stallguard(world: World, args: string[]): void {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: world.project,
    env: { PATH: process.env.PATH, HOME: world.home, STALLGUARD_HOME: world.stallguardHome },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`stallguard ${args.join(' ')} failed: ${r.stderr}`);
}

const NODE = process.execPath;

async function variants(): Promise<Variant[]> {
  const [port, httpPort, everyPort, postPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const nullUrl = await nullServer();
  return [
    { name: 'none', key: 'none', setup: () => undefined },
    { name: 'each event runs `true`', key: 'true', setup: (w) => writeSettings(w, commandSettings('true')) },
    // what a hook whose answer nobody waits for would cost (shadow mode's answer is always nothing), and one
    // started without a shell: measured to weigh designs not built
    {
      name: 'each event runs `true` in the background (`async`)',
      key: 'async',
      setup: (w) => writeSettings(w, commandSettings('true', { async: true })),
    },
    {
      name: 'each event runs `true` with no shell (exec form, `args`)',
      key: 'exec',
      setup: (w) => writeSettings(w, commandSettings('/bin/true', { args: [] })),
    },
    {
      name: 'each event runs `node -e 0`',
      key: 'node',
      setup: (w) => writeSettings(w, commandSettings(`NODE_EXTRA_CA_CERTS= ${NODE} -e 0`)),
    },
    {
      name: '`stallguard install --no-daemon` (the command hook alone)',
      key: 'command',
      setup: (w) => stallguard(w, ['install', '--no-daemon']),
    },
    {
      name: 'the http hook alone, to a server that answers at once',
      key: 'null',
      setup: (w) => writeSettings(w, httpSettings(nullUrl)),
    },
    {
      name: 'the http hook alone, to the daemon (no command beside it)',
      key: 'http',
      setup: (w) => {
        stallguard(w, ['install', '--port', String(httpPort)]);
        keepOnly(w, 'http');
        ensureServe(w, httpPort);
      },
    },
    {
      name: 'the daemon with the command beside the http hook on all seven events (the layout before)',
      key: 'every',
      setup: (w) => {
        stallguard(w, ['install', '--port', String(everyPort)]);
        commandEverywhere(w);
      },
    },
    {
      name: 'the default with PostToolUse to the daemon too (the layout before batches carried results)',
      key: 'post',
      setup: (w) => {
        stallguard(w, ['install', '--port', String(postPort)]);
        withPostToolUse(w);
      },
    },
    {
      name: '`stallguard install` (the default: the daemon)',
      key: 'default',
      setup: (w) => stallguard(w, ['install', '--port', String(port)]),
    },
  ];
}

/** Adds the daemon's http hook on PostToolUse, as install registered it before PostToolBatch carried results. */
function withPostToolUse(world: World): void {
  const file = join(world.project, '.claude', 'settings.local.json');
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  const http = settings.hooks.PostToolBatch[0].hooks.find((h: { type: string }) => h.type === 'http');
  settings.hooks.PostToolUse = [{ matcher: '*', hooks: [http] }];
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** Puts the command that stands in for the daemon beside its http hook on every event, as install did before. */
function commandEverywhere(world: World): void {
  const file = join(world.project, '.claude', 'settings.local.json');
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  const command = settings.hooks.PreToolUse[0].hooks.find((h: { type: string }) => h.type === 'command');
  for (const groups of Object.values(settings.hooks) as { hooks: { type: string }[] }[][])
    for (const g of groups) if (!g.hooks.some((h) => h.type === 'command')) g.hooks.push(command);
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

async function chosenVariants(): Promise<Variant[]> {
  const all = await variants();
  const only = opts.only?.split(',');
  return only ? all.filter((v) => v.key === 'none' || only.includes(v.key)) : all;
}

async function session(variant: Variant, base: string, round: number): Promise<number> {
  const world = freshProject(base, round);
  variant.setup(world);
  const script = healthySession(world.project, CALLS);
  const log = join(world.root, 'requests.jsonl');
  const server = await startFakeAnthropic(script, log);
  const env = claudeEnv(
    {
      root: world.root,
      home: world.home,
      project: world.project,
      stallguardHome: world.stallguardHome,
      requestsLog: log,
    },
    server.url,
  );
  const client = ensureClaudeCode();
  const args = claudeArgs(client, 'read and count every part', ['Bash', 'Read']);
  let run: Awaited<ReturnType<typeof runBounded>>;
  try {
    run = await runBounded(client.command, args, { cwd: world.project, env, timeoutMs: 300_000 });
  } finally {
    await server.close();
  }
  const tools = run.stdout.split('\n').filter((l) => l.includes('"type":"tool_use"')).length;
  if (run.timedOut || !run.stdout.includes('Done: every part read and counted.') || tools < CALLS)
    throw new Error(
      `${variant.name}: the session did not complete (${tools} tool calls seen)\n${run.stderr.slice(-1500)}`,
    );
  rmSync(world.root, { recursive: true, force: true });
  return run.ms;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function shuffle<T>(list: T[]): T[] {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

function stopDaemons(bases: string[]): void {
  for (const base of bases) {
    try {
      const pid = Number(readFileSync(join(base, 'stallguard', 'serve.pid'), 'utf8').split(' ')[0]);
      if (pid) process.kill(pid);
    } catch {
      /* none ran */
    }
  }
}

const work = mkdtempSync(join(tmpdir(), 'stallguard-bench-claude-'));
const list = await chosenVariants();
const bases = Object.fromEntries(list.map((v) => [v.key, join(work, v.key)]));
const times: Record<string, number[]> = Object.fromEntries(list.map((v) => [v.key, []]));
try {
  for (let round = 0; round <= ROUNDS; round++) {
    process.stderr.write(
      `bench: Claude Code sessions, ${round === 0 ? 'warm-up round' : `round ${round} of ${ROUNDS}`}\n`,
    );
    for (const v of shuffle(list)) {
      const t = await session(v, bases[v.key]!, round);
      if (round > 0) times[v.key]!.push(t);
    }
  }
} finally {
  stopDaemons(Object.values(bases));
  rmSync(work, { recursive: true, force: true });
}

const none = median(times.none!);
const trueAdds = times.true ? (median(times.true) - none) / CALLS : undefined;
const head = [
  'hooks (the reference rows on the seven events of the target)',
  'session s (median)',
  'added per tool call',
  'over `true`',
];
const rows = list.map((v) => {
  const m = median(times[v.key]!);
  const added = (m - none) / CALLS;
  return [
    v.name,
    (m / 1000).toFixed(2),
    v.key === 'none' ? '-' : `${added >= 0 ? '+' : ''}${added.toFixed(1)} ms`,
    v.key === 'none' || trueAdds === undefined ? '' : `${(added / trueAdds).toFixed(2)}x`,
  ];
});
const width = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i]!.length)));
const line = (r: string[]) =>
  '| ' + r.map((c, i) => (i === 0 ? c.padEnd(width[i]!) : c.padStart(width[i]!))).join(' | ') + ' |';
console.log(
  `\n### Claude Code ${ensureClaudeCode().version}, one healthy session of ${CALLS} tool calls (median of ${ROUNDS} interleaved rounds, mode ${opts.mode})\n`,
);
console.log(line(head));
console.log('| ' + width.map((w, i) => (i === 0 ? '-'.repeat(w) : '-'.repeat(w - 1) + ':')).join(' | ') + ' |');
for (const r of rows) console.log(line(r));
console.log(
  `\nEach tool call fires three hook events (PreToolUse, PostToolUse or PostToolUseFailure, PostToolBatch); the default registers two of them for a call that succeeds. Rounds: ${list.map((v) => `${v.key} ${times[v.key]!.map((t) => (t / 1000).toFixed(2)).join('/')}`).join('; ')}.`,
);
console.log('Target: the default install adds at most 1.3x what `true` adds per tool call.');
