import type { CallFacts, CallStep, Event, Observation, Step, ToolCall } from '../types.ts';
import { canonicalArgs, canonicalOutput, canonicalText, idsIn, type NormalizeContext } from '../core/canonical.ts';
import { argsTemplate, shellTemplate } from '../core/template.ts';
import { classify, PAGE_ADDRESS } from '../core/classify.ts';
import { digest } from '../core/digest.ts';
import {
  CAUSE_CLASSES,
  failureCause,
  failureSignature,
  isErrorAnswer,
  isInlineSyntaxError,
  isUsageError,
  saysFailed,
  withoutStartupErrors,
} from '../core/failure.ts';
import { outcomeLines } from '../core/novelty.ts';
import { outputText } from '../core/output-text.ts';
import type { GuardContext } from '../guard/guard.ts';
import { callForms, callGuard } from './call-forms.ts';
import { redact, redactCommand } from '../core/redact.ts';
import { boundedId } from '../core/ids.ts';
import { shortForm } from '../core/short-form.ts';
import { lettersAndDigits } from '../core/plain-ascii.ts';
import { sketch } from '../core/sketch.ts';
import { chantCount } from '../core/chant.ts';

/** Programs that find processes or ports and exit 1 when there are none. */
const FINDERS = new Set(['lsof', 'pgrep', 'pidof']);
/** A URL's host, as a read of it names it. */
const URL_HOST = /^https?:\/\/([^/?#\s]+)/i;

/**
 * The site a host belongs to, without a public suffix list: its last two labels (`docs.acme.dev` and `acme.dev`
 * are one site), three where the second last is a registry's own short label (`shop.acme.co.uk`); an address
 * or a single name (`localhost:3000`) is a site of its own.
 */
export function siteOf(host: string): string {
  const name = host.replace(/:\d+$/, '');
  if (/^[\d.]+$|^\[/.test(name) || !name.includes('.')) return host;
  const labels = name.split('.');
  const keep = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** An answer that says the awaited job is still under way. */
const WAITING = /\b(?:in[_ -]progress|running|queued|pending|waiting|starting|building|deploying)\b/i;

/** The quotes a search's answer puts around the term it echoes. */
const ECHO_QUOTES: readonly [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ['“', '”'],
  ['`', '`'],
];

export interface StepContext extends NormalizeContext, GuardContext {}

/** A digest short enough to store several per call, long enough to tell a window's intents apart. */
function short(text: string): string {
  return digest(text).slice(0, 8);
}

/**
 * The file or folder a shell command reads, searches or edits, named from its folder (`src`, `notes.txt`),
 * written as a tool's path under the working directory canonicalises (`./src`): one place is one target, whether
 * the shell or a tool names it. Other targets (a test's or a poll's command words) are left as they are.
 */
function placeFromCwd(target: string, cls: CallStep['cls'], shell: boolean): string {
  const place = cls === 'read' || cls === 'search' || cls === 'edit';
  return shell && place && /^[\w@%+][^\s:]*$/.test(target) ? `./${target}` : target;
}

function callStep(
  call: ToolCall,
  output: unknown,
  ok: boolean | null,
  facts: CallFacts,
  ctx: NormalizeContext,
  tree?: string,
): CallStep {
  const forms = callForms(call, ctx);
  const args = forms.args;
  const named = idsIn(args);
  // classified as redacted: what the shape keeps (intents, an edit's text) may not depend on a secret, and a
  // credential pasted on lines of its own would read as commands of their own
  const shape = classify(
    call,
    facts.command === undefined ? facts : { ...facts, command: redactCommand(facts.command) },
  );
  const printed = outputText(output);
  const text = facts.command !== undefined ? withoutStartupErrors(printed, facts.command) : printed;
  // a search that quotes what it looked for (`results for query: "..."`, `No matches for pattern "..."`) says the
  // same when it finds nothing new; its matches, which hold the term too, are left as they are
  const quoted = shape.cls === 'search' && shape.term !== undefined && shape.term.length >= 4 ? shape.term : undefined;
  const echoed = quoted !== undefined && ECHO_QUOTES.some(([l, r]) => text.includes(l + quoted + r));
  const outcome = canonicalOutput(
    echoed
      ? ECHO_QUOTES.reduce((t, [l, r]) => t.replaceAll(l + quoted + r, `${l}<term>${r}`), text)
      : typeof output === 'string' && text === printed
        ? output
        : text || output,
    ctx,
  );
  const blank = text.trim().length === 0;
  // grep and its kin exit 1 when nothing matched: that is an empty result, not a failure; so do the finders of
  // processes and ports run on their own (`lsof -i :3000`, `pgrep -f next`: nothing is there)
  const finder = shape.programs?.length === 1 && FINDERS.has(shape.programs[0]!);
  if (ok === false && (blank || facts.empty) && (shape.cls === 'search' || finder)) ok = true;
  // a test or build piped into tail exits as tail does; its output still says whether it failed
  if (ok !== false && shape.cls === 'test' && (ok === null || /\|/.test(facts.command ?? '')) && saysFailed(text))
    ok = false;
  // a script that catches its own error and prints it exits 0: a short answer that is only an error is a failure
  // and so is a page a server answered with nothing but its error (`curl -s .../v1/me`: `{"error":"unauthorized"}`)
  const page = shape.cls === 'read' && facts.command !== undefined && PAGE_ADDRESS.test(shape.target ?? '');
  if (ok !== false && (shape.cls === 'exec' || shape.cls === 'test' || page) && isErrorAnswer(text)) ok = false;
  // the script as the call's canonical forms read it, and what a lookup looks for, each worked out once
  const script = shape.script !== undefined ? canonicalText(shape.script, ctx) : undefined;
  const sought = shape.term !== undefined ? canonicalText(shape.term, ctx) : undefined;
  const step: CallStep = {
    k: 'call',
    tool: call.name,
    cls: shape.cls,
    key: forms.key,
    out: digest(outcome),
    ok,
    short: forms.short,
    // a shell command by what it runs: the shell it is handed to and the call's envelope are the same each time
    sim: sketch(script ?? args),
  };
  if (ok === false) {
    step.fail = digest(failureSignature(outcome));
    const cause = failureCause(outcome, facts.command);
    step.cause = CAUSE_CLASSES.has(cause) ? cause : `t:${short(cause)}`;
  }
  const where = shape.target
    ? canonicalText(placeFromCwd(shape.target, shape.cls, facts.command !== undefined), ctx)
    : '';
  // a shell command's intent is what its programs act on; a tool's own call, its file or place where it names one
  // (a tool called for many things, issues written one after another, has no intent to repeat)
  const intents = shape.intents ?? (shape.target ? [`${call.name} ${where}`] : []);
  // kept readable (redacted, cut short): a message names the thing tried
  if (intents.length > 0) step.intent = intents.map((i) => canonicalText(i, ctx).slice(0, 80));
  if (shape.programs && shape.programs.length > 0) step.prog = shape.programs.map((p) => p.slice(0, 40));
  if (shape.cls !== 'edit' && !facts.hidden) {
    const lines = outcomeLines(outcome);
    if (lines.length > 0) step.lines = lines;
  }
  if (shape.target) step.target = digest(where);
  // a lookup's term, or the site a read of a URL asks (pages guessed on one site are one hunt)
  const host =
    shape.cls === 'read' && shape.target?.slice(0, 4).toLowerCase() === 'http'
      ? URL_HOST.exec(shape.target)?.[1]?.toLowerCase()
      : undefined;
  // pages guessed on one site are one hunt, on the site's own host or another of its hosts (docs., api.)
  const looked = shape.cls === 'search' || shape.cls === 'read' ? (sought ?? (host && siteOf(host))) : undefined;
  if (looked !== undefined) step.sought = looked.slice(0, 60);
  if (named.length > 0) step.ids = digest([...new Set(named)].sort().join(' '));
  // only calls that do something are one job done to many things; inline code is a script of its own each time
  if ((shape.cls === 'exec' || shape.cls === 'test' || shape.cls === 'other') && !shape.inline)
    step.form = digest(script !== undefined ? shellTemplate(script) : argsTemplate(args));
  if (shape.cls === 'read')
    step.region = digest(canonicalText(`${shape.target ?? ''}\u0000${shape.range ?? args}`, ctx));
  if (shape.change !== undefined) step.change = digest(canonicalArgs('', shape.change, ctx));
  if (shape.cls === 'edit' && shape.after !== undefined) {
    // digests of redacted text only: nothing stored may depend on a secret the edit holds
    const after = canonicalText(shape.after, ctx);
    if (shape.before === undefined) step.written = digest(`${where}\u0000${after}`);
    else {
      const before = canonicalText(shape.before, ctx);
      step.change = digest(`${where}\u0000${before}\u0000${after}`);
      step.undo = digest(`${where}\u0000${after}\u0000${before}`);
      if (shape.before === shape.after) step.noop = true;
    }
  }
  if (shape.cls === 'edit' && shape.target && /\.(?:md|markdown|mdx|txt|rst|adoc)$/i.test(shape.target))
    step.doc = true;
  if (facts.empty || (blank && !facts.hidden)) step.empty = true;
  if (facts.unchanged && shape.cls === 'read') step.unchanged = true;
  // case and separators do not make another name: floor_div, FloorDiv and floordiv are one lookup
  if (sought !== undefined) step.term = sketch(lettersAndDigits(sought.toLowerCase()));
  // a program's usage error says the call itself was wrong; only a failed command's output is read for one
  if (
    facts.malformed ||
    (ok === false && facts.command !== undefined && (isUsageError(text) || (shape.inline && isInlineSyntaxError(text))))
  )
    step.malformed = true;
  if (facts.rejected) step.rejected = true;
  if (facts.refused) step.refused = true;
  if (facts.skipped) step.skipped = true;
  if (shape.cls === 'poll' && WAITING.test(text.slice(0, 2000))) step.waiting = true;
  if (tree) step.tree = tree;
  return step;
}

/** Reduces an event to the compact Step the engine folds and the ledger stores. */
export function toStep(event: Event, ctx: StepContext): Step {
  const nctx: StepContext = { ...ctx, cwd: event.cwd ?? ctx.cwd };
  switch (event.kind) {
    case 'post-tool':
      return callStep(event.call, event.output, event.ok, event.facts ?? {}, nctx, event.tree);
    case 'pre-tool': {
      const forms = callForms(event.call, nctx);
      const step: Step = { k: 'pre', tool: event.call.name, key: forms.key, short: forms.short };
      const guard = callGuard(event.call, nctx, forms);
      if (guard) step.guard = guard;
      return step;
    }
    case 'spawn':
      return {
        k: 'spawn',
        childType: boundedId(redact(event.childType ?? 'agent')),
        short: shortForm(event.call.name, event.call.input, nctx.cwd),
      };
    case 'prompt':
      return { k: 'prompt' };
    case 'batch-end':
      return { k: 'batch' };
    case 'stop': {
      const step: Step = { k: 'stop' };
      if (event.message) {
        step.text = digest(redact(event.message).replace(/\s+/g, ' ').trim());
        const chant = chantCount(event.message);
        if (chant > 0) step.chant = chant;
      }
      if (event.stopHookActive) step.active = true;
      return step;
    }
    case 'session-start':
      return { k: 'start' };
    case 'session-end':
      return { k: 'end' };
  }
}

/** What an observation keeps of the agent's id for a call: its tail tells a batch's few calls apart, in fewer bytes. */
export function callTail(id: string): string {
  return id.slice(-12);
}

export function observation(event: Event, ctx: StepContext): Observation {
  const { id, type } = event.agent;
  const agent = type === undefined ? { id: boundedId(id) } : { id: boundedId(id), type: boundedId(type) };
  const obs: Observation = { step: toStep(event, ctx), agent };
  if (event.task !== undefined) obs.task = boundedId(event.task);
  if (event.time !== undefined) obs.time = event.time;
  if (event.kind === 'post-tool' && event.late !== undefined && event.call.id) {
    obs.call = callTail(event.call.id);
    if (event.late) obs.late = true;
  }
  return obs;
}
