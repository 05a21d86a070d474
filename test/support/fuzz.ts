import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { AgentName } from '../../src/types.ts';
import { adapterFor } from '../../src/adapters/detect.ts';
import { AGENTS, runHook } from '../../src/hook/run-hook.ts';
import { cleanEnv, HOOK } from './hook-process.ts';
import { FIXTURES } from './hook.ts';

// Bad input for every registered adapter, from every direction: payloads shaped like the agents' own
// (from their recorded samples and field names) with values of the wrong type, truncated JSON, 10 MB
// strings, deep nesting, invalid UTF-8, and plain garbage. Whatever arrives, the hook exits 0 and prints
// nothing or one valid response. Shared by the tests (few runs) and `npm run bench` (many).

/** Every agent with an adapter registered: new adapters are fuzzed as soon as they are registered. */
export function registeredAgents(): AgentName[] {
  return AGENTS.filter((a) => adapterFor(a) !== undefined);
}

/** The agent's recorded hook payloads, where we have them (test/fixtures/payloads). */
export function samples(agent: AgentName): Record<string, unknown>[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.startsWith(`${agent}-`) && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as unknown)
    .filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
}

/** Event names of every agent's hooks (../shared/reference/agent-hooks.md), in both Copilot dialects. */
const EVENTS = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'Notification',
  'PreCompact',
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'PreCompress',
  'sessionStart',
  'sessionEnd',
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeShellExecution',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterFileEdit',
  'beforeReadFile',
  'subagentStart',
  'subagentStop',
  'stop',
  'beforeSubmitPrompt',
  'userPromptSubmitted',
  'agentStop',
  'errorOccurred',
  'permissionRequest',
];
const TOOLS = [
  'Bash',
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'Grep',
  'Glob',
  'Agent',
  'Task',
  'WebFetch',
  'run_shell_command',
  'read_file',
  'write_file',
  'replace',
  'apply_patch',
  'spawn_agent',
  'Shell',
  'Delete',
  'bash',
  'view',
  'create',
  'edit',
  'task',
  'agent',
  'grep_search',
  'mcp__fs__write_file',
  '',
];
/** Every field name the agents' payloads use. */
const FIELDS = [
  'hook_event_name',
  'session_id',
  'transcript_path',
  'cwd',
  'prompt_id',
  'permission_mode',
  'agent_id',
  'agent_type',
  'tool_name',
  'tool_input',
  'tool_response',
  'tool_use_id',
  'error',
  'is_interrupt',
  'prompt',
  'last_assistant_message',
  'stop_hook_active',
  'tool_calls',
  'turn_id',
  'model',
  'timestamp',
  'prompt_response',
  'llm_request',
  'conversation_id',
  'generation_id',
  'cursor_version',
  'workspace_roots',
  'tool_output',
  'command',
  'file_path',
  'status',
  'loop_count',
  'subagent_type',
  'sessionId',
  'toolName',
  'toolArgs',
  'toolResult',
  'source',
  'reason',
  'duration_ms',
  'submitted_prompt',
  'tool_call_id',
  'hookName',
  'toolInput',
  'agentId',
  'agentType',
  'parentAgentId',
  'agentName',
  'response',
];

const anyJson = fc.jsonValue({ maxDepth: 4 });
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '../../etc/passwd', 'npm test', 'rm -rf .claude', '\u0000', '\ud800', 'Exit code 1'),
);

/** A tool input an agent might send: its usual fields, any of them of any type. */
const toolInput = fc.oneof(
  fc.record(
    {
      command: text,
      file_path: text,
      description: text,
      pattern: text,
      content: text,
      subagent_type: text,
      prompt: text,
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(
    fc.constantFrom('command', 'file_path', 'path', 'old_string', 'new_string', 'edits', 'cmd', 'url', 'query'),
    anyJson,
  ),
  text.map((s) => JSON.stringify({ command: s })), // Copilot's toolArgs as a JSON string
  anyJson,
);

/** Mostly a value the agent would send, sometimes anything at all. */
const usually = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: anyJson });

/** Payloads in the agents' shapes, with every field possibly missing or of the wrong type; mostly the agent's own events. */
const shaped = (agent: AgentName) => {
  const own = [
    ...new Set(
      samples(agent)
        .map((s) => s.hook_event_name)
        .filter((e): e is string => typeof e === 'string'),
    ),
  ];
  const events =
    own.length > 0
      ? fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...own) },
          { weight: 1, arbitrary: fc.constantFrom(...EVENTS) },
        )
      : fc.constantFrom(...EVENTS);
  return fc
    .record(
      {
        hook_event_name: usually(events),
        session_id: usually(fc.oneof(fc.constantFrom('fz-1', 'fz-2'), text)),
        cwd: usually(fc.oneof(fc.constant('/tmp'), text)),
        tool_name: usually(fc.constantFrom(...TOOLS)),
        tool_input: toolInput,
        tool_response: anyJson,
        agent_id: usually(fc.constantFrom('a1', 'a2')),
        agent_type: usually(fc.constantFrom('Explore', 'general-purpose')),
        prompt_id: usually(fc.constantFrom('p1', 'p2')),
        error: usually(text),
        is_interrupt: anyJson,
        stop_hook_active: anyJson,
        last_assistant_message: usually(text),
        conversation_id: usually(fc.constant('fz-c')),
        sessionId: usually(fc.constant('fz-s')),
        toolName: usually(fc.constantFrom(...TOOLS)),
        toolArgs: toolInput,
        turn_id: usually(fc.constant('t1')),
      },
      { requiredKeys: ['hook_event_name', 'session_id', 'cwd'] },
    )
    .chain((p) =>
      fc.dictionary(fc.constantFrom(...FIELDS), anyJson, { maxKeys: 3 }).map((extra) => ({ ...extra, ...p })),
    );
};

