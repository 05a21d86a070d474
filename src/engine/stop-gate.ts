import type { Config, Decision, SignalHit, Step } from '../types.ts';
import { ALLOW } from '../types.ts';
import type { AgentState } from './state.ts';
import { lastN } from './state.ts';

// When an agent ends its turn: a message that chants (one sentence over and over) or repeats the closing
// text of an earlier turn in this task is a stall like any loop of calls; and, when configured, a turn that
// ends with code edits no test, build or lint has seen is sent back once to verify. Never when the agent is
// already continuing because of a stop hook (stop_hook_active): that is how hook loops start.

type StopStep = Extract<Step, { k: 'stop' }>;

export function checkStop(
  agent: AgentState,
  step: StopStep,
  config: Config,
  isMain: boolean,
): { agent: AgentState; decision: Decision } {
  const memory = step.text ? { ...agent.memory, texts: lastN([...agent.memory.texts, step.text], 20) } : agent.memory;
  const seen = { ...agent, memory };
  if (step.active) return { agent: seen, decision: ALLOW };

  const repeatedText = step.text !== undefined && agent.memory.texts.includes(step.text);
  const chant = step.chant ?? 0;
  if (chant >= config.chant || repeatedText) {
    const signals: SignalHit[] = [
      {
        code: 'REPEATED_TEXT',
        value: repeatedText ? 2 : chant,
        detail: repeatedText ? 'the same closing message as before' : 'one sentence repeated',
      },
    ];
    const what = repeatedText
      ? 'this message is the same as the one that ended an earlier turn of this task'
      : `this message repeats one sentence ${chant} times`;
    const stalls = agent.stalls + 1;
    if (stalls >= config.stopAfterStalls) {
      const reason = `stall: ${what}, and a stall earlier in this task`;
      return {
        agent: { ...seen, stalls, stopped: { reason } },
        decision: { action: 'stop', code: 'STALL_AGAIN', stopReason: reason, message: reason, signals },
      };
    }
    return {
      agent: { ...seen, stalls },
      decision: {
        action: 'nudge',
        code: 'STALL',
        message:
          `stallguard: ${what}. It does not move the task on. Check what is actually done and what is ` +
          'left, then either continue with a different step or give the person a short, final summary.',
        signals,
      },
    };
  }

  if (config.verifyBeforeStop && isMain && (agent.unverifiedEdits ?? 0) > 0 && !agent.verifySent) {
    const n = agent.unverifiedEdits!;
    return {
      agent: { ...seen, verifySent: true },
      decision: {
        action: 'nudge',
        code: 'VERIFY_FIRST',
        message:
          `stallguard: ${n} edit${n === 1 ? '' : 's'} to code since the last test, build or ` +
          `lint run. Run the project's checks before finishing, or say why they are not needed.`,
        signals: [{ code: 'UNVERIFIED_STOP', value: n }],
      },
    };
  }
  return { agent: seen, decision: ALLOW };
}
