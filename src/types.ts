// The spine of stallguard. Every agent's hook payload becomes an Event; every Event becomes a compact,
// storable Step; the engine folds Steps into State and answers each with a Decision, which an adapter
// renders in the agent's own dialect. Read this file and you know the system.

// ----- Events: what an adapter reads from an agent -----

export type AgentName = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot' | 'qwen' | 'opencode' | 'pi';

/** Who made a call: the main agent (`id: "main"`) or a subagent with the agent's own id and type. */
export interface Actor {
  id: string;
  type?: string;
}

export interface ToolCall {
  name: string;
  input: unknown;
  id?: string;
}

/**
 * What an agent's adapter or reader knows about a completed call, in words every agent shares. Tool names,
 * result envelopes and error texts differ from agent to agent (and harness to harness); the adapter of each
 * maps its own onto these, so that the engine and the signals never read an agent's dialect.
 */
export interface CallFacts {
  /** What the call does, where the agent's tool says it (a shell command is classified by what it runs). */
  cls?: ToolClass;
  /** The shell command the call runs, for the agent's shell tools. */
  command?: string;
  /** The file or folder the call is about, where its arguments do not name it in a common field. */
  target?: string;
  /**
   * For an edit that applies a patch (Codex's `*** Begin Patch`
   * format): the patch, whose - and + lines say what it replaces.
   */
  patch?: string;
  /**
   * Bookkeeping (a to-do list, a plan update, a topic line) or a turn handed to the person (a question, a plan to
   * approve): neither work nor a loop.
   */
  bookkeeping?: boolean;
  /** The call never ran: it was cancelled because a parallel call failed, or interrupted. Not an attempt. */
  skipped?: boolean;
  /** The person, or a permission rule, refused to run it. */
  refused?: boolean;
  /** The tool refused the edit and nothing changed (the text to replace was not found, a patch did not apply). */
  rejected?: boolean;
  /** The tool could not parse the call: a format error, a schema error. */
  malformed?: boolean;
  /** The outcome carried nothing: no matches, no output. */
  empty?: boolean;
  /**
   * The tool ran where its result is not reported (Codex's hosted web search: its log and its hooks hold a status
   * at most): no answer to judge, neither empty nor the same as before.
   */
  hidden?: boolean;
  /** A read the tool answered with "unchanged since your last read" in place of the file's content. */
  unchanged?: boolean;
}

interface EventBase {
  session: string;
  agent: Actor;
  /** The agent's own id for the current user prompt, where it has one (Claude Code's prompt_id). */
  task?: string;
  cwd?: string;
  /** Milliseconds since the epoch. */
  time?: number;
}

export type Event =
  | (EventBase & { kind: 'session-start' })
  | (EventBase & { kind: 'session-end' })
  | (EventBase & { kind: 'prompt'; prompt?: string })
  | (EventBase & { kind: 'pre-tool'; call: ToolCall })
  /** A request to start a subagent (Claude's Agent/Task tool, Gemini's invoke_agent, ...). */
  | (EventBase & { kind: 'spawn'; call: ToolCall; childType?: string })
  | (EventBase & {
      kind: 'post-tool';
      call: ToolCall;
      output: unknown;
      /** false on a known failure, true on known success, null where the agent does not say. */
      ok: boolean | null;
      /** What the agent's adapter knows about the call beyond its name, arguments and output. */
      facts?: CallFacts;
      /** Working-tree fingerprint, attached at the edge only when a signal needs one. */
      tree?: string;
      /**
       * Where the end of a batch lists its calls again with their results (Claude Code's PostToolBatch): true for
       * an outcome read from that list, observed only if the call's own event (PostToolUseFailure, or PostToolUse
       * in an older install) was not; false for the call's own event. Absent for agents whose batches do not.
       */
      late?: boolean;
    })
  /** The end of a batch of parallel calls (Claude's PostToolBatch): a place where a stop can be delivered. */
  | (EventBase & { kind: 'batch-end' })
  | (EventBase & { kind: 'stop'; message?: string; stopHookActive?: boolean });

export type EventKind = Event['kind'];

// ----- Steps: the compact, storable form of an event (no raw outputs, no file contents) -----

