import { test } from 'node:test';
import { captureClaude, checkFixtures } from './support/payload-capture.ts';

// The Claude Code payloads the unit tests read (test/fixtures/payloads/claude-*.json) are what it sends.

test('Claude Code: the payload fixtures are what the pinned CLI sends', { timeout: 180_000 }, () =>
  checkFixtures('claude', captureClaude),
);
