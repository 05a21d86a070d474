import { ensureClaudeCode } from './support/claude-code.ts';

// Installs the agent CLIs the end-to-end tests drive, before any test starts: scripts/test.mjs runs this
// once with the caller's whole environment (npm may need NODE_EXTRA_CA_CERTS to reach the registry, and
// the test processes run without it), so the tests find the install in place and never race to make it.

const started = Date.now();
try {
  const cc = ensureClaudeCode();
  console.log(`e2e: ${cc.label} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
} catch (error) {
  console.error(`e2e: ${(error as Error).message}`);
  process.exitCode = 1;
}
