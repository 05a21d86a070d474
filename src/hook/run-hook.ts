import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentName, Config, Decision, Event, EventKind, LlmConfig, Mode, Observation } from '../types.ts';
import { ALLOW } from '../types.ts';
import type { Adapter, Parsed } from '../adapters/types.ts';
import { adapterFor, detectAgent } from '../adapters/detect.ts';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { describeProblem } from '../config/validate.ts';
import { agentIn } from '../engine/state.ts';
import { callTail, observation } from '../engine/step.ts';
import { redact } from '../core/redact.ts';
import { boundedId } from '../core/ids.ts';
import { userHome } from '../core/user-home.ts';
import { ERROR_LOG, sessionFile } from '../store/paths.ts';
import { appendLine, type LogLine } from '../store/session-log.ts';
import { observeAllInLog, recentlyObserved } from '../store/segments.ts';
import type { Verdict } from '../llm/answer.ts';
import { smellsStuck } from '../llm/smell.ts';
import { buildQuestion } from '../llm/question.ts';
import { attachTree } from './tree.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { guardContext } from './guard-context.ts';

// The hot path: one process per tool call. It must fail open: whatever goes wrong (garbage on stdin,
// unreadable state, a bug), the agent carries on, an error line goes to STALLGUARD_HOME/errors.log, and
// nothing but the agent's response is ever printed on stdout.

export const AGENTS: readonly AgentName[] = [
  'claude',
  'codex',
  'gemini',
  'cursor',
  'copilot',
  'qwen',
  'opencode',
  'pi',
];

/**
 * How much of the hook's code the last event decided ran, for the code cache (load.ts): 0 no call, 1 a call
 * observed, 2 a call that failed (its failure read), 3 a failed verification run (the working tree read too).
 */
export let decidedPath = 0;

export interface HookInput {
  stdin: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** The folder of the running hook bundle, protected from edits like stallguard's own files. */
  selfDir?: string;
  /** Called as soon as the configuration says that the answer is nothing whatever the event (shadow mode),
   *  before the event is recorded: the daemon answers the agent then, and records it after. */
  silent?: () => void;
}

export interface HookOutput {
  stdout: string;
  decision?: Decision;
  /** The kind of event decided, when one was. */
  kind?: EventKind;
  /** The mode the decision was taken in: only in enforce does the agent act on it. */
  mode?: Mode;
  /** When the optional LLM judge is to be asked: the question, and how to finish once it answered. */
  consult?: Consult;
}

export interface Consult {
  question: string;
  llm: LlmConfig;
  /** Records the verdict (or nothing, when there was none) and gives the response to print. */
  finish(verdict: Verdict | undefined): HookOutput;
}

function agentFlag(argv: string[]): AgentName | undefined {
  const i = argv.findIndex((a) => a === '--agent' || a.startsWith('--agent='));
  if (i === -1) return undefined;
  const value = argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  return AGENTS.includes(value as AgentName) ? (value as AgentName) : undefined;
}

export function logError(home: string, where: string, error: unknown): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const message =
      error instanceof Error
        ? error.name === 'Error'
          ? error.message
          : `${error.name}: ${error.message}`
        : String(error);
    appendFileSync(
      join(home, ERROR_LOG),
      `${new Date().toISOString()} ${where}: ${redact(message.slice(0, 2000)).replace(/\s+/g, ' ').slice(0, 500)}\n`,
      { mode: 0o600 },
    );
  } catch {
    // nowhere left to report; the agent still carries on
  }
}

export function runHook(input: HookInput): HookOutput {
  const { env } = input;
  if (env.STALLGUARD_MODE?.trim() === 'off') return { stdout: '' };
  const home = stallguardHome(env);
  try {
    if (input.stdin.trim().length === 0) return { stdout: '' };
    let payload: unknown;
    try {
      payload = JSON.parse(input.stdin);
    } catch {
      logError(home, 'hook', new Error(`stdin is not JSON (${input.stdin.length} bytes)`));
      return { stdout: '' };
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
      logError(home, 'hook', new Error('stdin is not a JSON object'));
      return { stdout: '' };
    }
    const p = payload as Record<string, unknown>;
    const name = agentFlag(input.argv) ?? detectAgent(p, env);
    const adapter = name ? adapterFor(name) : undefined;
    const parsed = adapter?.parse(p, env);
    if (!adapter || !parsed) return { stdout: '' };
    return runParsed(adapter, parsed, env, home, input.selfDir, input.silent);
  } catch (error) {
    logError(home, 'hook', error);
    return { stdout: '' };
  }
}

/**
 * What the hook does with an event once it is read: the configuration for its folder, the observation
 * recorded in the session's ledger, the decision (recorded too), and the agent's response. The in-process
 * plugins (opencode, pi) come in here with the events they read themselves, so that their ledger is the
 * hook's. It throws on a failure; the callers fail open.
 */
