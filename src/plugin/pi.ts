import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pluginGuard } from './guard.ts';

// The stallguard extension for pi (bundled to dist/pi-extension.js; `stallguard install --agent pi` writes
// a one-line extension file that loads it). pi runs extensions in its own process and awaits their
// handlers, so each call is judged in-process, with what pi lets an extension do (docs/agents.md):
// tool_call returns {block, reason} to refuse a call, the model reading the reason as its result;
// tool_result returns content to change what the model reads; ctx.abort() ends the agent's run;
// sendUserMessage sends the agent back at the end of its run. A tool_call handler that throws blocks the
// call in pi, so every handler fails open here: stallguard's own errors never reach pi.

interface PiContext {
  cwd?: string;
  sessionManager?: { getSessionId?: () => string };
  abort?: () => void;
}

type Content = { type: string; text?: string }[];

interface PiApi {
  on(event: string, handler: (event: Record<string, unknown>, ctx: PiContext) => Promise<unknown>): void;
  sendUserMessage?: (text: string, options?: { deliverAs?: 'steer' | 'followUp' }) => unknown;
}

/** Runs a handler's work, keeping any error of stallguard's out of pi; undefined then, which changes nothing. */
async function quietly<T>(work: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await work();
  } catch {
    return undefined;
  }
}

export default function stallguard(pi: PiApi): void {
  const guard = pluginGuard('pi', process.env, dirname(fileURLToPath(import.meta.url)));
  const see = (hook: string, event: Record<string, unknown>, ctx: PiContext) => {
    const session = ctx.sessionManager?.getSessionId?.();
    return session ? guard({ hook, session, cwd: ctx.cwd, event }) : Promise.resolve(undefined);
  };

  pi.on('before_agent_start', (event, ctx) =>
    quietly(async () => {
      await see('before_agent_start', event, ctx);
      return undefined;
    }),
  );

  pi.on('tool_call', (event, ctx) =>
    quietly(async () => {
      const answer = await see('tool_call', event, ctx);
      if (answer?.abort) ctx.abort?.();
      return answer?.refuse ? { block: true, reason: answer.refuse } : undefined;
    }),
  );

  pi.on('tool_result', (event, ctx) =>
    quietly(async () => {
      const answer = await see('tool_result', event, ctx);
      if (answer?.abort) ctx.abort?.();
      return answer?.tell
        ? { content: [...((event.content as Content | undefined) ?? []), { type: 'text', text: answer.tell }] }
        : undefined;
    }),
  );

  pi.on('agent_end', (event, ctx) =>
    quietly(async () => {
      const answer = await see('agent_end', event, ctx);
      if (answer?.tell) pi.sendUserMessage?.(answer.tell, { deliverAs: 'followUp' });
      return undefined;
    }),
  );
}