/** What a call does. A `poll` waits on something running elsewhere (a background shell, a build, a
 *  deployment): repeating it with the same answer is waiting, and is given far more room. */
export type ToolClass = 'read' | 'search' | 'edit' | 'exec' | 'test' | 'poll' | 'spawn' | 'bookkeeping' | 'other';

/** One observed tool call, reduced to keys and digests. This is what the ledger holds. */
export interface CallStep {
  k: 'call';
  tool: string;
  cls: ToolClass;
  /** Digest of the tool name and canonical arguments. */
  key: string;
  /** Digest of the normalised outcome. */
  out: string;
  ok: boolean | null;
  /** Short human form, secrets redacted: `Bash npm test`, `Edit src/billing.ts`. */
  short: string;
  /** Digest of the normalised failure signature, when the call failed. */
  fail?: string;
  /**
   * Why the call failed, in words that stay the same across attempts at one thing (core/failure.ts
   * failureCause): a class (`command-not-found`, `refused`, `bare`, ...) or `t:` and a digest of the error's template.
   */
  cause?: string;
  /** What the call acts on (a program and its object, a tool and its file), redacted: one intent, however spelled. */
  intent?: string[];
  /** The programs a shell call runs (a missing program is missing however it is called). */
  prog?: string[];
  /** Hashes of the outcome's lines (core/novelty.ts), to tell whether it said anything the task had not seen. */
  lines?: number[];
  /** Digest of what the call is about (file path, search root), for re-read and edit signals. */
  target?: string;
  /**
   * What a lookup looks for, readable (redacted, cut short): a search's term, or the site (host) a read of a URL
   * asks. A hunt is followed and named by it.
   */
  sought?: string;
  /** Digest of the file region a read covered (path + range), when it is a read. */
  region?: string;
  /** MinHash signature of what a search looks for (its pattern or query), to tell a reworded lookup from a new one. */
  term?: number[];
  /** MinHash signature of the canonical arguments, for near-duplicate detection without raw text. */
  sim?: number[];
  /**
   * Digest of the UUIDs and long hex ids the arguments name (a draft, a commit, a subagent): calls that name
   * other ids act on other objects, however alike the rest of their arguments and their answers.
   */
  ids?: string;
  /**
   * Digest of the template of a call that does something (core/template.ts): its programs, flags and argument
   * names, without the values it names. Calls of one template with other values are one job done to many things;
   * not kept for lookups, edits and inline code.
   */
  form?: string;
  /** Digest of the change an edit makes, for the same edit rejected again and edit/revert signals. */
  change?: string;
  /**
   * Digest of the change that would undo this edit (after and before swapped), where the edit says what it replaces.
   */
  undo?: string;
  /** Digest of the file content a whole-file write leaves (target and content). */
  written?: string;
  /** An edit that changes nothing: the old text and the new are the same (`sed s/x/x/`). */
  noop?: boolean;
  /** Whether the outcome is empty ("No matches found", no output). */
  empty?: boolean;
  /** A read the tool answered with "unchanged since your last read" in place of the file: a re-read by its word. */
  unchanged?: boolean;
  /** A call the tool could not parse (a usage error, a format error). */
  malformed?: boolean;
  /** An edit the tool refused: nothing changed. */
  rejected?: boolean;
  /** The person, or a permission rule, refused to run the call. */
  refused?: boolean;
  /** The call never ran (cancelled with a failing parallel call): not an attempt. */
  skipped?: boolean;
  /** A poll whose answer says the awaited job is still under way (running, queued, in progress). */
  waiting?: boolean;
  /** An edit of documentation (not code): no test run is owed after it. */
  doc?: boolean;
  tree?: string;
}

/** A call as it sits in an agent's window: the step, plus what was known about it when it happened. */
export interface Entry extends CallStep {
  /** Successful edits in the task before this call: two calls with the same count had no edit between them. */
  edits: number;
  /** The model response that issued the call: calls with the same number were issued together, in parallel. */
  batch: number;
  /** A read whose content was already seen in this task: no new information. */
  reread?: boolean;
  /**
   * A read of a file that shows it as its previous read did, though changes that could have reached it
   * reported success in between: their effect never showed.
   */
  unseen?: boolean;
  /** An edit or failing run that brought back a state seen before (edit/revert oscillation). */
  returned?: boolean;
  /** How many of the outcome's lines the task had not seen before it: 0 is an answer that added nothing. */
  fresh?: number;
}

