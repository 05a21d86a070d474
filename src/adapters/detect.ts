import type { AgentName } from '../types.ts';
import type { Adapter } from './types.ts';
import { claude } from './claude/index.ts';
import { codex } from './codex/index.ts';
import { copilot } from './copilot/index.ts';
import { cursor } from './cursor/index.ts';
import { gemini } from './gemini/index.ts';
import { opencode } from './opencode/index.ts';
import { pi } from './pi/index.ts';
import { qwen } from './qwen/index.ts';

// opencode and pi load stallguard in-process (src/plugin/): their plugins hand these adapters the events they read
const ADAPTERS: Record<AgentName, Adapter> = { claude, codex, gemini, cursor, copilot, qwen, opencode, pi };

export function adapterFor(name: AgentName): Adapter {
  return ADAPTERS[name];
}

/** Event names only Gemini CLI uses (it shares SessionStart and SessionEnd with Claude Code). */
const GEMINI_EVENTS = new Set([
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'PreCompress',
]);

/**
 * Which agent sent a payload, from its shape and the hook's environment. The shape decides first; the
 * environment only where payloads look alike (a SessionStart). Gemini also sets CLAUDE_PROJECT_DIR, and
 * Cursor too, so that variable says nothing; Qwen Code sets CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR both.
 */
export function detectAgent(
  payload: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): AgentName | undefined {
  const p = payload;
  if (typeof p.conversation_id === 'string' || typeof p.cursor_version === 'string') return 'cursor';
  // Copilot's camelCase dialect; its snake_case dialect is Claude-shaped and needs --agent copilot
  if (typeof p.sessionId === 'string' && (typeof p.hook_event_name !== 'string' || typeof p.toolName === 'string'))
    return 'copilot';
  const event = p.hook_event_name;
  if (typeof event !== 'string') return undefined;
  if (GEMINI_EVENTS.has(event)) return 'gemini';
  if (typeof p.turn_id === 'string') return 'codex';
  // Qwen Code's prompt ids are <session>########<n>
  if (
    env.QWEN_CODE_SESSION_ID ||
    env.QWEN_PROJECT_DIR ||
    (typeof p.prompt_id === 'string' && p.prompt_id.includes('########'))
  )
    return 'qwen';
  if (env.GEMINI_SESSION_ID || env.GEMINI_PROJECT_DIR) return 'gemini';
  if (env.CLAUDE_CODE_ENTRYPOINT) return 'claude';
  if (Object.keys(env).some((k) => k.startsWith('CODEX_'))) return 'codex';
  // Claude sends `model` on SessionStart only; Codex on every event
  if (typeof p.model === 'string' && event !== 'SessionStart') return 'codex';
  return 'claude';
}
