import type { AgentName } from '../types.ts';
import { adapterFor } from '../adapters/detect.ts';
import type { PluginAnswer } from '../adapters/plugin-answer.ts';
import { stallguardHome } from '../config/load.ts';
import { consultJudge, logError, runParsed } from '../hook/run-hook.ts';

// The engine as a library inside an agent that loads plugins in-process (opencode, pi): each event the
// plugin reads goes through the hook's own path (the same configuration, ledger and decisions, so
// `stallguard status` and `report` see these sessions like any other), with no process per call. It
// fails open: whatever goes wrong, the answer is "nothing to do" and the error goes to errors.log.

export type PluginGuard = (payload: Record<string, unknown>) => Promise<PluginAnswer | undefined>;

/**
 * What to do about one event, as the agent's adapter reads it from the plugin's payload: undefined for
 * nothing (an allowed call, shadow mode, any failure).
 */
export function pluginGuard(agent: AgentName, env: NodeJS.ProcessEnv, selfDir?: string): PluginGuard {
  const adapter = adapterFor(agent);
  return async (payload) => {
    const home = stallguardHome(env);
    try {
      const parsed = adapter.parse(payload, env);
      if (!parsed) return undefined;
      const out = await consultJudge(runParsed(adapter, parsed, env, home, selfDir), env);
      return out.stdout ? (JSON.parse(out.stdout) as PluginAnswer) : undefined;
    } catch (error) {
      logError(home, agent, error);
      return undefined;
    }
  };
}
