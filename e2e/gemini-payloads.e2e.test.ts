import { test } from 'node:test';
import { captureGemini, checkFixtures } from './support/payload-capture.ts';

// The Gemini CLI payloads the unit tests read (test/fixtures/payloads/gemini-*.json) are what it sends.

test('Gemini CLI: the payload fixtures are what the pinned CLI sends', { timeout: 180_000 }, () =>
  checkFixtures('gemini', captureGemini),
);
