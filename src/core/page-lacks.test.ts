import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LACKS_WHOLE, saysPageLacks } from './page-lacks.ts';

describe('saysPageLacks', () => {
  it('hears a fetched page said to lack what was asked, however the model words it', () => {
    for (const answer of [
      'The page does not mention a retry limit for webhooks. It covers signing secrets and event types.',
      'I could not find any information about webhook retry behaviour on this page.',
      'Based on the web page content provided, there is **no mention** of:\n- Spotlight\n- mdutil',
      '# Analysis\n\nBased on the provided content, **this README does not contain the information you requested**.',
      'I apologize, but after reviewing the document, I cannot find a list of the agent types for the Task tool.',
      'The retry count is not specified anywhere in the provided documentation content.',
      'There is no information available about how this project calls the API.',
    ])
      assert.equal(saysPageLacks(answer), true, answer);
  });

  it('leaves alone an answer that found the thing, a fact that something is absent among them', () => {
    for (const answer of [
      'Webhooks are retried up to 5 times with exponential backoff, starting at 30 seconds.',
      'The API does not have a rate limit for authenticated requests; anonymous ones get 60 an hour.',
      'Event types: invoice.paid, invoice.failed. Note that test events are not sent to live endpoints.',
      'No. The flag only applies to production builds, as the page explains under "Modes".',
      // said past the head of a long answer: the head told what the page holds
      `${'The page describes the configuration in detail. '.repeat(8)}It does not mention a retry limit.`,
    ])
      assert.equal(saysPageLacks(answer), false, answer);
  });

  it('answers as its expression asked of the whole head would, hints or not', () => {
    const piece = fc.constantFrom(
      'page ',
      'does not ',
      "doesn't ",
      'mention ',
      'no ',
      'NO ',
      'information ',
      'of ',
      'cannot ',
      'unable to ',
      'find ',
      'is ',
      'not ',
      'specified',
      '**',
      'x',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 3 })), { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        assert.equal(saysPageLacks(text), LACKS_WHOLE.test(text.slice(0, 300).replaceAll('**', '')));
      }),
      { numRuns: 3000 },
    );
  });
});
