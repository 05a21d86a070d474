import type { Actor, Config, Decision, Event } from '../../src/types.ts';
import { reduce } from '../../src/engine/engine.ts';
import { initialState, type State } from '../../src/engine/state.ts';
import { observation } from '../../src/engine/step.ts';
import { describeEvent } from '../../src/adapters/dialect.ts';
import { anyDialect } from '../../src/adapters/dialects.ts';
import type { DetectorConfig } from '../../src/library/detector.ts';
import { configOf } from './config.ts';

/** A scripted session for engine tests: feed it events in the words of a transcript, read the decisions. Tools are read as the library reads a loop of its own (any known agent's names). */
export class Session {
  state: State = initialState();
  readonly decisions: Decision[] = [];
  readonly config: Config;
  private seq = 0;
  /** Tool calls that have completed so far. */
  calls = 0;
  /** Every intervention, with the number of completed calls when it happened: "nudge@3". */
  readonly timeline: string[] = [];
  /** The prompt id the agent puts on every event, if it has one. */
  task?: string;

  constructor(
    settings: DetectorConfig = {},
    private readonly cwd = '/home/dev/proj',
  ) {
    this.config = configOf(settings);
  }

  private feed(event: Event): Decision {
    const r = reduce(
      this.state,
      observation(describeEvent(event, anyDialect), {
        cwd: this.cwd,
        home: '/home/dev',
        stallguardHome: '/home/dev/.stallguard',
      }),
      this.config,
    );
    this.state = r.state;
    this.decisions.push(r.decision);
    if (event.kind === 'post-tool') this.calls++;
    if (r.decision.action !== 'allow' && !r.decision.repeat) this.timeline.push(`${r.decision.action}@${this.calls}`);
    return r.decision;
  }

  private base(agent: Actor) {
    return {
      session: 's1',
      agent,
      cwd: this.cwd,
      time: 1_700_000_000_000 + this.seq++,
      ...(this.task ? { task: this.task } : {}),
    };
  }

  prompt(text = 'fix the tests', task?: string): Decision {
    return this.feed({ ...this.base({ id: 'main' }), kind: 'prompt', prompt: text, ...(task ? { task } : {}) });
  }

  /** A tool call and its result: pre-tool (or spawn) then post-tool. Returns the post-tool decision. */
  call(
    name: string,
    input: Record<string, unknown>,
    output: unknown = '',
    ok: boolean | null = true,
    agent: Actor = { id: 'main' },
  ): Decision {
    this.pre(name, input, agent);
    return this.feed({ ...this.base(agent), kind: 'post-tool', call: { name, input }, output, ok });
  }

  pre(name: string, input: Record<string, unknown>, agent: Actor = { id: 'main' }): Decision {
    if (name === 'Agent' || name === 'Task')
      return this.feed({
        ...this.base(agent),
        kind: 'spawn',
        call: { name, input },
        childType: String(input.subagent_type ?? 'general-purpose'),
      });
    return this.feed({ ...this.base(agent), kind: 'pre-tool', call: { name, input } });
  }

  bash(command: string, output: string, ok: boolean | null = true, agent?: Actor): Decision {
    return this.call(
      'Bash',
      { command },
      ok === false ? `Exit code 1\n${output}` : { stdout: output, stderr: '' },
      ok,
      agent,
    );
  }

  /**
   * A call's result where the end of its batch lists the calls again (Claude Code): its own event (`late`
   * false) or its entry in that list (`late` true), with the agent's id for the call.
   */
  outcome(
    name: string,
    input: Record<string, unknown>,
    output: unknown,
    id: string,
    late: boolean,
    ok: boolean | null = null,
  ): Decision {
    return this.feed({ ...this.base({ id: 'main' }), kind: 'post-tool', call: { name, input, id }, output, ok, late });
  }

  batch(agent: Actor = { id: 'main' }): Decision {
    return this.feed({ ...this.base(agent), kind: 'batch-end' });
  }

  stop(message = 'Done.', agent: Actor = { id: 'main' }, active = false): Decision {
    return this.feed({ ...this.base(agent), kind: 'stop', message, stopHookActive: active });
  }

  /** The actions taken, in order, leaving out allows. */
  actions(): string[] {
    return this.decisions.filter((d) => d.action !== 'allow').map((d) => d.action);
  }
}

/** Runs `n` times and collects the results. */
export function times<T>(n: number, f: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => f(i));
}
