import { join } from 'node:path';
import { userHome } from './user-home.ts';

// Where each agent keeps its own files, with the variable that moves them: the installers write there, scan
// reads the histories there. One place, so that both follow the same variable the same way.

/** Codex CLI: $CODEX_HOME, default ~/.codex. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME?.trim() || join(userHome(env), '.codex');
}

/** GitHub Copilot CLI: $COPILOT_HOME, default ~/.copilot. */
export function copilotHome(env: NodeJS.ProcessEnv): string {
  return env.COPILOT_HOME?.trim() || join(userHome(env), '.copilot');
}

/** Qwen Code: $QWEN_HOME, default ~/.qwen. */
export function qwenHome(env: NodeJS.ProcessEnv): string {
  return env.QWEN_HOME?.trim() || join(userHome(env), '.qwen');
}

/** pi: $PI_CODING_AGENT_DIR, default ~/.pi/agent. */
export function piAgentDir(env: NodeJS.ProcessEnv): string {
  return env.PI_CODING_AGENT_DIR?.trim() || join(userHome(env), '.pi', 'agent');
}
