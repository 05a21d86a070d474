import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { OpenTurns, TURN_MAX_MS } from './open-turns.ts';

const FIXTURES = new URL('../../test/fixtures/payloads/', import.meta.url);

const payload = (event: string, session = 's1', rest = '') =>
  JSON.stringify({ session_id: session, transcript_path: '/t.jsonl', cwd: '/p', hook_event_name: event }).slice(0, -1) +
  rest +
  '}';

describe('open turns', () => {
  it('opens at a prompt or a call and closes at the Stop, a subagent stop leaving it open', () => {
    const t = new OpenTurns();
    assert.equal(t.any(0), false);
    t.note(payload('UserPromptSubmit'), 0);
    t.note(payload('SubagentStop'), 1);
    assert.equal(t.any(2), true);
    t.note(payload('Stop'), 3);
    assert.equal(t.any(4), false);
    t.note(payload('PostToolBatch', 's2', ',"tool_calls":[]'), 5);
    assert.equal(t.any(6), true);
  });

  it('forgets a turn with no event for hours: a session killed in the middle of it sends no Stop', () => {
    const t = new OpenTurns();
    t.note(payload('PreToolUse'), 0);
    assert.equal(t.any(TURN_MAX_MS), true);
    assert.equal(t.any(TURN_MAX_MS + 1), false);
  });

  it('reads the event of every payload Claude Code 2.1.197 sent: a Stop or SessionEnd ends the turn', () => {
    const names = readdirSync(FIXTURES).filter((f) => f.startsWith('claude-'));
    assert.ok(names.length >= 19);
    for (const name of names) {
      const t = new OpenTurns();
      t.note(readFileSync(new URL(name, FIXTURES), 'utf8'), 0);
      const closes = /-(?:Stop|SessionEnd|SubagentStop)/.test(name);
      assert.equal(t.any(1), !closes, name);
    }
  });

  it('leaves alone what names no event or session', () => {
    const t = new OpenTurns();
    t.note('{}', 0);
    t.note('not json', 0);
    t.note(JSON.stringify({ hook_event_name: 'PreToolUse' }), 0);
    assert.equal(t.any(1), false);
  });
});
