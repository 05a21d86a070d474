import { test } from 'node:test';
import { captureCodex, checkFixtures } from './support/payload-capture.ts';

// The Codex CLI payloads the unit tests read (test/fixtures/payloads/codex-*.json) are what it sends.

test('Codex CLI: the payload fixtures are what the pinned CLI sends', { timeout: 180_000 }, () =>
  checkFixtures('codex', captureCodex),
);
