import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  claudeTranscript,
  codexRollout,
  copilotEvents,
  geminiChat,
  qwenChat,
  SEED_CWD,
  tempHome,
  write,
} from './support/histories.ts';

// scan reads files in worker threads and meters them in the main thread, in order: whatever the number of
// threads, it prints the same bytes, the JSON lines and the table alike, and counts a response that a
// resumed session copied from an earlier file once.

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function scan(args: string[], home: string) {
  const r = spawnSync(process.execPath, [CLI, 'scan', ...args], {
    env: { PATH: process.env.PATH, HOME: home },
    encoding: 'utf8',
    cwd: SEED_CWD,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '', 'nothing on stderr when it is not a terminal');
  return r.stdout;
}

/** The generated Claude Code history of the benchmarks, small: sessions with subagents, loops, long outputs. */
function generated(bytes: number): string {
  const root = tempHome();
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { ensureHistory } = await import(${JSON.stringify(join(ROOT, 'bench', 'history.mjs'))});
       process.stdout.write(ensureHistory(${JSON.stringify(root)}, ${bytes}).dir);`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

function jsonlIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.jsonl') && !f.includes('subagents'))
    .map((f) => join(dir, f))
    .sort();
}

describe('scan in threads', () => {
  let home: string;
  let history: string;
  let resumed: string;
  let original: string;
  before(() => {
    home = tempHome();
    const claude = join(home, '.claude', 'projects', '-home-dev-proj');
    write(join(claude, 'sess-a.jsonl'), [...claudeTranscript('sess-a'), 'not json at all']);
    write(join(claude, 'sess-a', 'subagents', 'agent-a1.jsonl'), claudeTranscript('sess-a', { agentId: 'a1' }));
    write(join(home, '.codex', 'sessions', '2026', '11', '29', 'rollout-2026-11-29T20-27-23-01a228fd.jsonl'), [
      ...codexRollout('01a228fd'),
    ]);
    write(
      join(home, '.gemini', 'tmp', 'f00d', 'chats', 'session-2026-11-29T20-29-333faa51.jsonl'),
      geminiChat('333faa51-b528-40d3-b0b1-68d9db6bbb50'),
    );
    const copilot = 'c98425e3-efd3-40a4-87ee-efc86b3ac039';
    write(join(home, '.copilot', 'session-state', copilot, 'events.jsonl'), copilotEvents(copilot));
    const qwen = 'f2726f30-fca7-4df4-a78c-a4501b271253';
    write(join(home, '.qwen', 'projects', '-home-dev-billing', 'chats', `${qwen}.jsonl`), qwenChat(qwen));
    write(join(claude, 'notes.jsonl'), ['{"not":"a transcript"}']);

    history = generated(3 << 20);
    // a resumed session: Claude Code copies the earlier session's messages into the new file, then goes on
    const sessions = jsonlIn(history);
    original = sessions[0]!;
    const earlier = readFileSync(original, 'utf8').trimEnd().split('\n');
    const later = readFileSync(sessions.at(-1)!, 'utf8').trimEnd().split('\n');
    resumed = write(join(history, 'projects', 'resumed', 'resumed.jsonl'), [
      ...earlier.slice(0, Math.floor(earlier.length / 2)),
      ...later,
    ]);
  });

  it('prints in two and three threads what it prints in one, the JSON lines and the table', () => {
    for (const args of [['--json'], []]) {
      const one = scan([...args, '--threads', '1', history], home);
      for (const threads of ['2', '3']) assert.equal(scan([...args, '--threads', threads, history], home), one);
      assert.equal(scan([...args, '--threads', '2'], home), scan([...args, '--threads', '1'], home));
    }
  });

  it('counts the responses a resumed session copied once, from the file they came in first, with threads as without', () => {
    const tokens = (out: string) =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { file: string; tokens: { output: number } })
        .filter((s) => s.file === resumed)
        .map((s) => s.tokens.output)[0]!;
    const alone = tokens(scan(['--json', '--threads', '1', resumed], home));
    const after = tokens(scan(['--json', '--threads', '2', original, resumed], home));
    assert.ok(after < alone, `the copied responses are not counted again (${after} < ${alone})`);
    assert.equal(tokens(scan(['--json', '--threads', '1', original, resumed], home)), after);
  });

  for (const threads of ['1', '2'])
    it(`says in one line that its output was closed, with ${threads} thread${threads === '1' ? '' : 's'}`, async () => {
      const child = spawn(process.execPath, [CLI, 'scan', '--threads', threads, history], {
        env: { PATH: process.env.PATH, HOME: home },
        cwd: SEED_CWD,
      });
      let err = '';
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      // the reader goes away before the first session is printed (as head does after its lines)
      child.stdout.destroy();
      const code = await new Promise((resolve) => child.on('close', resolve));
      assert.equal(err, 'stallguard scan: output closed\n');
      assert.equal(code, 1);
    });

  it('names a bad thread count in one line', () => {
    const r = spawnSync(process.execPath, [CLI, 'scan', '--threads', '0'], { encoding: 'utf8', cwd: SEED_CWD });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim(), 'stallguard scan: --threads must be a whole number of threads, 1 or more (got "0")');
  });
});
