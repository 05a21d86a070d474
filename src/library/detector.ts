import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Config, Decision, Event, EventKind, JudgeConfig } from '../types.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';
import { mergeConfig } from '../config/validate.ts';
import { observation } from '../engine/step.ts';
import { reduce } from '../engine/engine.ts';
import { initialState, type State } from '../engine/state.ts';
import { attachTree } from '../hook/tree.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { anyDialect } from '../adapters/dialects.ts';
import { readTextOf, realpathOf } from '../hook/guard-context.ts';
import { sessionFile } from '../store/paths.ts';
import { appendLine } from '../store/session-log.ts';
import { observeInLog } from '../store/segments.ts';

// The library: the hook's detector for any agent loop. Feed it every event of your agent (a prompt, each
// tool call before and after it runs, the agent's stop) and act on the decisions it returns. It runs the
// same engine as the hook, with the same decisions for the same events.

/** Settings over the defaults, any of them: `{ repeat: 4 }`, `{ judge: { enabled: false } }`. */
export type DetectorConfig = Partial<Omit<Config, 'judge' | 'mode'>> & { judge?: Partial<JudgeConfig> };

export interface DetectorOptions {
  /**
   * Settings over the defaults (window, repeat, cycleRepeats, judge,
   * ...). There is no mode: acting on a decision is up to you.
   */
  config?: DetectorConfig;
  /**
   * Where the state lives. `"memory"` (the default) keeps it in this object; `{ dir }` keeps it in the
   * session log under `dir/sessions/<session>.jsonl`, as the hook does with STALLGUARD_HOME, so that many
   * processes can observe one session and `STALLGUARD_HOME=dir stallguard status` can read it.
   */
  state?: 'memory' | { dir: string };
  /** The working folder, for events that carry no `cwd`: paths under it count as the same path. */
  cwd?: string;
}

export interface Detector {
  /**
   * Records one event and returns what to do about it: `allow`; `nudge` (tell the agent `message`);
   * `deny` (do not run this call, hand `message` to the agent); `stop` (stop the agent, show the person
   * `stopReason`). Once an agent is stopped in a task, every later event of it in that task is `stop`
   * with `repeat: true`; a new `prompt` starts a new task.
   */
  observe(event: Event): Decision;
}

const KINDS: readonly EventKind[] = [
  'session-start',
  'session-end',
  'prompt',
  'pre-tool',
  'spawn',
  'post-tool',
  'batch-end',
  'stop',
];

function checkEvent(event: unknown): asserts event is Event {
  const e = event as Partial<Event> | null;
  const problem =
    !e || typeof e !== 'object'
      ? 'must be an object'
      : !KINDS.includes(e.kind as EventKind)
        ? `kind must be one of ${KINDS.join(', ')}`
        : typeof e.session !== 'string' || e.session.length === 0
          ? 'session must be a non-empty string'
          : !e.agent || typeof e.agent.id !== 'string'
            ? 'agent must be { id: string, type?: string } ({ id: "main" } for the main agent)'
            : (e.kind === 'pre-tool' || e.kind === 'post-tool' || e.kind === 'spawn') &&
                (!e.call || typeof e.call.name !== 'string')
              ? `a ${e.kind} event needs call: { name: string, input }`
              : undefined;
  if (problem) throw new TypeError(`stallguard: observe(event): event ${problem}`);
}

function configOf(partial: DetectorConfig | undefined): Config {
  if (!partial) return DEFAULT_CONFIG;
  const { config, problems } = mergeConfig(DEFAULT_CONFIG, partial, 'createDetector');
  if (problems.length > 0)
    throw new TypeError(`stallguard: createDetector: config.${problems[0]!.field} ${problems[0]!.problem}`);
  return config;
}

/** A detector for your own agent loop. */
export function createDetector(options: DetectorOptions = {}): Detector {
  const config = configOf(options.config);
  const dir = typeof options.state === 'object' ? resolve(options.state.dir) : undefined;
  const sessions = new Map<string, State>();
  // self-protection reads this machine's hook settings, as the hook does
  const ctx = { home: homedir(), realpath: realpathOf, readText: readTextOf, ...(dir ? { stallguardHome: dir } : {}) };

  return {
    observe(input: Event): Decision {
      checkEvent(input);
      // a loop of its own names its tools as it likes; those that match a known agent's are read as that agent's
      const event = attachTree(
        describeEvent(input.cwd === undefined && options.cwd ? { ...input, cwd: options.cwd } : input, anyDialect),
      );
      const obs = observation(event, { ...ctx, cwd: event.cwd });
      if (!dir) {
        const r = reduce(sessions.get(event.session) ?? initialState(), obs, config);
        sessions.set(event.session, r.state);
        return r.decision;
      }
      const file = sessionFile(dir, event.session);
      const {
        decision,
        id,
        file: segment,
      } = observeInLog(file, obs, config, {
        t: 'm',
        session: event.session,
        time: Date.now(),
        ...(event.cwd ? { cwd: event.cwd } : {}),
      });
      if (decision.action !== 'allow' && !decision.repeat)
        appendLine(segment, { t: 'd', id, d: decision, mode: 'library', time: Date.now() });
      return decision;
    },
  };
}
