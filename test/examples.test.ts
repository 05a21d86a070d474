import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The examples run as a reader would run them: `node examples/<file>`, importing the built package by name.

describe('examples', { skip: existsSync('dist/index.js') ? false : 'dist is not built' }, () => {
  it('custom-agent-loop.mjs: the agent that opens door A, then door B, and sees the same room each time is nudged, then stopped', () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    const r = spawnSync(process.execPath, ['examples/custom-agent-loop.mjs'], {
      env,
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(
      lines[0]!,
      /^turn \d+: nudged: stallguard: .*`open_door [AB]` → `open_door [AB]` x\d \(same results each round\)/,
    );
    assert.match(
      lines.at(-1)!,
      /^turn \d+: stopped for the person: stall: `open_door [AB]` → `open_door [AB]` x\d \(same results each round\), twice in this task( \(.+\))?$/,
    );
    // between: the calls that repeat a loop just flagged, refused, and at most one more nudge (a second stall
    // that only just reaches its level nudges again; the third stops)
    const between = lines.slice(1, -1);
    assert.ok(
      between.every((l) => /^turn \d+: (?:refused|nudged): /.test(l)) &&
        between.filter((l) => /: nudged: /.test(l)).length <= 1,
      r.stdout,
    );
  });

  it('docs/trace-format.md: its example trace is read as the generic trace format, every call of it', () => {
    const blocks = [...readFileSync('docs/trace-format.md', 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map(
      (m) => m[1]!,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'sg-trace-doc-')), 'example.jsonl');
    writeFileSync(file, blocks.slice(0, 2).join(''));
    const r = spawnSync(process.execPath, ['dist/cli.js', 'replay', '--json', file], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!).summary;
    assert.deepEqual([summary.format, summary.calls, summary.skippedLines], ['trace', 4, 0]);
  });
});