/** A recorded sample with fields removed or replaced by anything. */
function mutated(agent: AgentName): fc.Arbitrary<unknown> {
  const list = samples(agent);
  if (list.length === 0) return shaped(agent);
  return fc
    .tuple(
      fc.constantFrom(...list),
      fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.option(anyJson)), { maxLength: 4 }),
    )
    .map(([sample, edits]) => {
      const out: Record<string, unknown> = { ...sample };
      for (const [field, value] of edits) {
        if (value === null) delete out[field];
        else out[field] = value;
      }
      return out;
    });
}

/** Stdin as text: what the in-process runs feed runHook. */
export function stdinArbitrary(agent: AgentName): fc.Arbitrary<string> {
  const payload = fc.oneof(shaped(agent), mutated(agent));
  return fc.oneof(
    { weight: 5, arbitrary: payload.map((p) => JSON.stringify(p)) },
    // JSON cut anywhere, as a killed or timed-out writer would leave it
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          payload.map((p) => JSON.stringify(p)),
          fc.double({ min: 0, max: 1, noNaN: true }),
        )
        .map(([s, at]) => s.slice(0, Math.floor(s.length * at))),
    },
    { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    // lone surrogates and replacement characters: what invalid UTF-8 becomes once decoded
    { weight: 1, arbitrary: payload.map((p) => JSON.stringify(p).replace(/"([^"]{0,8})"/, '"$1\ud800\ufffd"')) },
  );
}

/** The big ones, each a few: 10 MB strings in each field that reaches the store, and nesting 100 000 deep. */
export function heavyStdin(agent: AgentName): string[] {
  const base = samples(agent).find((s) => s.hook_event_name === 'PostToolUse' || s.hook_event_name === 'AfterTool') ?? {
    hook_event_name: 'PostToolUse',
    session_id: 'fz-big',
    tool_name: 'Bash',
    tool_input: { command: 'x' },
    tool_response: '',
    cwd: '/tmp',
  };
  const big = 'x'.repeat(10 << 20);
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const json = JSON.stringify(base);
  return [
    JSON.stringify({ ...base, tool_input: { command: big } }),
    JSON.stringify({ ...base, tool_response: big }),
    JSON.stringify({ ...base, session_id: big, agent_id: big, cwd: big }),
    // last, so that they win over the sample's own fields of the same name
    json.replace(/\}$/, `, "tool_input": ${deep(100_000)}}`),
    json.replace(/\}$/, `, "tool_response": ${deep(5_000)}}`),
    `{"a":${deep(1_000_000)}}`,
  ];
}

/** Raw bytes for the real process: invalid UTF-8 in every place, inside and outside strings. */
export function invalidUtf8(agent: AgentName): Buffer[] {
  const json = Buffer.from(
    JSON.stringify(
      samples(agent)[0] ?? {
        hook_event_name: 'PreToolUse',
        session_id: 'fz',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      },
    ),
  );
  const bad = [
    Buffer.from([0xff, 0xfe]),
    Buffer.from([0xc3, 0x28]),
    Buffer.from([0xe2, 0x82]),
    Buffer.from([0xf0, 0x9f, 0x98]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0x00]),
  ];
  const at = json.indexOf('"', 20) + 1;
  return bad.flatMap((b) => [
    Buffer.concat([json.subarray(0, at), b, json.subarray(at)]),
    Buffer.concat([b, json]),
    Buffer.concat([json, b]),
  ]);
}

/** The one property: nothing, or exactly one JSON object on one line. */
export function assertResponse(stdout: string, what: string): void {
  const out = stdout.replace(/\n$/, '');
  if (out === '') return;
  if (out.includes('\n')) throw new Error(`${what}: more than one line on stdout: ${out.slice(0, 200)}`);
  let v: unknown;
  try {
    v = JSON.parse(out);
  } catch {
    throw new Error(`${what}: stdout is not JSON: ${out.slice(0, 200)}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new Error(`${what}: stdout is not a JSON object: ${out.slice(0, 200)}`);
}

/**
 * Lines of errors.log that are not a complaint about the input itself: an exception there is a bug the
 * fail-open path hid, and the fuzz run reports it as a failure.
 */
export function internalErrors(stallguardHome: string): string[] {
  const file = join(stallguardHome, 'errors.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l && !/ hook: stdin is not (?:JSON|a JSON object)| config: /.test(l));
}

/** One in-process run through the hook's own entry; with and without --agent, as agents install it either way. */
export function runInProcess(agent: AgentName, stdin: string, env: Record<string, string>, flag: boolean): void {
  const out = runHook({ stdin, argv: flag ? ['--agent', agent] : [], env });
  assertResponse(out.stdout, `${agent} in process`);
}

/** One run of the real bundled hook; the exit code, the time it took, and the response checked. */
export function runProcess(agent: AgentName, stdin: string | Buffer, env: Record<string, string>): number {
  const start = Date.now();
  const r = spawnSync(process.execPath, [HOOK, '--agent', agent], {
    input: stdin,
    env: cleanEnv(env),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    timeout: 60_000,
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${agent}: exit ${r.status} (${r.signal ?? ''}): ${r.stderr.slice(0, 300)}`);
  assertResponse(r.stdout, `${agent} process`);
  return Date.now() - start;
}
