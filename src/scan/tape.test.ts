import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configOf, SEED_RULE } from '../../test/support/config.ts';
import { claudeTranscript, codexRollout, geminiChat, tempHome, write } from '../../test/support/histories.ts';
import { StallMeter } from './meter.ts';
import { replayFile } from './scan-session.ts';
import { MeterTape, playTape } from './tape.ts';

// A file replayed in a thread reaches its meter on a tape, copied between threads and stripped to what the
// meter reads: the meter must come out as it does fed while the file is read.

const config = configOf(SEED_RULE);
const metered = (m: StallMeter) => ({
  stalls: m.stalls,
  total: m.total,
  calls: m.calls,
  afterStop: m.afterStop,
  inside: m.inside(),
});

describe('a meter fed from a tape', () => {
  it('measures what it measures fed as the file is read, across files that share their responses', () => {
    const dir = tempHome();
    const files = [
      write(join(dir, 'a.jsonl'), claudeTranscript('a', { repeats: 12 })),
      write(join(dir, 'a-sub.jsonl'), claudeTranscript('a', { agentId: 'x1', repeats: 7 })),
      // a resumed session: the first file's responses again, then its own
      write(join(dir, 'b.jsonl'), [...claudeTranscript('a', { repeats: 12 }), ...claudeTranscript('b')]),
      // the loop goes on with another outcome: the stall's stretch ends where the outcome changes
      write(join(dir, 'changed.jsonl'), [
        ...claudeTranscript('d', { repeats: 7 }),
        ...claudeTranscript('d', { repeats: 4 })
          .slice(4)
          .map((l) => l.replaceAll('1 passed, 1 failed', '0 passed, 2 failed')),
      ]),
      write(join(dir, 'codex.jsonl'), codexRollout('c1', 9)),
      write(join(dir, 'gemini.jsonl'), geminiChat('g1', 8)),
      ...readdirSync(join(import.meta.dirname, '..', '..', 'examples'))
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => join(import.meta.dirname, '..', '..', 'examples', f)),
    ];
    const seenDirect = new Map<string, number>();
    const seenTaped = new Map<string, number>();
    let stalls = 0;
    for (const file of files) {
      const direct = new StallMeter(64, seenDirect);
      const facts = replayFile(file, config, direct);
      const tape = new MeterTape();
      assert.deepEqual(replayFile(file, config, tape), facts);
      const taped = new StallMeter(64, seenTaped);
      playTape(structuredClone(tape.ops), taped);
      assert.deepEqual(metered(taped), metered(direct), file);
      stalls += direct.stalls.length;
    }
    assert.ok(stalls >= 5, `the files hold stalls to meter (${stalls})`);
    assert.deepEqual(seenTaped, seenDirect);
  });
});
