import type { AgentName } from '../types.ts';
import { claudeTarget } from './claude.ts';
import { codexTarget } from './codex.ts';
import { copilotTarget } from './copilot.ts';
import { cursorTarget } from './cursor.ts';
import { geminiTarget } from './gemini.ts';
import { opencodeTarget } from './opencode.ts';
import { piTarget } from './pi.ts';
import type { InstallTarget } from './target.ts';

export const TARGETS: Record<AgentName, InstallTarget> = { claude: claudeTarget, codex: codexTarget, gemini: geminiTarget, cursor: cursorTarget, copilot: copilotTarget, opencode: opencodeTarget, pi: piTarget };
