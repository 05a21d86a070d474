import { ensureClaudeCode } from './support/claude-code.ts';
import {
  CODEX_CLI,
  COPILOT_CLI,
  ensureNpmCli,
  GEMINI_CLI,
  OPENCODE_CLI,
  PI_CLI,
  QWEN_CODE,
} from './support/npm-cli.ts';

// Installs the agent CLIs the end-to-end tests drive, before any test starts: scripts/test.mjs runs this
// once with the caller's whole environment (npm may need NODE_EXTRA_CA_CERTS to reach the registry, and
// the test processes run without it), so the tests find the installs in place and never race to make them.

for (const [name, ensure] of [
  ['Claude Code', () => ensureClaudeCode().label],
  ['Codex CLI', () => ensureNpmCli(CODEX_CLI).label],
  ['Gemini CLI', () => ensureNpmCli(GEMINI_CLI).label],
  ['Copilot CLI', () => ensureNpmCli(COPILOT_CLI).label],
  ['Qwen Code', () => ensureNpmCli(QWEN_CODE).label],
  ['opencode', () => ensureNpmCli(OPENCODE_CLI).label],
  ['pi', () => ensureNpmCli(PI_CLI).label],
] as const) {
  const started = Date.now();
  try {
    console.log(`e2e: ${ensure()} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    console.error(`e2e: ${name}: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
