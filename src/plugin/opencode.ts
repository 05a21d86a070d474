import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Actor } from '../types.ts';
import { pluginGuard } from './guard.ts';

// The stallguard plugin for opencode (bundled to dist/opencode-plugin.js; `stallguard install --agent
// opencode` writes a one-line plugin file that loads it). opencode runs plugins in its own process and
// awaits their hooks, so each call is judged in-process, with what opencode lets a plugin do
// (docs/agents.md): a hook that throws in tool.execute.before refuses the call and the model reads the
// error; text added to a result's output reaches the model; client.session.abort ends the turn. Every
// hook fails open: stallguard's own errors never reach opencode (except the refusal it means to make).

/** The part of opencode's plugin context this plugin uses (@opencode-ai/plugin PluginInput). */
interface OpencodeContext {
  directory?: string;
  client?: { session?: { abort?: (options: { path: { id: string } }) => Promise<unknown> } };
}

interface ToolInput {
  tool: string;
  sessionID: string;
  callID: string;
  args?: unknown;
}

interface Part {
  type?: string;
  tool?: string;
  callID?: string;
  sessionID?: string;
  state?: { status?: string; input?: unknown; error?: string };
}

interface BusEvent {
  type: string;
  properties?: { info?: { id?: string; parentID?: string }; part?: Part };
}

type Messages = { parts?: Part[] }[];

/** Runs a hook's work, keeping any error of stallguard's out of opencode. */
async function quietly(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch {
    // stallguard's own failure: the agent carries on as if it were not there
  }
}

export const StallguardPlugin = async (ctx: OpencodeContext) => {
  const guard = pluginGuard('opencode', process.env, dirname(fileURLToPath(import.meta.url)));
  const cwd = ctx.directory;
  // a subagent runs in a child session: its calls are filed under the root session, with the child as the agent
  const children = new Map<string, { root: string; agent: Actor }>();
  // the type each session's latest task call asked for, given to the child session it starts
  const spawning = new Map<string, string>();
  // calls whose outcome stallguard already has (it refused them, or saw them return): an error part for
  // one of them is stallguard's refusal or the abort of a stopped turn, not a failure of the tool
  const settled = new Set<string>();
  // text for the model about calls that failed, added to their error each time the conversation is sent
  const notes = new Map<string, string>();

  const who = (sessionID: string) => children.get(sessionID) ?? { root: sessionID, agent: { id: 'main' } };
  const see = (hook: string, sessionID: string, input: unknown, output: unknown) => {
    const { root, agent } = who(sessionID);
    return guard({ hook, session: root, agent, cwd, input, output });
  };
  const abort = async (sessionID: string) => {
    try {
      await ctx.client?.session?.abort?.({ path: { id: sessionID } });
    } catch {
      // the turn goes on; every later call of the stopped agent is refused
    }
  };

  return {
    'chat.message': (input: { sessionID: string }, output: unknown) =>
      quietly(async () => {
        await see('chat.message', input.sessionID, input, output);
      }),

    'tool.execute.before': async (input: ToolInput, output: { args?: unknown }) => {
      let refusal: string | undefined;
      await quietly(async () => {
        const answer = await see('tool.execute.before', input.sessionID, input, output);
        if (input.tool === 'task' && !answer?.refuse) {
          const type = (output.args as { subagent_type?: unknown } | undefined)?.subagent_type;
          spawning.set(input.sessionID, typeof type === 'string' ? type : 'agent');
        }
        if (answer?.abort) await abort(input.sessionID);
        if (answer?.refuse) {
          settled.add(input.callID);
          refusal = answer.refuse;
        }
      });
      // the one error this plugin means opencode to see: the model reads it as the call's result
      if (refusal !== undefined) throw new Error(refusal);
    },

    'tool.execute.after': (input: ToolInput, output: { output?: unknown }) =>
      quietly(async () => {
        settled.add(input.callID);
        const answer = await see('tool.execute.after', input.sessionID, input, output);
        if (answer?.tell && typeof output.output === 'string') output.output = `${output.output}\n\n${answer.tell}`;
        if (answer?.abort) await abort(input.sessionID);
      }),

    event: (input: { event: BusEvent }) =>
      quietly(async () => {
        const { event } = input;
        const info = event.properties?.info;
        if (event.type === 'session.created' && info?.id && info.parentID) {
          children.set(info.id, {
            root: who(info.parentID).root,
            agent: { id: info.id, type: spawning.get(info.parentID) ?? 'agent' },
          });
          return;
        }
        const part = event.properties?.part;
        const status = part?.state?.status;
        if (
          event.type !== 'message.part.updated' ||
          part?.type !== 'tool' ||
          (status !== 'completed' && status !== 'error') ||
          !part.callID ||
          !part.sessionID
        )
          return;
        // the call's last word: forget it once it is in
        if (settled.delete(part.callID) || status !== 'error') return;
        settled.add(part.callID); // the same error reported again is not a second failure
        const answer = await see(
          'tool.error',
          part.sessionID,
          { tool: part.tool, callID: part.callID, args: part.state?.input },
          { error: part.state?.error },
        );
        if (answer?.tell) notes.set(part.callID, answer.tell);
        if (answer?.abort) await abort(part.sessionID);
      }),

    // a failed call's result is its error text, fixed before the plugin sees it: a note about it is added
    // to what the model is sent
    'experimental.chat.messages.transform': (_input: unknown, output: { messages?: Messages }) =>
      quietly(async () => {
        if (notes.size === 0) return;
        for (const message of output.messages ?? [])
          for (const part of message.parts ?? []) {
            const note = part.type === 'tool' && part.callID ? notes.get(part.callID) : undefined;
            if (note && part.state?.status === 'error') part.state.error = `${part.state.error ?? ''}\n\n${note}`;
          }
      }),
  };
};
