// npm run bench: the numbers of issue 7, measured side by side in one run and printed as tables.
//
//   node bench/run.mjs [--rounds N] [--history-mb N] [--scan-rounds N] [--only hook,concurrency,agents,daemon,claude,scan]
//
// Every process is a fresh node child with NODE_EXTRA_CA_CERTS unset (on Node 20 it alone triples node's
// start-up), except in the rows that are about that variable. Cases are interleaved, in a new random order
// each round, so that the machine's noise falls on all of them alike: compare the ratios, not the absolute
// times, which vary from run to run and machine to machine. Nothing here asserts a target; it measures.

import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { request, Agent } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureHistory } from './history.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOOK = join(ROOT, 'dist', 'hook.cjs');
const CLI = join(ROOT, 'dist', 'cli.js');
const RSS = join(ROOT, 'bench', 'rss.cjs');
const FLOOR = join(ROOT, 'bench', 'parse-floor.mjs');
const NODE = process.execPath;
const CA_FILE = process.env.NODE_EXTRA_CA_CERTS || '/etc/ssl/certs/ca-certificates.crt';

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '40' },
    'history-mb': { type: 'string', default: '256' },
    'scan-rounds': { type: 'string', default: '3' },
    only: { type: 'string' },
  },
});
const ROUNDS = Number(opts.rounds);
const HISTORY_BYTES = Number(opts['history-mb']) * (1 << 20);
const SCAN_ROUNDS = Number(opts['scan-rounds']);
const ONLY = opts.only ? new Set(opts.only.split(',')) : undefined;
const want = (section) => !ONLY || ONLY.has(section);

const work = mkdtempSync(join(tmpdir(), 'stallguard-bench-'));
const baseEnv = { ...process.env };
delete baseEnv.NODE_EXTRA_CA_CERTS;
delete baseEnv.STALLGUARD_MODE;

// ---------------------------------------------------------------- small helpers

function quantile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const ms = (v) => v.toFixed(1);
const x = (v) => `${v.toFixed(2)}x`;

function table(title, head, rows, notes = []) {
  const cells = [head, ...rows].map((r) => r.map(String));
  const width = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join(' | ') + ' |';
  console.log(`\n### ${title}\n`);
  console.log(line(cells[0]));
  console.log('| ' + width.map((w, i) => (i === 0 ? '-'.repeat(w) : '-'.repeat(w - 1) + ':')).join(' | ') + ' |');
  for (const r of cells.slice(1)) console.log(line(r));
  for (const n of notes) console.log(`\n${n}`);
}

