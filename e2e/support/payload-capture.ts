import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureClaudeCode } from './claude-code.ts';
import { claudeArgs, claudeEnv, PROJ } from './claude-session.ts';
import { SUB_MARKER } from './claude-scripts.ts';
import { codexArgs, ensureCodex, providerConfig } from './codex-session.ts';
import { startFakeAnthropic } from './fake-anthropic.ts';
import { startFakeGemini } from './fake-gemini.ts';
import { LAST_AGENT_ID, SHELL, startFakeOpenAI } from './fake-openai.ts';
import { ensureGemini, geminiArgs, writeGeminiSettings } from './gemini-session.ts';
import { mapStrings, type ModelScript } from './model-script.ts';
import { checkScratch, makeScratch, REPO, runClient, type Scratch, scratchEnv } from './scratch.ts';

// The hook payloads the unit tests read (test/fixtures/payloads), captured from the real CLIs: each client
// runs a short scripted session (a failing npm test, a file read, a subagent doing the same) with a hook
// that only records what it is sent, registered for every event the client has. The first payload of
// each kind becomes a fixture, named <agent>-<event>[-<tool>][-sub].json, with the scratch paths written
// as a developer's (/home/dev/proj).

export const FIXTURES = join(REPO, 'test', 'fixtures', 'payloads');
const RECORDER = join(REPO, 'e2e', 'support', 'record-payload.mjs');

export type Payload = Record<string, unknown>;

function recorder(log: string): string {
  return `node ${JSON.stringify(RECORDER)} ${JSON.stringify(log)}`;
}

/** Settings in the hooks format Claude Code, Codex and Gemini share, with the recorder on each event. */
function hookSettings(
  events: string[],
  command: string,
  withMatcher: (event: string) => boolean,
  extra: Record<string, unknown> = {},
) {
  return {
    hooks: Object.fromEntries(
      events.map((e) => [
        e,
        [{ ...(withMatcher(e) ? { matcher: '*' } : {}), hooks: [{ type: 'command', command, ...extra }] }],
      ]),
    ),
  };
}

function recorded(log: string): Payload[] {
  return existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Payload)
    : [];
}

const CLAUDE_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionEnd',
];
const CLAUDE_TOOL_EVENTS = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
]);

/** Claude Code: a failing npm test, a read, a command that works, and a subagent that tests and reads. */
const CLAUDE_SCRIPT: ModelScript = {
  subMarker: SUB_MARKER,
  main: [
    [{ tool: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }],
    [{ tool: 'Read', input: { file_path: `${PROJ}/test.js` } }],
    [{ tool: 'Bash', input: { command: 'ls', description: 'List the files' } }],
    [
      {
        tool: 'Agent',
        input: {
          description: 'Check the tests',
          prompt: `${SUB_MARKER}: run npm test and read src/math.js`,
          subagent_type: 'general-purpose',
        },
      },
    ],
    [{ text: 'MAIN-DONE: captured.' }],
  ],
  sub: [
    [{ tool: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }],
    [{ tool: 'Read', input: { file_path: `${PROJ}/src/math.js` } }],
    [{ text: 'SUB-RESULT: one test fails.' }],
  ],
};

export async function captureClaude(): Promise<{ scratch: Scratch; payloads: Payload[] }> {
  const cli = ensureClaudeCode();
  const scratch = makeScratch('capture-claude', 'off');
  const log = join(scratch.root, 'payloads.jsonl');
  mkdirSync(join(scratch.project, '.claude'));
  writeFileSync(
    join(scratch.project, '.claude', 'settings.json'),
    JSON.stringify(
      hookSettings(CLAUDE_EVENTS, recorder(log), (e) => CLAUDE_TOOL_EVENTS.has(e)),
      null,
      2,
    ),
  );
  const server = await startFakeAnthropic(
    mapStrings(CLAUDE_SCRIPT, (s) => s.replaceAll(PROJ, scratch.project)),
    scratch.requestsLog,
  );
  await runClient(scratch, cli, claudeArgs(cli, 'check the tests'), { env: claudeEnv(scratch, server.url), server });
  return { scratch, payloads: recorded(log) };
}

const CODEX_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Stop',
  'SubagentStart',
  'SubagentStop',
];

/** Codex: a failing npm test, then a subagent (spawn_agent, then wait_agent) that runs it too. */
const CODEX_SCRIPT: ModelScript = {
  subMarker: SUB_MARKER,
  main: [
    [{ tool: SHELL, input: { command: 'npm test' } }],
    [
      {
        tool: 'spawn_agent',
        namespace: 'multi_agent_v1',
        input: { message: `${SUB_MARKER}: run npm test and report` },
      },
    ],
    [{ tool: 'wait_agent', namespace: 'multi_agent_v1', input: { targets: [LAST_AGENT_ID], timeout_ms: 30000 } }],
    [{ text: 'Main finished.' }],
  ],
  sub: [[{ tool: SHELL, input: { command: 'npm test' } }], [{ text: 'SUB-RESULT: one test fails.' }]],
};

