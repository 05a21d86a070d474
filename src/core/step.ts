import type { CallStep, Event, Observation, Step, ToolCall } from '../types.ts';
import { canonicalArgs, canonicalOutput, type NormalizeContext } from './canonical.ts';
import { classify } from './classify.ts';
import { digest } from './digest.ts';
import { failureSignature, inferOk, isEmptyResult, isMalformed } from './failure.ts';
import { outputText } from './output-text.ts';
import { guardCall, type GuardContext } from '../guard/guard.ts';
import { redact } from './redact.ts';
import { boundedId } from './ids.ts';
import { shortForm } from './short-form.ts';
import { sketch } from './sketch.ts';
import { chantCount } from './chant.ts';

export interface StepContext extends NormalizeContext, GuardContext {}

/** The digest of a call: tool name plus canonical arguments. */
export function callKey(call: ToolCall, ctx: NormalizeContext): string {
  return digest(call.name + '\u0000' + canonicalArgs(call.name, call.input, ctx));
}

function callStep(call: ToolCall, output: unknown, ok: boolean | null, ctx: NormalizeContext, tree?: string): CallStep {
  const args = canonicalArgs(call.name, call.input, ctx);
  const text = outputText(output);
  const outcome = canonicalOutput(typeof output === 'string' ? output : text || output, ctx);
  const shape = classify(call.name, call.input);
  const known = ok ?? inferOk(text);
  const step: CallStep = {
    k: 'call',
    tool: call.name,
    cls: shape.cls,
    key: digest(call.name + '\u0000' + args),
    out: digest(outcome),
    ok: known,
    short: shortForm(call.name, call.input, ctx.cwd),
    sim: sketch(args),
  };
  if (known === false) step.fail = digest(failureSignature(outcome));
  if (shape.target) step.target = digest(canonicalArgs('', shape.target, ctx));
  if (shape.cls === 'read') step.region = digest(canonicalArgs('', `${shape.target ?? ''}\u0000${shape.range ?? args}`, ctx));
  if (shape.change !== undefined) step.change = digest(canonicalArgs('', shape.change, ctx));
  if (shape.cls === 'edit' && shape.target && /\.(?:md|markdown|mdx|txt|rst|adoc)$/i.test(shape.target)) step.doc = true;
  if (isEmptyResult(text)) step.empty = true;
  if (isMalformed(call.name, text)) step.malformed = true;
  if (tree) step.tree = tree;
  return step;
}

/** Reduces an event to the compact Step the engine folds and the ledger stores. */
export function toStep(event: Event, ctx: StepContext): Step {
  const nctx: StepContext = { ...ctx, cwd: event.cwd ?? ctx.cwd };
  switch (event.kind) {
    case 'post-tool':
      return callStep(event.call, event.output, event.ok, nctx, event.tree);
    case 'pre-tool': {
      const step: Step = { k: 'pre', tool: event.call.name, key: callKey(event.call, nctx), short: shortForm(event.call.name, event.call.input, nctx.cwd) };
      const guard = guardCall(event.call, nctx);
      if (guard) step.guard = guard;
      return step;
    }
    case 'spawn':
      return { k: 'spawn', childType: boundedId(redact(event.childType ?? 'agent')), short: shortForm(event.call.name, event.call.input, nctx.cwd) };
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

export function observation(event: Event, ctx: StepContext): Observation {
  const { id, type } = event.agent;
  const agent = type === undefined ? { id: boundedId(id) } : { id: boundedId(id), type: boundedId(type) };
  const obs: Observation = { step: toStep(event, ctx), agent };
  if (event.task !== undefined) obs.task = boundedId(event.task);
  if (event.time !== undefined) obs.time = event.time;
  return obs;
}