function freePort() {
  return new Promise((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

function shuffle(list) {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function progress(text) {
  process.stderr.write(`bench: ${text}\n`);
}

// ---------------------------------------------------------------- Claude Code payloads

// a git repository, as most projects are: a failing test run fingerprints its working tree
const PROJECT = join(work, 'proj');
mkdirSync(join(PROJECT, 'src', 'invoice'), { recursive: true });
for (let i = 0; i < 40; i++)
  writeFileSync(join(PROJECT, 'src', 'invoice', `total${i}.ts`), `export const rate${i} = ${i} * TAX;\n`);
const git = (...args) =>
  spawnSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', ...args], { cwd: PROJECT, stdio: 'ignore' });
git('init', '-q');
git('add', '-A');
git('commit', '-qm', 'the invoice module');
writeFileSync(join(PROJECT, 'src', 'invoice', 'total0.ts'), 'export const rate0 = 1 * TAX;\n'); // a change in the tree

function base(session) {
  return {
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/-proj/${session}.jsonl`,
    cwd: PROJECT,
    prompt_id: `${session}-p`,
    permission_mode: 'default',
  };
}

const TEST_OUTPUT =
  Array.from({ length: 30 }, (_, i) => ` ✓ src/invoice/total${i}.test.ts > computes the total with tax ${i} 12ms`).join(
    '\n',
  ) + '\n\n Test Files  30 passed (30)\n      Tests  212 passed (212)\n   Duration  3.41s';

/** The call every timed hook run observes: a passing test run, as Claude Code 2.1.197 posts it. */
function timedPayload(session, i) {
  return JSON.stringify({
    ...base(session),
    effort: { level: 'high' },
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: {
      command: `npx vitest run src/invoice --reporter=dot -t "case ${i}"`,
      description: 'Run the invoice tests',
    },
    tool_response: { stdout: TEST_OUTPUT, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    tool_use_id: `toolu_bench_${i}`,
    duration_ms: 3411,
  });
}

/**
 * The end of the batch of one call on a common path, as Claude Code posts it to an install that registers no
 * PostToolUse: the call listed with the text of its result.
 */
function batchPayload(name, session, i) {
  const post = JSON.parse(name === 'pass' ? timedPayload(session, i) : pathPayload(name, session, i));
  const text =
    name === 'pass'
      ? TEST_OUTPUT
      : name === 'read'
        ? post.tool_response.file.content
        : `The file ${post.tool_input.file_path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n    12\texport const ${post.tool_input.new_string};`;
  const { tool_name, tool_input, tool_use_id, tool_response, duration_ms, hook_event_name, ...rest } = post;
  return JSON.stringify({
    ...rest,
    hook_event_name: 'PostToolBatch',
    tool_calls: [{ tool_name, tool_input, tool_use_id, tool_response: text }],
  });
}

/** A call on one of the common paths, as Claude Code posts it: a Read, a failing Bash run, an Edit, before and after. */
function pathPayload(name, session, i) {
  const file = `${PROJECT}/src/invoice/total${i % 40}.ts`;
  const common = { ...base(session), tool_use_id: `toolu_path_${i}` };
  if (name === 'read-pre')
    return JSON.stringify({
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: 'Read',
      tool_input: { file_path: file },
    });
  if (name === 'edit-pre')
    return JSON.stringify({
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      tool_input: {
        file_path: file,
        old_string: `rate${i % 60} = ${i % 60}`,
        new_string: `rate${i % 60} = ${(i % 60) + 1}`,
      },
    });
  if (name === 'read') {
    const content = Array.from(
      { length: 60 },
      (_, l) => `${l + 1}\texport const rate${l} = ${l} * TAX; // line ${l} of the totals`,
    ).join('\n');
    return JSON.stringify({
      ...common,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: file },
      tool_response: { type: 'text', file: { filePath: file, content, numLines: 60, startLine: 1, totalLines: 60 } },
    });
  }
  if (name === 'fail') {
    const error = `Exit code 1\n\n> invoice@1.0.0 test\n> vitest run -t "case ${i}"\n\n FAIL src/invoice/total.test.ts > computes the total with tax\nAssertionError: expected 107 to be 108\n ❯ src/invoice/total.test.ts:${12 + (i % 9)}:5\n\n Test Files  1 failed (1)\n      Tests  1 failed | 211 passed (212)`;
    return JSON.stringify({
      ...common,
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      // a test run (what the working-tree fingerprint is taken for)
      tool_input: { command: `npm test -- -t "case ${i}"`, description: 'Run the invoice tests' },
      error,
      is_interrupt: false,
      duration_ms: 2900,
    });
  }
  const edit = {
    file_path: file,
    old_string: `rate${i % 60} = ${i % 60} * TAX`,
    new_string: `rate${i % 60} = ${(i % 60) + 1} * TAX`,
  };
  return JSON.stringify({
    ...common,
    hook_event_name: 'PostToolUse',
    tool_name: 'Edit',
    tool_input: edit,
    tool_response: {
      filePath: file,
      oldString: edit.old_string,
      newString: edit.new_string,
      originalFile: null,
      structuredPatch: [],
      userModified: false,
      replaceAll: false,
    },
  });
}

/** Call `i` of a healthy session (reads, searches, edits, test runs; nothing repeated), as pre and post payloads. */
function sessionCall(session, i) {
  const b = { ...base(session), prompt_id: `${session}-p${Math.floor(i / 50)}` };
  const kind = i % 4;
  const file = `${PROJECT}/src/module${i % 97}/file${i}.ts`;
  const [tool, input, response] =
    kind === 0
      ? [
          'Read',
          { file_path: file },
          {
            type: 'text',
            file: {
              filePath: file,
              content: `export const value${i} = ${i};\n`.repeat(20),
              numLines: 20,
              startLine: 1,
              totalLines: 20,
            },
          },
        ]
      : kind === 1
        ? [
            'Grep',
            { pattern: `symbol${i}`, path: 'src' },
            { mode: 'files_with_matches', filenames: [`src/a${i}.ts`], numFiles: 1 },
          ]
        : kind === 2
          ? [
              'Edit',
              { file_path: file, old_string: `value${i} = ${i}`, new_string: `value${i} = ${i + 1}` },
              { filePath: file, oldString: `${i}`, newString: `${i + 1}` },
            ]
          : [
              'Bash',
              { command: `npx vitest run src/module${i} -t "case ${i}"`, description: 'Run tests' },
              { stdout: `${i} passed`, stderr: '', interrupted: false, isImage: false },
            ];
  const pre = { ...b, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: `toolu_${i}` };
  const post = {
    ...b,
    hook_event_name: 'PostToolUse',
    tool_name: tool,
    tool_input: input,
    tool_response: response,
    tool_use_id: `toolu_${i}`,
    duration_ms: 20,
  };
  return [pre, post];
}

// ---------------------------------------------------------------- the daemon, for seeding and its own rows

async function startDaemon(home) {
  const port = await freePort();
  const child = spawn(NODE, [CLI, 'serve', '--port', String(port)], {
    env: { ...baseEnv, STALLGUARD_HOME: home },
    stdio: 'ignore',
  });
  for (let i = 0; i < 500 && !existsSync(join(home, 'serve.pid')); i++) await new Promise((r) => setTimeout(r, 10));
  if (!existsSync(join(home, 'serve.pid'))) throw new Error('stallguard serve did not start');
  return { port, stop: () => new Promise((done) => (child.once('exit', done), child.kill())) };
}

function post(port, body, agent) {
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/stallguard/claude',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (b) => (text += b));
        res.on('end', () => (res.statusCode === 200 ? done(text) : fail(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', fail);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** A session with `calls` earlier calls in STALLGUARD_HOME, written through the daemon (the hook's own code). */
async function seed(port, session, calls) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  await post(
    port,
    {
      ...base(session),
      prompt_id: `${session}-p0`,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Fix the invoice totals',
    },
    agent,
  );
  for (let i = 0; i < calls; i++) for (const p of sessionCall(session, i)) await post(port, p, agent);
  agent.destroy();
}

function sessionFile(home, session) {
  return join(home, 'sessions', `${session}.jsonl`);
}

/** Every file of a session (its segments and the pointer to the latest), with their bytes. */
function sessionParts(home, session) {
  const dir = join(home, 'sessions');
  return readdirSync(dir).filter(
    (n) => n === `${session}.seg` || (n.startsWith(`${session}.`) && n.endsWith('.jsonl')) || n === `${session}.jsonl`,
  );
}

/**
 * Puts a session back as it is now, after timed runs appended to it. The hook only appends, so cutting a
 * file back to its length restores it (rewriting a 20 MB file before each run would leave the kernel
 * writing it back while the next one is timed); a segment made since is removed, and one compacted since
 * is copied back.
 */
function keepSession(home, session) {
  const dir = join(home, 'sessions');
  const saved = new Map(sessionParts(home, session).map((n) => [n, readFileSync(join(dir, n))]));
  const bytes = [...saved.values()].reduce((n, b) => n + b.length, 0);
  const restore = () => {
    for (const n of sessionParts(home, session)) {
      const was = saved.get(n);
      const file = join(dir, n);
      if (!was) rmSync(file, { force: true });
      else if (n.endsWith('.seg') || statSync(file).size < was.length) writeFileSync(file, was);
      else if (statSync(file).size > was.length) truncateSync(file, was.length);
    }
    for (const [n, was] of saved) if (!existsSync(join(dir, n))) writeFileSync(join(dir, n), was);
  };
  return { restore, bytes, segments: [...saved.keys()].filter((n) => n.endsWith('.jsonl')).length };
}

// ---------------------------------------------------------------- 1. the hook against node -e 0

function run(cmd, args, env, input) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, input, stdio: ['pipe', 'pipe', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return elapsed;
}

/** The command `install` registers for one agent's PreToolUse: with the daemon on `daemonPort`, or --no-daemon. */
function installedCommand(home, daemonPort, agent = 'claude') {
  const project = mkdtempSync(join(work, 'install-'));
  const daemon = daemonPort ? ['--port', String(daemonPort)] : ['--no-daemon'];
  const args = [CLI, 'install', '--agent', agent, ...daemon];
  const r = spawnSync(NODE, args, {
    cwd: project,
    env: { ...baseEnv, HOME: project, STALLGUARD_HOME: home },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`install failed: ${r.stderr}`);
  const file = { claude: '.claude/settings.local.json', codex: '.codex/hooks.json', gemini: '.gemini/settings.json' };
  const settings = JSON.parse(readFileSync(join(project, file[agent]), 'utf8'));
  const event = agent === 'gemini' ? 'BeforeTool' : 'PreToolUse';
  return settings.hooks[event][0].hooks.find((h) => h.type === 'command').command;
}

const COMMON = ['readPre', 'read', 'h25', 'fail', 'editPre', 'edit'];
/** The same paths as the default Claude Code layout takes them: a call that succeeds is read at its batch's end. */
const COMMON_BATCH = ['readPre', 'readBatch', 'passBatch', 'fail', 'editPre', 'editBatch'];

async function hookSection() {
  const home = join(work, 'hook-home');
  const daemon = await startDaemon(home);
  progress('seeding sessions of 10, 25 and 10,000 calls through the daemon');
  const sizes = [10, 25, 10_000];
  for (const n of sizes) await seed(daemon.port, `s${n}`, n);
  await daemon.stop();
  const kept = Object.fromEntries(sizes.map((n) => [n, keepSession(home, `s${n}`)]));
  const restore = (n) => kept[n].restore();

  const env = { ...baseEnv, STALLGUARD_HOME: home };
  const withCa = { ...env, NODE_EXTRA_CA_CERTS: CA_FILE };
  const command = installedCommand(home);
  // the same session in a home where no code cache can be kept (its cache folder is a file)
  const bare = join(work, 'bare-home');
  mkdirSync(join(bare, 'sessions'), { recursive: true });
  writeFileSync(join(bare, 'cache'), 'not a folder');
  for (const n of sessionParts(home, 's25')) copyFileSync(join(home, 'sessions', n), join(bare, 'sessions', n));
  const bareKept = keepSession(bare, 's25');
  const restoreBare = () => bareKept.restore();
  const bareEnv = { ...env, STALLGUARD_HOME: bare };
  const path = (name) => (i) => (restore(25), run(NODE, [HOOK, '--agent', 'claude'], env, pathPayload(name, 's25', i)));
  const batch = (name) => (i) => (
    restore(25), run(NODE, [HOOK, '--agent', 'claude'], env, batchPayload(name, 's25', i))
  );
  const cases = [
    { name: 'node -e 0', key: 'node', go: (i) => run(NODE, ['-e', '0'], env, timedPayload('s25', i)) },
    {
      name: 'hook, 10 earlier calls',
      key: 'h10',
      go: (i) => (restore(10), run(NODE, [HOOK, '--agent', 'claude'], env, timedPayload('s10', i))),
    },
    {
      name: 'hook, 25 earlier calls (Bash, tests pass)',
      key: 'h25',
      go: (i) => (restore(25), run(NODE, [HOOK, '--agent', 'claude'], env, timedPayload('s25', i))),
    },
    { name: 'hook, 25 earlier calls, Read before (PreToolUse)', key: 'readPre', go: path('read-pre') },
    { name: 'hook, 25 earlier calls, Read (3.5 KB file)', key: 'read', go: path('read') },
    { name: 'hook, 25 earlier calls, Bash failing (in a git repository)', key: 'fail', go: path('fail') },
    { name: 'hook, 25 earlier calls, Edit before (PreToolUse)', key: 'editPre', go: path('edit-pre') },
    { name: 'hook, 25 earlier calls, Edit', key: 'edit', go: path('edit') },
    // the default layout registers no PostToolUse: a call that succeeds is read from its batch's end
    { name: 'hook, 25 earlier calls, Read at its batch end (PostToolBatch)', key: 'readBatch', go: batch('read') },
    {
      name: 'hook, 25 earlier calls, Bash, tests pass, at its batch end (PostToolBatch)',
      key: 'passBatch',
      go: batch('pass'),
    },
    { name: 'hook, 25 earlier calls, Edit at its batch end (PostToolBatch)', key: 'editBatch', go: batch('edit') },
    {
      name: 'hook, 10,000 earlier calls',
      key: 'h10k',
      go: (i) => (restore(10_000), run(NODE, [HOOK, '--agent', 'claude'], env, timedPayload('s10000', i))),
    },
    {
      name: 'hook, 25 calls, no code cache',
      key: 'h25bare',
      go: (i) => (restoreBare(), run(NODE, [HOOK, '--agent', 'claude'], bareEnv, timedPayload('s25', i))),
    },
    {
      name: 'installed command (sh -c), 25 calls',
      key: 'cmd',
      go: (i) => (restore(25), run('sh', ['-c', command], env, timedPayload('s25', i))),
    },
    {
      name: 'node -e 0, NODE_EXTRA_CA_CERTS set',
      key: 'nodeCa',
      go: (i) => run(NODE, ['-e', '0'], withCa, timedPayload('s25', i)),
    },
    {
      name: 'hook, 25 calls, NODE_EXTRA_CA_CERTS set',
      key: 'h25Ca',
      go: (i) => (restore(25), run(NODE, [HOOK, '--agent', 'claude'], withCa, timedPayload('s25', i))),
    },
    {
      name: 'installed command, NODE_EXTRA_CA_CERTS set',
      key: 'cmdCa',
      go: (i) => (restore(25), run('sh', ['-c', command], withCa, timedPayload('s25', i))),
    },
  ];
  const times = Object.fromEntries(cases.map((c) => [c.key, []]));
  progress(`timing ${cases.length} cases x ${ROUNDS} rounds, interleaved`);
  for (const c of cases) c.go(0); // warm the page cache
  for (let r = 0; r < ROUNDS; r++) for (const c of shuffle(cases)) times[c.key].push(c.go(r + 1));

  const p50 = (k) => quantile(times[k], 0.5);
  const p90 = (k) => quantile(times[k], 0.9);
  table(
    `Hook wall time per call (PostToolUse, ${ROUNDS} interleaved rounds)`,
    ['case', 'p50 ms', 'p90 ms', 'p50 / node p50', 'p90 / node p90'],
    cases.map((c) => [
      c.name,
      ms(p50(c.key)),
      ms(p90(c.key)),
      x(p50(c.key) / p50('node')),
      x(p90(c.key) / p90('node')),
    ]),
    [
      `Target: with no daemon, the hook within 1.25x of node -e 0 on each common path (Read before and after, Bash passing, Bash failing, Edit before and after): ${COMMON.map((k) => x(p50(k) / p50('node'))).join(', ')} at p50 (PostToolUse); with the results read at a batch's end, as the default Claude Code layout takes them: ${COMMON_BATCH.map((k) => x(p50(k) / p50('node'))).join(', ')}. Flat: 10,000 earlier calls cost ${x(p50('h10k') / p50('h10'))} of 10 at p50 (${x(p90('h10k') / p90('h10'))} at p90); target within 1.10x.`,
      'The hook keeps V8\'s code cache in STALLGUARD_HOME/cache (made by the first run, and again by a run that took a heavier path); "no code cache" is a home where it cannot.',
      `Session logs: ${sizes.map((n) => `${n} calls ${(kept[n].bytes / 1024).toFixed(0)} KB in ${kept[n].segments} segment${kept[n].segments > 1 ? 's' : ''}`).join(', ')}. Installed command: ${command}`,
    ],
  );
  return { hookP50: p50('h25'), nodeP50: p50('node') };
}

// ---------------------------------------------------------------- 2. 50 hook processes of one session at once

function spawnHook(env, input) {
  return new Promise((done, fail) => {
    const child = spawn(NODE, [HOOK, '--agent', 'claude'], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`hook exited ${code}: ${stderr}`))));
    child.stdin.end(input);
  });
}

async function concurrencySection() {
  const home = join(work, 'conc-home');
  const daemon = await startDaemon(home);
  await seed(daemon.port, 'c25', 25);
  await daemon.stop();
  const file = sessionFile(home, 'c25');
  const length = statSync(file).size;
  const env = { ...baseEnv, STALLGUARD_HOME: home };
  const rows = [];
  for (let trial = 1; trial <= 3; trial++) {
    truncateSync(file, length);
    // 50 different calls of a healthy session, spread over the main agent and nine subagents: none of them
    // makes a stall, so every call must be counted
    const payloads = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({
        ...sessionCall('c25', 25 + i)[1],
        ...(i % 10 ? { agent_id: `agent-${i % 10}`, agent_type: 'reviewer' } : {}),
      }),
    );
    const t = process.hrtime.bigint();
    await Promise.all(payloads.map((p) => spawnHook(env, p)));
    const wall = Number(process.hrtime.bigint() - t) / 1e6;
    const r = spawnSync(NODE, ['--import', 'tsx', join(ROOT, 'bench', 'fold.ts'), file], {
      cwd: ROOT,
      env: baseEnv,
      encoding: 'utf8',
    });
    const fold = JSON.parse(r.stdout);
    rows.push([
      trial,
      ms(wall),
      `${fold.calls - 25}/50`,
      fold.folded,
      fold.calls,
      fold.unreadable,
      fold.folded === 75 && fold.calls === 75 && fold.unreadable === 0 ? 'none' : 'LOST',
    ]);
  }
  table(
    '50 hook processes of one session at once, across the main agent and nine subagents (25 earlier calls; 2 cores)',
    [
      'trial',
      'wall ms, all 50',
      'calls recorded',
      'calls in folded state',
      'calls in file',
      'unreadable lines',
      'lost updates',
    ],
    rows,
    [
      'The folded state is what the next hook would see: the fold through the last observation, from the last usable checkpoint.',
    ],
  );
}

// ---------------------------------------------------------------- 2b. one session with 200 subagents

/** The calls of one subagent: reads, searches and test runs of its own module, nothing repeated. */
function subagentCalls(session, task, a, calls) {
  const out = [];
  const who = { ...base(session), prompt_id: task, agent_id: `agent-${a}`, agent_type: 'reviewer' };
  for (let i = 0; i < calls; i++) {
    const [pre, post] = sessionCall(session, a * 1000 + i);
    out.push({ ...pre, ...who }, { ...post, ...who });
  }
  return out;
}

async function agentsSection() {
  const AGENTS = 200;
  const CALLS = 25;
  const home = join(work, 'agents-home');
  const env = { ...baseEnv, STALLGUARD_HOME: home };
  const session = 'fanout';
  const perAgent = new Array(AGENTS).fill(0);
  // node -e 0 beside each subagent, with the same payload: the machine's pace at that moment, so that the
  // first and last subagents compare as ratios to it even when other work on the machine comes and goes
  const floor = new Array(AGENTS).fill(0);
  const nodeRun = (input) =>
    new Promise((done) => {
      const child = spawn(NODE, ['-e', '0'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('close', done);
      child.stdin.end(input);
    });
  const runAgent = async (task, a) => {
    await spawnHook(
      env,
      JSON.stringify({
        ...base(session),
        prompt_id: task,
        hook_event_name: 'PreToolUse',
        tool_name: 'Agent',
        tool_input: { subagent_type: 'reviewer', description: `review part ${a}`, prompt: `Review module ${a}` },
        tool_use_id: `toolu_spawn_${a}`,
      }),
    );
    const t = process.hrtime.bigint();
    for (const p of subagentCalls(session, task, a, CALLS)) await spawnHook(env, JSON.stringify(p));
    perAgent[a] = Number(process.hrtime.bigint() - t) / 1e6 / CALLS;
    const f = [];
    for (let i = 0; i < 6; i++) {
      const s0 = process.hrtime.bigint();
      await nodeRun(JSON.stringify(subagentCalls(session, task, a, 1)[1]));
      f.push(Number(process.hrtime.bigint() - s0) / 1e6);
    }
    floor[a] = quantile(f, 0.5);
    await spawnHook(
      env,
      JSON.stringify({
        ...base(session),
        prompt_id: task,
        agent_id: `agent-${a}`,
        agent_type: 'reviewer',
        hook_event_name: 'SubagentStop',
        stop_hook_active: false,
        last_assistant_message: `Module ${a} reviewed: no findings.`,
      }),
    );
  };
  // ten subagents a task (the spawn cap), two at a time, as an orchestrator fans out reviews
  for (let task = 0; task < AGENTS / 10; task++) {
    progress(`200 subagents: task ${task + 1} of ${AGENTS / 10}`);
    const id = `${session}-p${task}`;
    await spawnHook(
      env,
      JSON.stringify({
        ...base(session),
        prompt_id: id,
        hook_event_name: 'UserPromptSubmit',
        prompt: `Review the modules, batch ${task}`,
      }),
    );
    for (let a = task * 10; a < task * 10 + 10; a += 2) await Promise.all([runAgent(id, a), runAgent(id, a + 1)]);
  }
  const dir = join(home, 'sessions');
  const files = sessionParts(home, session);
  const bytes = files.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
  const r = spawnSync(NODE, ['--import', 'tsx', join(ROOT, 'bench', 'fold.ts'), sessionFile(home, session)], {
    cwd: ROOT,
    env: baseEnv,
    encoding: 'utf8',
  });
  const fold = JSON.parse(r.stdout);
  const median = (list) => quantile(list, 0.5);
  const first = median(perAgent.slice(0, 20));
  const last = median(perAgent.slice(-20));
  const paced = perAgent.map((t, a) => t / floor[a]);
  const firstPaced = median(paced.slice(0, 20));
  const lastPaced = median(paced.slice(-20));
  table(
    `One session, ${AGENTS} subagents x ${CALLS} calls through the command hook (PreToolUse and PostToolUse of each call; 10 a task, 2 at once)`,
    ['measure', 'value', 'target'],
    [
      ['per-call time, first 20 subagents (median ms)', ms(first), ''],
      ['per-call time, last 20 subagents (median ms)', ms(last), ''],
      ['last / first', x(last / first), ''],
      [
        'per-call time / node -e 0 beside it, first 20 and last 20 (median)',
        `${x(firstPaced)} and ${x(lastPaced)}`,
        '',
      ],
      ['last / first, each as a ratio to node -e 0 beside it', x(lastPaced / firstPaced), '<= 1.20x'],
      ['session files on disk', `${(bytes / (1 << 20)).toFixed(1)} MB in ${files.length} files`, ''],
      ['bytes per call', `${(bytes / (AGENTS * CALLS)).toFixed(0)} B`, '< 2048 B'],
      [
        'calls in the log / in the folded state',
        `${fold.calls} / ${fold.folded}`,
        `${AGENTS * CALLS} / ${AGENTS * CALLS}`,
      ],
      ['agents in the folded state', fold.agents, 'main and the live ones'],
      ['largest checkpoint', `${(fold.checkpoint / 1024).toFixed(1)} KB`, ''],
    ],
    [
      'A call is its PreToolUse and PostToolUse hook processes; its time is theirs together, wall clock, with two subagents running at once. Six runs of node -e 0 follow each subagent, to pace it.',
    ],
  );
}

// ---------------------------------------------------------------- 3. the daemon behind Claude Code's http hook

async function daemonSection(hook) {
  const home = join(work, 'daemon-home');
  const daemon = await startDaemon(home);
  await seed(daemon.port, 'd25', 25);
  // the calls of a healthy session, pre and post: none makes a stall (a stopped agent would be answered early)
  let next = 25;
  const timed = async (n, agent) => {
    const t = [];
    while (t.length < n) {
      for (const body of sessionCall('d25', next).map((p) => JSON.stringify(p))) {
        const s = process.hrtime.bigint();
        await post(daemon.port, body, agent);
        t.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
      next++;
    }
    return t;
  };
  const keep = new Agent({ keepAlive: true, maxSockets: 1 });
  await timed(50, keep); // warm the JIT
  const reused = await timed(1000, keep);
  keep.destroy();
  const fresh = await timed(300, new Agent({ keepAlive: false }));
  // per hook event as the agent pays it, the processes it starts included, with the daemon up: Claude Code's
  // command beside its http hook (sh running two builtins), and Codex's and Gemini CLI's whole hook command
  // (bash -c, as they run it: the first stage in bash and the round trip), beside what any process costs
  const env = { ...baseEnv, STALLGUARD_HOME: home };
  const claudeCommand = installedCommand(home, daemon.port);
  const codexCommand = installedCommand(home, daemon.port, 'codex');
  const geminiCommand = installedCommand(home, daemon.port, 'gemini');
  const fixture = (name) => JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'payloads', name), 'utf8'));
  const calls = (pre, post, field, i) => {
    // a healthy session: a different command each call
    const call = { ...fixture(pre).tool_input, command: `npm test -- --grep case${i}` };
    return [pre, post].map((f) => JSON.stringify({ ...fixture(f), cwd: PROJECT, [field]: call }));
  };
  const cases = [
    { key: 'true', go: () => run('true', [], env, '') },
    { key: 'bash', go: () => run('bash', ['-c', 'true'], env, '') },
    { key: 'node', go: () => run(NODE, ['-e', '0'], env, '') },
    { key: 'claude', go: (i) => run('sh', ['-c', claudeCommand], env, timedPayload('d25', 10_000 + i)) },
    {
      key: 'codex',
      go: (i) => calls('codex-PreToolUse-Bash.json', 'codex-PostToolUse-Bash.json', 'tool_input', i)[i % 2],
      command: codexCommand,
    },
    {
      key: 'gemini',
      go: (i) =>
        calls('gemini-BeforeTool-run_shell_command.json', 'gemini-AfterTool-run_shell_command.json', 'tool_input', i)[
          i % 2
        ],
      command: geminiCommand,
    },
  ];
  const times = Object.fromEntries(cases.map((c) => [c.key, []]));
  const once = (c, i) => (c.command ? run('bash', ['-c', c.command], env, c.go(i)) : c.go(i));
  for (const c of cases) once(c, 0);
  for (let i = 1; i <= 2 * ROUNDS; i++) for (const c of shuffle(cases)) times[c.key].push(once(c, i));
  await daemon.stop();
  const row = (name, t) => [name, t.length, ms(quantile(t, 0.5)), ms(quantile(t, 0.99)), ms(Math.max(...t))];
  table(
    'stallguard serve, per hook call (PreToolUse and PostToolUse of a healthy session, over HTTP on 127.0.0.1)',
    ['case', 'calls', 'p50 ms', 'p99 ms', 'max ms'],
    [row('daemon, one kept-alive connection', reused), row('daemon, a new connection per call', fresh)],
    [
      `Target: 2 ms p50 or less.${hook ? ` For comparison, the command hook in this run: ${ms(hook.hookP50)} ms p50 (node -e 0: ${ms(hook.nodeP50)} ms).` : ''}`,
    ],
  );
  const named = {
    true: '`true` (starting any process, from node)',
    bash: '`bash -c true`',
    node: '`node -e 0`',
    claude: 'Claude Code: the command beside the http hook (sh, two builtins) while the daemon is up',
    codex: 'Codex: the whole hook command (bash -c; the first stage, the round trip, the daemon)',
    gemini: 'Gemini CLI: the whole hook command (bash -c; the first stage, the round trip, the daemon)',
  };
  table(
    `One hook event as the agent pays for it, with the daemon up (PreToolUse and PostToolUse of a healthy session, ${2 * ROUNDS} interleaved rounds)`,
    ['case', 'p50 ms', 'p90 ms', 'p50 / node -e 0'],
    cases.map((c) => [
      named[c.key],
      ms(quantile(times[c.key], 0.5)),
      ms(quantile(times[c.key], 0.9)),
      x(quantile(times[c.key], 0.5) / quantile(times.node, 0.5)),
    ]),
    [
      'Target: a Codex or Gemini CLI hook event costs 15 ms or less with the daemon up.',
      `Commands: Codex ${codexCommand}; Claude Code ${claudeCommand}`,
    ],
  );
}

// ---------------------------------------------------------------- 3b. a real Claude Code session

function claudeSection() {
  progress('Claude Code sessions (bench/claude-session.ts)');
  const r = spawnSync(
    NODE,
    [
      '--import',
      'tsx',
      join(ROOT, 'bench', 'claude-session.ts'),
      '--rounds',
      String(Math.max(3, Math.round(ROUNDS / 10))),
    ],
    { cwd: ROOT, env: baseEnv, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`bench/claude-session.ts failed (${r.status})`);
  process.stdout.write(r.stdout);
}

// ---------------------------------------------------------------- 4. scan and replay throughput

function measureCli(args, extraEnv = {}, script = CLI) {
  const t = process.hrtime.bigint();
  const r = spawnSync(NODE, ['-r', RSS, script, ...args], {
    cwd: work,
    env: { ...baseEnv, HOME: work, STALLGUARD_HOME: join(work, 'scan-home'), ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const seconds = Number(process.hrtime.bigint() - t) / 1e9;
  const stderr = r.stderr.toString();
  const rss = Number(/BENCH_MAXRSS_KB (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
  const cpu = Number(/BENCH_CPU_US (\d+)/.exec(stderr)?.[1] ?? NaN) / 1e6;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${script} ${args[0]} failed (${r.status}): ${stderr.slice(0, 500)}`);
  return { seconds, rss, cpu };
}

function filesUnder(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

const CCUSAGE = '18.0.11';

/** ccusage 18 (the last release whose reader is TypeScript), installed into a cache folder for the bench, never into the project; undefined, said in one line, when it cannot be. */
function ccusage() {
  const cache = join(process.env.XDG_CACHE_HOME || join(process.env.HOME || tmpdir(), '.cache'), 'stallguard-bench');
  const prefix = join(cache, `ccusage-${CCUSAGE}`);
  const bin = join(prefix, 'node_modules', 'ccusage', 'dist', 'index.js');
  if (existsSync(bin)) return bin;
  mkdirSync(prefix, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--prefix', prefix, `ccusage@${CCUSAGE}`, '--no-audit', '--no-fund', '--loglevel=error'],
    // the install is not timed: it keeps the machine's own certificates (a proxy's, say), which baseEnv drops
    { encoding: 'utf8' },
  );
  if (r.status === 0 && existsSync(bin)) return bin;
  console.log(
    `\nccusage ${CCUSAGE}: its row is skipped, it could not be installed (${(r.error?.message ?? r.stderr).trim().split('\n')[0] || `npm exited ${r.status}`}).`,
  );
  return undefined;
}

/**
 * Wall seconds of two one-thread scans at once, each of half the history's projects: what the machine gives
 * two scan threads, background work and all. A thread alone has the other core for its garbage collector and
 * compiler, which a CPU loop does not use, so two CPU loops overstate it.
 */
function halvesAtOnce(projects) {
  const half = Math.ceil(projects.length / 2);
  const parts = [projects.slice(0, half), projects.slice(half)].map((list) => list.map((p) => p.folder));
  const t = process.hrtime.bigint();
  const one = (folders) =>
    new Promise((done, fail) =>
      spawn(NODE, [CLI, 'scan', '--json', '--threads', '1', ...folders], {
        cwd: work,
        env: { ...baseEnv, HOME: work, STALLGUARD_HOME: join(work, 'scan-home') },
        stdio: 'ignore',
      })
        .on('exit', (code) =>
          code === 0 || code === 1 ? done() : fail(new Error(`scan of half the history exited ${code}`)),
        )
        .on('error', fail),
    );
  return Promise.all(parts.map(one)).then(() => Number(process.hrtime.bigint() - t) / 1e9);
}

/** Wall seconds of n node processes at once, each running the same CPU-bound loop. */
function cpuLoops(n) {
  const t = process.hrtime.bigint();
  const one = () =>
    new Promise((done, fail) =>
      spawn(NODE, ['-e', 'let x = 0; for (let i = 0; i < 3e9; i++) x += i & 1; if (x < 0) console.log(x);'], {
        env: baseEnv,
        stdio: 'ignore',
      }).on('exit', (code) => (code === 0 ? done() : fail(new Error(`cpu loop exited ${code}`)))),
    );
  return Promise.all(Array.from({ length: n }, one)).then(() => Number(process.hrtime.bigint() - t) / 1e9);
}

async function scanSection() {
  const root = join(tmpdir(), 'stallguard-bench');
  mkdirSync(root, { recursive: true });
  progress(`the generated Claude Code history (${Math.round(HISTORY_BYTES / (1 << 20))} MB) in ${root}`);
  const history = ensureHistory(root, HISTORY_BYTES, progress);
  const mb = (b) => b / (1 << 20);
  const MB = mb(history.bytes);

  // side by side: the cases of each round in a new random order, so that the machine's noise falls on all alike
  const cc = ccusage();
  const cases = [
    { what: 'readline + JSON.parse of every line, one thread (the parse floor)', script: FLOOR, args: [history.dir] },
    { what: 'scan --json --threads 1 (one core)', args: ['scan', '--json', '--threads', '1', history.dir] },
    { what: 'scan --json --threads 2 (two cores)', args: ['scan', '--json', '--threads', '2', history.dir] },
    ...(cc
      ? [
          {
            what: `ccusage ${CCUSAGE} daily --json --offline (token usage only)`,
            script: cc,
            args: ['daily', '--json', '--offline'],
            env: { CLAUDE_CONFIG_DIR: history.dir },
          },
        ]
      : []),
  ];
  // what two threads can gain on this machine in this run: two CPU-bound processes at once against one
  // (a machine shared with other work gives a second thread less than a core)
  const loops = [1, 2].map((n) => ({ n, seconds: [] }));
  const halves = { halves: true, seconds: [] };
  const runs = new Map(cases.map((c) => [c, []]));
  for (let round = 0; round < SCAN_ROUNDS; round++) {
    progress(`scan, round ${round + 1} of ${SCAN_ROUNDS}`);
    for (const c of shuffle([...cases, ...loops, halves]))
      if (c.n) c.seconds.push(await cpuLoops(c.n));
      else if (c.halves) c.seconds.push(await halvesAtOnce(history.projects));
      else runs.get(c).push(measureCli(c.args, c.env, c.script));
  }
  const median = (list) => quantile(list, 0.5);
  const seconds = (c) => median(runs.get(c).map((m) => m.seconds));
  const machine = (2 * median(loops[0].seconds)) / median(loops[1].seconds);
  table(
    `Scan of a generated Claude Code history, side by side (${MB.toFixed(0)} MB in ${history.sessions} sessions; medians of ${SCAN_ROUNDS} interleaved rounds)`,
    ['case', 'seconds', 'MB/s', 'CPU seconds', 'cores it had', 'peak RSS MB'],
    cases.map((c) => [
      c.what,
      seconds(c).toFixed(2),
      (MB / seconds(c)).toFixed(1),
      median(runs.get(c).map((m) => m.cpu)).toFixed(2),
      median(runs.get(c).map((m) => m.cpu / m.seconds)).toFixed(2),
      median(runs.get(c).map((m) => m.rss)).toFixed(0),
    ]),
    [
      `two threads against one: ${x(seconds(cases[1]) / seconds(cases[2]))} as fast; one thread against the parse floor: ${x(seconds(cases[0]) / seconds(cases[1]))} its speed${cc ? `; two threads against ccusage: ${x(seconds(cases[3]) / seconds(cases[2]))} as fast` : ''}.`,
      `The machine in the same rounds: two CPU-bound node processes at once did ${x(machine)} the work of one in the same time; two one-thread scans at once, each of half the projects, took ${median(halves.seconds).toFixed(2)} s, ${x(seconds(cases[1]) / median(halves.seconds))} as fast as one thread over all of them: the most two threads could gain in this run, with nothing shared between them.`,
      "Targets: 45 MB/s or more on one core, 1.7x that on two, faster than ccusage 18. CPU seconds are of all the process's threads; the cores it had are its CPU seconds a second (below 1 for one thread, or 2 for two, where other work took the rest).",
    ],
  );

  const one = history.projects[0];
  const rows = [];
  const add = (what, bytes, m) =>
    rows.push([what, mb(bytes).toFixed(0), m.seconds.toFixed(1), (mb(bytes) / m.seconds).toFixed(1), m.rss.toFixed(0)]);
  progress('scan, one project (an eighth)');
  add('scan --json, one project', one.bytes, measureCli(['scan', '--json', one.folder]));
  progress('scan, everything');
  add('scan --json, whole history', history.bytes, measureCli(['scan', '--json', history.dir]));
  const files = filesUnder(history.dir);
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  progress('replay, everything');
  add('replay --json, every file', bytes, measureCli(['replay', '--json', ...files]));
  table(
    `Memory of scan and replay over the same history (node -r bench/rss.cjs for the peak RSS; scan in its default threads)`,
    ['command', 'MB', 'seconds', 'MB/s', 'peak RSS MB'],
    rows,
    [
      'Memory flat in the input size: compare the one-project row with the whole history.',
      'replay stops reading a session at the point where it would have stopped the agent, so it reads less than the MB shown.',
    ],
  );
}

// ---------------------------------------------------------------- main

console.log(
  `# stallguard bench\n\nnode ${process.version} on ${process.platform}/${process.arch}, ${(await import('node:os')).cpus().length} cores; ${new Date().toISOString()}`,
);
let hook;
try {
  if (want('hook')) hook = await hookSection();
  if (want('concurrency')) await concurrencySection();
  if (want('agents')) await agentsSection();
  if (want('daemon')) await daemonSection(hook);
  if (want('claude')) claudeSection();
  if (want('scan')) await scanSection();
} finally {
  rmSync(work, { recursive: true, force: true });
}