export type Step =
  | CallStep
  | { k: 'pre'; tool: string; key: string; short: string; guard?: GuardHit }
  | { k: 'spawn'; childType: string; short: string }
  | { k: 'prompt' }
  | { k: 'batch' }
  | { k: 'stop'; text?: string; active?: boolean; chant?: number }
  /** A language model's answer about the agent's recent calls (the optional LLM judge). */
  | { k: 'verdict'; stuck: boolean; repeating: boolean; progress: number; confidence: number }
  | { k: 'start' }
  | { k: 'end' };

/** A Step as the engine receives it: with who made it, in which task, and when. */
export interface Observation {
  step: Step;
  agent: Actor;
  task?: string;
  time?: number;
  /**
   * The tail of the agent's id for the call, where the end of its batch may report the call again: a call
   * observed on its own is not observed a second time from its batch's list.
   */
  call?: string;
  /** An outcome carried by the end of its batch (the Event's `late`). */
  late?: true;
}

/**
 * What self-protection refuses: `own` a change to stallguard's own configuration, state or installed
 * files; `entry` a change to stallguard's entries in an agent's hook settings; `switch` turning stallguard
 * or every hook off; `uninstall` removing or disabling stallguard.
 */
export type GuardKind = 'own' | 'entry' | 'switch' | 'uninstall';

/** What a pre-tool check found that is not about stalls: a call that would switch stallguard off. */
export interface GuardHit {
  code: 'SELF_PROTECT';
  /** The file, folder, setting or command refused. */
  path: string;
  /** Absent in ledgers written before kinds were recorded. */
  kind?: GuardKind;
  /** A command the person can run themselves to make the change (an uninstall). */
  command?: string;
}

// ----- Decisions -----

export type Action = 'allow' | 'nudge' | 'deny' | 'stop';

export type SignalCode =
  | 'REPEAT' // the same call with the same outcome, N times in a row
  | 'CYCLE' // a cycle of 2-5 calls repeated
  | 'NEAR_DUPLICATE' // the same tool with near-identical arguments and the same kind of outcome
  | 'SAME_FAILURE' // failures with the same signature, across varied commands
  | 'FAILING_RETRY' // the same command failing again, whatever the message
  | 'NO_TREE_CHANGE' // verification runs failing the same way with nothing changed in between
  | 'UNMOVED_FAILURE' // one check failing the same way after each edit
  | 'UNSEEN_EDIT' // one file read after each change of it, showing the same content each time
  | 'TREE_OSCILLATION' // the code came back to a state seen before (edit/revert)
  | 'REREAD' // reads that bring nothing new
  | 'EDIT_REJECTED' // edits rejected again and again
  | 'REPEATED_EDIT' // the same edit applied again
  | 'EMPTY_RESULT' // searches and commands that keep returning nothing
  | 'INTENT_RETRY' // one intent tried again, spelled otherwise, failing for the same cause or telling nothing new
  | 'FRUITLESS' // lookups in a row, anywhere, that find nothing or nothing new
  | 'HUNT' // one thing looked for in place after place, with tool after tool, found nowhere
  | 'SAME_OUTCOME' // varied calls of one tool giving the same result
  | 'MALFORMED' // calls the tool could not even parse
  | 'REPEATED_TEXT' // the agent's message repeats itself, or its closing text repeats
  | 'LLM_JUDGE' // a language model, asked about the recent calls, judged the agent stuck
  | 'UNVERIFIED_STOP' // the agent ends its turn with edits no test, build or lint has seen
  | 'SPAWN_DEPTH'
  | 'SPAWN_CAP'
  | 'SELF_PROTECT'
  | 'JUDGE';

export interface SignalHit {
  code: SignalCode;
  /** The signal's strength: a count of repeats, a score, a similarity. */
  value: number;
  detail?: string;
}

