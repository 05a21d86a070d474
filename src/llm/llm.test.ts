import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseVerdict } from './answer.ts';
import { buildQuestion } from './question.ts';
import { Session, times } from '../../test/support/session.ts';

describe("the LLM judge's question and answer", () => {
  it('asks about short forms and outcome classes, never raw outputs', () => {
    const s = new Session();
    s.prompt();
    times(2, () => s.bash('npm test', 'secret-output-text 1 failed', false));
    s.call('Read', { file_path: '/home/dev/proj/a.ts' }, 'file-content-text');
    const q = buildQuestion(s.state.agents.main!.window);
    assert.match(q, /1\. `Bash npm test` \(test\) -> failed \(failure A\)/);
    assert.match(q, /2\. `Bash npm test` \(test\) -> failed \(failure A\), the same as call 1/);
    assert.match(q, /3\. `Read a\.ts` \(read\) -> ok/);
    assert.doesNotMatch(q, /secret-output-text|file-content-text/);
  });

  it('reads a typed verdict, with prose around it', () => {
    assert.deepEqual(
      parseVerdict(
        'Here: {"stuck": true, "repeating_failed_strategy": true, ' +
          '"progress": 1, "confidence": 0.95, "reason": "same failure"} done',
      ),
      {
        stuck: true,
        repeating: true,
        progress: 1,
        confidence: 0.95,
        reason: 'same failure',
      },
    );
  });

  const bad: [string, string][] = [
    ['no JSON', 'I think it is stuck.'],
    ['stuck not a boolean', '{"stuck": "yes", "progress": 1, "confidence": 0.9}'],
    ['confidence out of range', '{"stuck": true, "progress": 1, "confidence": 9}'],
    ['progress missing', '{"stuck": true, "confidence": 0.9}'],
    ['broken JSON', '{"stuck": true, "progress": 1, '],
  ];
  for (const [name, reply] of bad)
    it(`takes no verdict from a reply with ${name}`, () => assert.equal(parseVerdict(reply), undefined));
});
