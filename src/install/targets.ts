import type { AgentName } from '../types.ts';
import { claudeTarget } from './claude.ts';
import type { InstallTarget } from './target.ts';

export const TARGETS: Partial<Record<AgentName, InstallTarget>> = { claude: claudeTarget };