export type DecisionCode =
  | 'STALL' // first stall in the task: nudge
  | 'STALL_AGAIN' // second stall in the task: stop
  | 'REPEAT_DENIED' // the call right after a nudge repeated the flagged loop
  | 'STOPPED' // the agent was already stopped in this task: keep it stopped
  | 'SPAWN_REFUSED'
  | 'SPAWN_STOP'
  | 'SELF_PROTECT'
  | 'VERIFY_FIRST';

export interface Decision {
  action: Action;
  code?: DecisionCode;
  /** Text for the agent's context (nudge) or the reason of a deny. */
  message?: string;
  /** Text for the person, when the agent is stopped. */
  stopReason?: string;
  signals: SignalHit[];
  /** True when this repeats a stop already issued in this task (the backstop), not a new detection. */
  repeat?: boolean;
  /** On a stall: how many of the agent's latest calls the detected loop covers, this call included. */
  span?: number;
}

export const ALLOW: Decision = Object.freeze({ action: 'allow', signals: [] }) as Decision;

// ----- Configuration -----

export type Mode = 'shadow' | 'enforce' | 'off';

export interface Config {
  mode: Mode;
  /** Calls kept per agent and task. */
  window: number;
  /** Identical calls (same call, same outcome) in a row that make a stall. */
  repeat: number;
  /** The same for polls (a background shell's output, `sleep 30; tail build.log`, a job's status). */
  pollRepeat: number;
  /** The same call failing this many times with nothing changed in between, whatever the error says. */
  failRepeat: number;
  /** Test, build or script runs failing the same way this many times with nothing changed in between. */
  unchangedFailures: number;
  /** Any calls failing the same way this many times with nothing changed in between. */
  sameFailures: number;
  /** How many times a cycle of 2..maxCycle calls must repeat to make a stall. */
  cycleRepeats: number;
  maxCycle: number;
  /** Stalls in one task before the agent is stopped (the first ones nudge). */
  stopAfterStalls: number;
  /** Rounds of spawns allowed per task (the spawns one response asks for are one round); the next is refused. */
  spawnCap: number;
  /** Subagent types that may spawn subagents of their own. */
  orchestrators: string[];
  /** Refusals in one task before the agent is stopped. */
  stopAfterRefusals: number;
  /** Tools never counted toward a stall (exact names). */
  exemptTools: string[];
  /** Send the main agent back once when it ends its turn with code edits no test, build or lint has seen. */
  verifyBeforeStop: boolean;
  /** Repeats of one sentence in an agent's message that make a chanting stall. */
  chant: number;
  judge: JudgeConfig;
  llm: LlmConfig;
}

/**
 * The optional LLM judge: when the cheap signals smell trouble but are not sure, a language model is asked
 * typed questions about the recent calls (short forms and outcome classes only, never raw outputs).
 */
export interface LlmConfig {
  enabled: boolean;
  /**
   * false: advisory, the verdicts are recorded in the ledger and change nothing; true: a confident "stuck" is a stall.
   */
  decide: boolean;
  provider: 'anthropic' | 'openai';
  model: string;
  /** The API's base URL; any Anthropic- or OpenAI-compatible endpoint. */
  baseUrl: string;
  /** The environment variable holding the API key. */
  apiKeyEnv: string;
  /** A hard limit on the whole request; past it the call is allowed as if nothing were asked. */
  timeoutMs: number;
  /** The judge's score from which the model is asked (below the stall threshold: "smells like trouble"). */
  smell: number;
  /** The model's confidence needed for a "stuck" to count, when `decide` is on. */
  confidence: number;
}

export interface JudgeConfig {
  /** Use the fitted model beside the deterministic floors. */
  enabled: boolean;
  /** Stuck score at or above which a stall is declared (the first one nudges). */
  threshold: number;
  /** A later stall in the task stops the agent only at or above this score; below it, it nudges again. */
  stopThreshold: number;
  /** After a nudge at or above this score, the very next call repeating the flagged loop is denied. */
  denyThreshold: number;
  /**
   * Per signal, over the shipped judge: the strength (repeats, attempts) from which that signal alone is a
   * stall, or null for a signal that decides nothing alone. What `stallguard tune` writes.
   */
  levels?: Partial<Record<SignalCode, number | null>>;
}