export function runParsed(
  adapter: Adapter,
  parsed: Parsed,
  env: NodeJS.ProcessEnv,
  home: string,
  selfDir?: string,
  silent?: () => void,
): HookOutput {
  const { config, problems } = loadConfig({ cwd: parsed.event.cwd, env, home });
  for (const problem of problems) logError(home, 'config', new Error(describeProblem(problem)));
  if (config.mode === 'off') return { stdout: '' };
  if (config.mode === 'shadow') silent?.();

  const ctx = { cwd: parsed.event.cwd, ...guardContext(env, userHome(env), home, selfDir) };
  const file = sessionFile(home, parsed.event.session);
  const meta = {
    t: 'm' as const,
    session: boundedId(parsed.event.session),
    agent: adapter.name,
    time: Date.now(),
    ...(parsed.event.cwd ? { cwd: parsed.event.cwd } : {}),
  };
  const responder = { file, config, meta, adapter, parsed };
  decidedPath = 0;
  // a listed call that its own event reported (a failure) is not worked out again
  const listed = parsed.outcomes ?? [];
  const tailOf = (e: Event) => (e.kind === 'post-tool' && e.call.id ? callTail(e.call.id) : undefined);
  const seen = recentlyObserved(
    file,
    listed.flatMap((e) => tailOf(e) ?? []),
  );
  const outcomes = listed.filter((e) => !seen.has(tailOf(e) ?? ''));
  // the outcomes an event carries are observed first, in the order given, then the event itself
  const list = [...outcomes, parsed.event].map((carried) => {
    const event = attachTree(describeEvent(carried, adapter.dialect));
    const path = event.kind !== 'post-tool' ? 0 : event.ok !== false ? 1 : event.tree === undefined ? 2 : 3;
    if (path > decidedPath) decidedPath = path;
    return observation(event, ctx);
  });
  const out = respond(responder, list);
  const event = parsed.event;
  const window = (out.state && agentIn(out.state, event.agent.id)?.window) ?? [];
  if (
    out.output.decision?.action !== 'allow' ||
    !list.some((o) => o.step.k === 'call') ||
    !config.llm.enabled ||
    !smellsStuck(window, config)
  )
    return out.output;
  const verdictOf = (v: Verdict): Observation => ({
    step: { k: 'verdict', stuck: v.stuck, repeating: v.repeating, progress: v.progress, confidence: v.confidence },
    agent: event.agent,
    ...(event.task ? { task: event.task } : {}),
  });
  return {
    ...out.output,
    consult: {
      question: buildQuestion(window),
      llm: config.llm,
      finish: (verdict) => {
        try {
          return verdict ? respond(responder, [verdictOf(verdict)]).output : out.output;
        } catch (error) {
          logError(home, 'llm', error);
          return out.output;
        }
      },
    },
  };
}

const WEIGHT = { allow: 0, nudge: 1, deny: 2, stop: 3 } as const;

function outweighs(d: Decision, than: Decision): boolean {
  const a = WEIGHT[d.action];
  const b = WEIGHT[than.action];
  return a > b || (a === b && !!than.repeat && !d.repeat);
}

interface Responder {
  file: string;
  config: Config;
  meta: Extract<LogLine, { t: 'm' }>;
  adapter: Adapter;
  parsed: Parsed;
}

/**
 * Records observations, decides each, records the decisions, and renders in the agent's dialect the weightiest
 * (a stop over a nudge, a new one over a stop repeated).
 */
function respond(r: Responder, list: readonly Observation[]) {
  const { decisions, ids, state, file } = observeAllInLog(r.file, list, r.config, r.meta);
  let decision: Decision = ALLOW;
  for (const [i, d] of decisions.entries()) {
    if (d.action !== 'allow' && !d.repeat)
      appendLine(file, { t: 'd', id: ids[i]!, d, mode: r.config.mode, time: Date.now() });
    if (outweighs(d, decision)) decision = d;
  }
  const stdout = r.config.mode === 'enforce' ? r.adapter.render(r.parsed, decision) : '';
  return { output: { stdout, decision, kind: r.parsed.event.kind, mode: r.config.mode } as HookOutput, state };
}

/**
 * The hook with the optional LLM judge: when runHook asks for it, the model is asked (within its hard
 * timeout) and its verdict recorded before the response is given. Any failure there allows the call.
 */
export async function runHookAsync(input: HookInput): Promise<HookOutput> {
  return consultJudge(runHook(input), input.env);
}

/** Asks the LLM judge when a decided event calls for it, and gives the response with its verdict. */
export async function consultJudge(out: HookOutput, env: NodeJS.ProcessEnv): Promise<HookOutput> {
  if (!out.consult) return out;
  const { askModel } = await import('../llm/ask.ts');
  let verdict: Verdict | undefined;
  try {
    verdict = await askModel(out.consult.question, out.consult.llm, env);
  } catch (error) {
    logError(stallguardHome(env), 'llm', error);
  }
  return out.consult.finish(verdict);
}
