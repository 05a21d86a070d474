import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SEED_RULE } from './config.ts';

// Agent histories written the way each agent writes them, for process-level tests of scan and report:
// a session that loops on a failing test (`repeats` identical runs), for each agent's own format.

export const FAIL = '> proj@1.0.0 test\n> node test.js\n\nrunning tests\n1 passed, 1 failed';

/**
 * A working folder whose .stallguard.json pins the seed rule (the judge off). These tests are about what a
 * stall costs and how it is reported: the seed rule's counts are exact and easy to read, and the judge has
 * tests of its own. Run the CLI with this as its cwd.
 */
export const SEED_CWD = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'stallguard-seed-'));
  writeFileSync(join(dir, '.stallguard.json'), JSON.stringify(SEED_RULE));
  return dir;
})();

export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'stallguard-home-'));
}

export function write(file: string, lines: string[]): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** A Claude Code transcript: a prompt, a Read, then `repeats` failing `npm test` runs, each response with its usage. */
export function claudeTranscript(
  session: string,
  opts: { repeats?: number; agentId?: string; cwd?: string; model?: string } = {},
): string[] {
  const cwd = opts.cwd ?? '/home/dev/proj';
  const side = opts.agentId ? { isSidechain: true, agentId: opts.agentId } : { isSidechain: false };
  const base = (i: number) => ({
    uuid: `u-${session}-${i}`,
    sessionId: session,
    cwd,
    timestamp: `2026-11-20T10:${String(i).padStart(2, '0')}:00Z`,
    version: '2.1.197',
    ...side,
  });
  const lines: string[] = [
    JSON.stringify({ type: 'user', message: { role: 'user', content: 'The invoice test fails. Fix it.' }, ...base(0) }),
  ];
  const call = (i: number, name: string, input: object, result: string, isError: boolean) => {
    const who = opts.agentId ? `${session}_${opts.agentId}` : session;
    const id = `toolu_${who}_${i}`;
    const usage = {
      input_tokens: 10,
      output_tokens: 100,
      cache_creation_input_tokens: 1000,
      cache_read_input_tokens: 20000,
    };
    const message = (content: object[], output: number) => ({
      id: `msg_${who}_${i}`,
      role: 'assistant',
      model: opts.model ?? 'claude-opus-4-6',
      content,
      usage: { ...usage, output_tokens: output },
    });
    // one response written as two lines, the first with a partial output count
    lines.push(
      JSON.stringify({
        type: 'assistant',
        requestId: `req_${who}_${i}`,
        message: message([{ type: 'thinking', thinking: '…' }], 2),
        ...base(i),
      }),
    );
    lines.push(
      JSON.stringify({
        type: 'assistant',
        requestId: `req_${who}_${i}`,
        message: message([{ type: 'tool_use', id, name, input }], 100),
        ...base(i),
      }),
    );
    lines.push(
      JSON.stringify({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }],
        },
        ...base(i),
      }),
    );
  };
  call(1, 'Read', { file_path: `${cwd}/test/invoice.test.js` }, 'test(...)', false);
  for (let i = 0; i < (opts.repeats ?? 6); i++)
    call(2 + i, 'Bash', { command: 'npm test', description: 'Run tests' }, `Exit code 1\n${FAIL}`, true);
  return lines;
}

/** A Codex rollout (envelope lines), `repeats` failing shell runs of npm test. */
export function codexRollout(id: string, repeats = 6): string[] {
  const line = (type: string, payload: object) =>
    JSON.stringify({ timestamp: '2026-11-29T20:27:23.000Z', type, payload });
  const lines = [
    line('session_meta', { id, cwd: '/home/dev/api', cli_version: '0.171.0', source: 'cli' }),
    line('turn_context', { cwd: '/home/dev/api', model: 'gpt-5.3-codex' }),
    line('response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'make the tests pass' }],
    }),
  ];
  for (let i = 0; i < repeats; i++) {
    lines.push(
      line('response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'npm test'] }),
        call_id: `call_${i}`,
      }),
    );
    lines.push(
      line('event_msg', {
        type: 'token_count',
        info: {
          last_token_usage: { input_tokens: 5000, cached_input_tokens: 4000, output_tokens: 50 },
          total_token_usage: {
            input_tokens: 5000 * (i + 1),
            cached_input_tokens: 4000 * (i + 1),
            output_tokens: 50 * (i + 1),
          },
        },
      }),
    );
    lines.push(
      line('response_item', {
        type: 'function_call_output',
        call_id: `call_${i}`,
        output: JSON.stringify({ output: FAIL, metadata: { exit_code: 1, duration_seconds: 0.4 } }),
      }),
    );
  }
  return lines;
}

/** A Gemini CLI chat (JSONL), `repeats` failing run_shell_command calls, each message written twice as it grows. */
export function geminiChat(sessionId: string, repeats = 6): string[] {
  const lines = [
    JSON.stringify({
      sessionId,
      projectHash: 'f00d',
      startTime: '2026-11-29T20:29:00.000Z',
      lastUpdated: '2026-11-29T20:29:00.000Z',
    }),
  ];
  lines.push(
    JSON.stringify({
      id: 'u0',
      timestamp: '2026-11-29T20:29:01.000Z',
      type: 'user',
      content: [{ text: 'fix the tests' }],
    }),
  );
  for (let i = 0; i < repeats; i++) {
    const msg = {
      id: `g${i}`,
      timestamp: '2026-11-29T20:29:02.000Z',
      type: 'gemini',
      content: '',
      model: 'gemini-3.1-pro-preview',
      toolCalls: [
        {
          id: `t${i}`,
          name: 'run_shell_command',
          args: { command: 'npm test' },
          result: [
            {
              functionResponse: {
                id: `t${i}`,
                name: 'run_shell_command',
                response: { output: `${FAIL}\nExit Code: 1` },
              },
            },
          ],
          status: 'error',
          timestamp: '2026-11-29T20:29:03.000Z',
        },
      ],
    };
    lines.push(JSON.stringify(msg));
    lines.push(
      JSON.stringify({ ...msg, tokens: { input: 3000, output: 40, cached: 2000, thoughts: 10, tool: 0, total: 3050 } }),
    );
  }
  return lines;
}

