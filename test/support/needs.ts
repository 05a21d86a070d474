import { existsSync } from 'node:fs';

// Some tests need what a fresh clone does not have: a system program (Debian's chromium, its
// prometheus-node-exporter; `npm test` installs them when it runs as root with apt-get) or the labelled
// corpora beside the repository (../shared, as on CI). Without it such a test is skipped with one line
// that says what is missing and how to get it. CI (.ci/run) sets STALLGUARD_TEST_STRICT=1: there nothing
// is skipped, and a test whose program is missing fails on it.

/** The skip reason when `path` is missing (for a test's `skip` option), or false when the test can run. */
export function missing(path: string, how: string): string | false {
  if (existsSync(path) || process.env.STALLGUARD_TEST_STRICT === '1') return false;
  return `needs ${path}: ${how}`;
}
