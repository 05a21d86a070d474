import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { claudeDialect } from './claude/dialect.ts';
import { codexDialect } from './codex/dialect.ts';
import { geminiDialect } from './gemini/dialect.ts';
import { copilotDialect } from './copilot/dialect.ts';
import { anyDialect } from './dialects.ts';
import { miniSweAgentDialect } from '../readers/harness/mini-swe-agent.ts';
import { sweAgentDialect } from '../readers/harness/swe-agent.ts';

// Each agent's words for the same facts: the engine sees only the facts.

describe('dialects', () => {
  it(
    'Claude Code: a cancelled parallel call never ran, a refusal is the ' +
      "person's, a rejected edit changed nothing, task lists are bookkeeping",
    () => {
      assert.equal(
        claudeDialect({ name: 'Read', input: {} }, '<tool_use_error>Sibling tool call errored</tool_use_error>', false)
          .facts.skipped,
        true,
      );
      assert.equal(
        claudeDialect(
          { name: 'Bash', input: { command: 'rm x' } },
          "The user doesn't want to proceed with this tool use.",
          false,
        ).facts.refused,
        true,
      );
      assert.equal(
        claudeDialect({ name: 'Edit', input: {} }, '<tool_use_error>String to replace not found in file.', false).facts
          .rejected,
        true,
      );
      assert.equal(
        claudeDialect({ name: 'TodoWrite', input: {} }, 'Todos have been modified successfully.', true).facts
          .bookkeeping,
        true,
      );
      assert.equal(claudeDialect({ name: 'Grep', input: {} }, 'No matches found', true).facts.empty, true);
      assert.equal(claudeDialect({ name: 'mcp__acp__Bash', input: { command: 'ls' } }, '', true).facts.command, 'ls');
    },
  );

  it('Codex: the output is what follows its envelope, and a failed patch was rejected whole', () => {
    const d = codexDialect(
      { name: 'exec_command', input: { cmd: 'npm test' } },
      'Chunk ID: 3f2a1b\nWall time: 0.2 seconds\nProcess exited with code 1\n' +
        'Original token count: 12\nOutput:\n1 failed',
      null,
    );
    assert.deepEqual([d.ok, d.output, d.facts.command], [false, '1 failed', 'npm test']);
    const patch = codexDialect(
      {
        name: 'shell',
        input: {
          command: [
            'bash',
            '-lc',
            "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: docs/a.md\nx\n*** End Patch\nEOF",
          ],
        },
      },
      'failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: ',
      null,
    );
    assert.deepEqual(
      [patch.ok, patch.facts.cls, patch.facts.target, patch.facts.rejected],
      [false, 'edit', 'docs/a.md', true],
    );
    assert.equal(codexDialect({ name: 'update_plan', input: {} }, 'Plan updated', true).facts.bookkeeping, true);
  });

  it('every agent: a question or a plan handed to the person is bookkeeping; waiting on a subagent is a poll', () => {
    assert.equal(claudeDialect({ name: 'AskUserQuestion', input: {} }, 'User answered', true).facts.bookkeeping, true);
    assert.equal(claudeDialect({ name: 'ExitPlanMode', input: {} }, 'User approved', true).facts.bookkeeping, true);
    for (const name of ['update_topic', 'ask_user', 'enter_plan_mode', 'exit_plan_mode'])
      assert.equal(geminiDialect({ name, input: {} }, 'ok', true).facts.bookkeeping, true, name);
    assert.equal(copilotDialect({ name: 'ask_user', input: {} }, 'yes', true).facts.bookkeeping, true);
    // as the rollout names it (codex.test.ts: as its hooks name it, in a captured payload)
    assert.equal(codexDialect({ name: 'wait_agent', input: { targets: ['a'] } }, '', true).facts.cls, 'poll');
  });

  it("newer tools: Claude Code's TaskStop (KillShell before) runs something, Codex's MCP resources are read", () => {
    assert.equal(claudeDialect({ name: 'TaskStop', input: { task_id: 'b1' } }, 'stopped', true).facts.cls, 'exec');
    for (const name of ['list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource'])
      assert.equal(codexDialect({ name, input: {} }, '{"resources":[]}', true).facts.cls, 'read', name);
  });

  it("Codex: older versions' JSON envelope holds the output and the exit code", () => {
    const call = { name: 'shell', input: { command: ['bash', '-lc', 'python - <<PY\nprint(1)\nPY'] } };
    const quiet = codexDialect(call, '{"output":"","metadata":{"exit_code":0,"duration_seconds":0.1}}', null);
    assert.deepEqual([quiet.ok, quiet.output, quiet.facts.empty], [true, '', true]);
    const failed = codexDialect(call, '{"output":"Traceback\\nNameError: x","metadata":{"exit_code":1}}', null);
    assert.deepEqual([failed.ok, failed.output], [false, 'Traceback\nNameError: x']);
    assert.equal(codexDialect(call, '{"output": not json', null).output, '{"output": not json');
  });

  it('Gemini CLI: a shell call that exited non-zero failed, though its status says success', () => {
    const d = geminiDialect(
      { name: 'run_shell_command', input: { command: 'ls nope' } },
      'Command: ls nope\nDirectory: (root)\nOutput: ls: nope: No such file or directory\n' +
        'Error: (none)\nExit Code: 1\nProcess Group PGID: 11263',
      true,
    );
    assert.deepEqual([d.ok, d.output], [false, 'ls: nope: No such file or directory']);
    const split = geminiDialect(
      { name: 'run_shell_command', input: { command: 'eww reload' } },
      'Command: eww reload\nDirectory: (root)\nStdout: (empty)\nStderr: error: Input ended unexpectedly\n' +
        'Error: (none)\nExit Code: 0\nSignal: (none)',
      true,
    );
    assert.deepEqual([split.ok, split.output, split.facts.empty], [true, 'error: Input ended unexpectedly', undefined]);
    assert.equal(
      geminiDialect(
        { name: 'replace', input: {} },
        'Error: Failed to edit, 0 occurrences found for old_string in a.jsx',
        false,
      ).facts.rejected,
      true,
    );
    assert.equal(
      geminiDialect({ name: 'write_file', input: {} }, "Error: params must have required property 'file_path'", false)
        .facts.malformed,
      true,
    );
    // a cancel comes with `Error: ` before it or bare, by where the call was stopped
    for (const text of [
      'Error: [Operation Cancelled] Reason: User denied execution.',
      '[Operation Cancelled] Reason: User cancelled tool execution.',
    ])
      assert.equal(geminiDialect({ name: 'run_shell_command', input: {} }, text, false).facts.refused, true, text);
  });

  it("harnesses: mini-swe-agent's return codes and format errors, SWE-agent's footers and rejected edits", () => {
    const mini = miniSweAgentDialect(
      { name: 'python', input: { command: 'python repro.py' } },
      '<returncode>1</returncode>\n<output>\nTraceback\n</output>',
      null,
    );
    assert.deepEqual([mini.ok, mini.output, mini.facts.command], [false, 'Traceback', 'python repro.py']);
    assert.equal(
      miniSweAgentDialect({ name: '<format_error>', input: {} }, 'Please always provide EXACTLY ONE action', null).facts
        .malformed,
      true,
    );
    const edit = sweAgentDialect(
      { name: 'edit', input: { command: 'edit 10:12\nx\nend_of_edit' } },
      'Your proposed edit has introduced new syntax error(s).\n\n(Open file: /r/a.py)\n(Current directory: /r)\nbash-$',
      null,
    );
    assert.deepEqual(
      [edit.ok, edit.facts.rejected, edit.output],
      [false, true, 'Your proposed edit has introduced new syntax error(s).'],
    );
  });

  it(
    'a loop of its own: names a known agent uses are read ' +
      "as that agent's, a `command` argument is a shell command",
    () => {
      assert.equal(anyDialect({ name: 'Read', input: { file_path: 'a' } }, 'x', true).facts.cls, 'read');
      assert.equal(anyDialect({ name: 'run', input: { command: 'make test' } }, '', true).facts.command, 'make test');
      assert.equal(anyDialect({ name: 'open_door', input: { door: 'A' } }, 'a room', true).facts.cls, undefined);
    },
  );
});