export async function captureCodex(): Promise<{ scratch: Scratch; payloads: Payload[] }> {
  const cli = ensureCodex();
  const scratch = makeScratch('capture-codex', 'off');
  const log = join(scratch.root, 'payloads.jsonl');
  const codexHome = join(scratch.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  // Codex matchers are regexes: no matcher is every tool
  writeFileSync(
    join(codexHome, 'hooks.json'),
    JSON.stringify(
      hookSettings(CODEX_EVENTS, recorder(log), () => false, { timeout: 10 }),
      null,
      2,
    ),
  );
  const server = await startFakeOpenAI(CODEX_SCRIPT, scratch.requestsLog);
  writeFileSync(join(codexHome, 'config.toml'), providerConfig(server.url));
  await runClient(scratch, cli, codexArgs(cli, 'fix the failing tests'), {
    env: scratchEnv(scratch, { CODEX_HOME: codexHome, FAKE_OPENAI_KEY: 'sk-e2e-test' }),
    server,
  });
  return { scratch, payloads: recorded(log) };
}

const GEMINI_EVENTS = [
  'SessionStart',
  'BeforeAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'BeforeTool',
  'AfterTool',
  'AfterAgent',
  'PreCompress',
  'SessionEnd',
];

/** Gemini CLI: a failing npm test, then the end of the turn. */
const GEMINI_SCRIPT: ModelScript = {
  main: [
    [{ tool: 'run_shell_command', input: { command: 'npm test', description: 'run' } }],
    [{ text: 'Running tests.\nFinished.' }],
  ],
};

export async function captureGemini(): Promise<{ scratch: Scratch; payloads: Payload[] }> {
  const cli = ensureGemini();
  const scratch = makeScratch('capture-gemini', 'off');
  const log = join(scratch.root, 'payloads.jsonl');
  writeGeminiSettings(
    scratch,
    hookSettings(GEMINI_EVENTS, recorder(log), (e) => e === 'BeforeTool' || e === 'AfterTool', {
      name: 'recorder',
      timeout: 10_000,
    }),
  );
  const server = await startFakeGemini(GEMINI_SCRIPT, scratch.requestsLog);
  await runClient(scratch, cli, geminiArgs(cli, 'fix the tests'), {
    env: scratchEnv(scratch, { GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'sk-e2e-test' }),
    server,
  });
  return { scratch, payloads: recorded(log) };
}

/** The fixture name of a payload: the agent, its event, the tool it is about, and whether a subagent sent it. */
export function fixtureName(agent: string, p: Payload): string {
  const tool = typeof p.tool_name === 'string' ? `-${p.tool_name.replace(/[^A-Za-z0-9_]/g, '_')}` : '';
  return `${agent}-${String(p.hook_event_name)}${tool}${p.agent_id ? '-sub' : ''}.json`;
}

/** The payload with the scratch folders written as a developer's: /home/dev for HOME, /home/dev/proj for the project. */
export function normalized(p: Payload, scratch: Scratch): Payload {
  const places: [string, string][] = [
    [scratch.project, '/home/dev/proj'],
    // Claude Code names a project's transcript folder after its path, with dashes for the slashes
    [scratch.project.replace(/[^A-Za-z0-9]/g, '-'), '-home-dev-proj'],
    [scratch.home, '/home/dev'],
    [scratch.root, '/tmp/e2e'],
  ];
  let text = JSON.stringify(p);
  for (const [from, to] of places) text = text.split(JSON.stringify(from).slice(1, -1)).join(to);
  return JSON.parse(text) as Payload;
}

/** The first payload of each kind, by fixture name. */
export function fixturesOf(agent: string, payloads: Payload[], scratch: Scratch): Map<string, Payload> {
  const out = new Map<string, Payload>();
  for (const p of payloads) {
    const name = fixtureName(agent, p);
    if (!out.has(name)) out.set(name, normalized(p, scratch));
  }
  return out;
}

export function committedFixtures(agent: string): string[] {
  return existsSync(FIXTURES)
    ? readdirSync(FIXTURES).filter((f) => f.startsWith(`${agent}-`) && f.endsWith('.json'))
    : [];
}

export function writeFixtures(fixtures: Map<string, Payload>): void {
  mkdirSync(FIXTURES, { recursive: true });
  for (const [name, p] of fixtures) writeFileSync(join(FIXTURES, name), JSON.stringify(p, null, 2) + '\n');
}

/**
 * The shape of a payload two levels deep: each field's path and JSON type, so that a client that renames,
 * drops or retypes a field shows, while what a tool returned (deeper down) may differ from run to run.
 */
export function shape(v: unknown, depth = 2, path = ''): string[] {
  const type = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
  if (depth === 0 || type !== 'object') return [`${path || '.'}: ${type}`];
  return Object.entries(v as object)
    .flatMap(([k, x]) => shape(x, depth - 1, path ? `${path}.${k}` : k))
    .sort();
}

/**
 * The e2e check of one client's fixtures: every committed one is a payload the pinned CLI still sends, in
 * the same shape. STALLGUARD_UPDATE_FIXTURES=1 writes what was captured instead.
 */
export async function checkFixtures(
  agent: string,
  capture: () => Promise<{ scratch: Scratch; payloads: Payload[] }>,
): Promise<void> {
  const { scratch, payloads } = await capture();
  await checkScratch(scratch, () => {
    const fresh = fixturesOf(agent, payloads, scratch);
    if (process.env.STALLGUARD_UPDATE_FIXTURES === '1') {
      writeFixtures(fresh);
      console.log(`${agent}: wrote ${fresh.size} payload fixtures to ${FIXTURES}: ${[...fresh.keys()].join(', ')}`);
      return;
    }
    const committed = committedFixtures(agent);
    assert.ok(
      committed.length > 0,
      `no ${agent} fixtures in ${FIXTURES}: STALLGUARD_UPDATE_FIXTURES=1 node scripts/test.mjs ${agent}-payloads writes them`,
    );
    for (const name of committed) {
      const now = fresh.get(name);
      assert.ok(now, `${name}: the CLI sent no such payload this time (captured: ${[...fresh.keys()].join(', ')})`);
      assert.deepEqual(
        shape(now),
        shape(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))),
        `${name} changed shape; if the CLI's new version means it, STALLGUARD_UPDATE_FIXTURES=1 rewrites the fixtures`,
      );
    }
    console.log(`${agent}: ${committed.length} payload fixtures match what the CLI sends`);
  });
}