/**
 * A Copilot CLI events.jsonl (1.0.102): `repeats` npm test runs that exit 1 (successful calls, the exit code in
 * the trailer), and a subagent that reads one file, in the same file under its agentId.
 */
export function copilotEvents(sessionId: string, repeats = 6): string[] {
  let n = 0;
  const line = (type: string, data: object, extra: object = {}) =>
    JSON.stringify({
      type,
      data,
      id: `e${++n}`,
      timestamp: '2026-12-01T11:18:53.000Z',
      parentId: n > 1 ? `e${n - 1}` : null,
      ...extra,
    });
  const usage = (id: string, calls: number, extra: object = {}) =>
    line(
      'session.usage_record',
      {
        usage: {
          model: 'claude-sonnet-4.5',
          inputTokens: 3000,
          outputTokens: 40,
          cacheReadTokens: 2000,
          cacheWriteTokens: 0,
          apiCallId: id,
          numToolCalls: calls,
        },
      },
      extra,
    );
  const lines = [
    line('session.start', {
      sessionId,
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: '1.0.102',
      context: { cwd: '/home/dev/shop', gitRoot: '/home/dev/shop' },
    }),
    line('user.message', {
      content: 'fix the failing tests',
      transformedContent: '<current_datetime>…</current_datetime>\n\nfix the failing tests',
    }),
  ];
  for (let i = 0; i < repeats; i++) {
    lines.push(usage(`api${i}`, 1));
    lines.push(
      line('tool.execution_start', {
        toolCallId: `call_${i}`,
        toolName: 'bash',
        arguments: { command: 'npm test', description: 'Run the tests' },
      }),
    );
    lines.push(
      line('tool.execution_complete', {
        toolCallId: `call_${i}`,
        success: true,
        shellExecution: { exitCode: 1 },
        result: { content: `${FAIL}\n<shellId: ${i} completed with exit code 1>` },
      }),
    );
  }
  const sub = { agentId: 'ebf2053b-1237-46d9-91b5-a101fb3b175a' };
  lines.push(
    line('tool.execution_start', {
      toolCallId: 'call_task',
      toolName: 'task',
      arguments: { description: 'look', prompt: 'look around', agent_type: 'explore' },
    }),
  );
  lines.push(line('subagent.started', { toolCallId: 'call_task', agentName: 'explore', agentType: 'explore' }, sub));
  lines.push(line('user.message', { content: 'look around', source: `agent-${sessionId}` }, sub));
  lines.push(
    line(
      'tool.execution_start',
      {
        toolCallId: 'call_sub',
        toolName: 'view',
        arguments: { path: '/home/dev/shop/src/cart.js' },
        parentToolCallId: 'call_task',
      },
      sub,
    ),
  );
  lines.push(
    line(
      'tool.execution_complete',
      { toolCallId: 'call_sub', success: false, error: { message: 'Path does not exist', code: 'failure' } },
      sub,
    ),
  );
  lines.push(
    line('tool.execution_complete', { toolCallId: 'call_task', success: true, result: { content: 'nothing there' } }),
  );
  return lines;
}

/** A Qwen Code chat (0.24.4): `repeats` failing run_shell_command calls, each response with its usage. */
export function qwenChat(sessionId: string, repeats = 6): string[] {
  let n = 0;
  const base = () => ({
    uuid: `q${++n}`,
    parentUuid: n > 1 ? `q${n - 1}` : null,
    sessionId,
    timestamp: '2026-12-01T11:24:16.347Z',
    cwd: '/home/dev/billing',
    version: '0.24.4',
  });
  const lines = [
    JSON.stringify({
      ...base(),
      type: 'user',
      provenance: 'real_user',
      message: { role: 'user', parts: [{ text: 'fix the failing tests' }] },
    }),
  ];
  for (let i = 0; i < repeats; i++) {
    const usageMetadata = {
      promptTokenCount: 3000,
      candidatesTokenCount: 40,
      thoughtsTokenCount: 10,
      totalTokenCount: 3050,
      cachedContentTokenCount: 2000,
    };
    lines.push(
      JSON.stringify({
        ...base(),
        type: 'assistant',
        provenance: 'assistant_output',
        model: 'qwen3-coder-plus',
        message: {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: `call_${i}`,
                name: 'run_shell_command',
                args: { command: 'npm test', description: `attempt ${i}` },
              },
            },
          ],
        },
        usageMetadata,
      }),
    );
    lines.push(
      JSON.stringify({
        ...base(),
        type: 'system',
        subtype: 'ui_telemetry',
        systemPayload: { uiEvent: { 'event.name': 'qwen-code.tool_call' } },
      }),
    );
    const error = `Command: npm test\nDirectory: (root)\nOutput: ${FAIL}\nError: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: ${1000 + i}`;
    lines.push(
      JSON.stringify({
        ...base(),
        type: 'tool_result',
        provenance: 'tool_result',
        message: {
          role: 'user',
          parts: [{ functionResponse: { id: `call_${i}`, name: 'run_shell_command', response: { error } } }],
        },
        toolCallResult: { callId: `call_${i}`, status: 'error' },
      }),
    );
  }
  return lines;
}
