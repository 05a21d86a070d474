import type { AgentName } from '../types.ts';
import { claudeTarget } from './claude.ts';
import { codexTarget } from './codex.ts';
import { codexTomlTarget } from './codex-toml.ts';
import { copilotTarget } from './copilot.ts';
import { cursorTarget } from './cursor.ts';
import { geminiTarget } from './gemini.ts';
import { opencodeTarget } from './opencode.ts';
import { piTarget } from './pi.ts';
import { qwenTarget } from './qwen.ts';
import type { InstallTarget } from './target.ts';

export const TARGETS: Record<AgentName, InstallTarget> = {
  claude: claudeTarget,
  codex: codexTarget,
  gemini: geminiTarget,
  cursor: cursorTarget,
  copilot: copilotTarget,
  qwen: qwenTarget,
  opencode: opencodeTarget,
  pi: piTarget,
};

/** Every form stallguard may be registered in: each agent's own, and the config.toml tables Codex also reads. */
export const ALL_TARGETS: readonly InstallTarget[] = [...Object.values(TARGETS), codexTomlTarget];
