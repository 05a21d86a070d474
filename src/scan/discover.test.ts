import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from '../../test/support/histories.ts';
import { historyRoots, sessionsUnder } from './discover.ts';

function touch(...parts: string[]): string {
  const file = join(...parts);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '{}\n');
  return file;
}

describe('finding past sessions', () => {
  it("files each agent's subagent transcripts with the session that ran them", () => {
    const root = tempHome();
    const claude = touch(root, 'claude', 'p', 's1.jsonl');
    const claudeSub = touch(root, 'claude', 'p', 's1', 'subagents', 'agent-x.jsonl');
    touch(root, 'claude', 'p', 's1', 'tool-results', 'r.txt');
    const gemini = touch(root, 'gemini', 'chats', 'session-2026-11-29T20-29-333faa51.jsonl');
    const geminiSub = touch(root, 'gemini', 'chats', '333faa51-b528-40d3-b0b1-68d9db6bbb50', 'worker-1.jsonl');
    const lone = touch(root, 'codex', '2026', '11', '29', 'rollout-a.jsonl');
    const found = [...sessionsUnder(root)];
    assert.deepEqual(found, [
      { main: claude, subagents: [claudeSub] },
      { main: lone, subagents: [] },
      { main: gemini, subagents: [geminiSub] },
    ]);
    assert.deepEqual(
      [...sessionsUnder(claude)],
      [{ main: claude, subagents: [claudeSub] }],
      'a file named on its own brings its subagents',
    );
  });

  it('looks where each agent keeps its history, and only where it exists', () => {
    const home = tempHome();
    mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
    mkdirSync(join(home, '.gemini', 'tmp', 'proj', 'chats'), { recursive: true });
    const codexHome = join(home, 'codex-home');
    mkdirSync(join(codexHome, 'sessions'), { recursive: true });
    mkdirSync(join(home, '.pi', 'agent', 'sessions'), { recursive: true });
    const extra = join(home, 'alt');
    mkdirSync(join(extra, 'projects'), { recursive: true });
    assert.deepEqual(historyRoots({ HOME: home, CODEX_HOME: codexHome, CLAUDE_CONFIG_DIR: `${extra},/nope` }), [
      join(home, '.claude', 'projects'),
      join(extra, 'projects'),
      join(codexHome, 'sessions'),
      join(home, '.pi', 'agent', 'sessions'),
      join(home, '.gemini', 'tmp', 'proj', 'chats'),
    ]);
  });
});
