import type { GuardHit, ToolCall } from '../types.ts';
import { canonicalArgs, type NormalizeContext } from '../core/canonical.ts';
import { boundedMemo } from '../core/bounded-memo.ts';
import { digest } from '../core/digest.ts';
import { shortForm } from '../core/short-form.ts';
import { type GuardContext, guardCall } from '../guard/guard.ts';

// What a call's arguments come to, worked out once per call and once per distinct call of a replay: a
// reader hands the call about to run and its outcome the same input object, and a history repeats its
// calls (a loop is the same call again); the forms and the guard's look cost about as much as a small
// output's canonical form.

export interface CallForms {
  /** The canonical arguments, the key (tool name plus them) and the short form a step keeps. */
  args: string;
  key: string;
  short: string;
  /** What self-protection found, once it has looked: null when nothing. */
  guard?: GuardHit | null;
}

const byInput = new WeakMap<object, { name: string; cwd?: string; home?: string; forms: CallForms }>();

/**
 * The forms of calls by their content, where nothing but the call and the folders decide them: a replay,
 * whose guard reads no file (guard/context.ts).
 */
const byContent = boundedMemo<CallForms>(1 << 20, 64 * 1024);

/** Whether only the call and the folders decide its forms and the guard's answer (no file is read). */
function pure(ctx: GuardContext): boolean {
  for (const [k, v] of Object.entries(ctx)) if (k !== 'cwd' && k !== 'home' && v !== undefined) return false;
  return true;
}

function contentKey(call: ToolCall, ctx: NormalizeContext): string | undefined {
  if (!pure(ctx)) return undefined;
  return JSON.stringify([call.name, ctx.cwd, ctx.home, call.input]);
}

export function callForms(call: ToolCall, ctx: GuardContext): CallForms {
  const input = typeof call.input === 'object' && call.input !== null ? call.input : undefined;
  const seen = input && byInput.get(input);
  if (seen && seen.name === call.name && seen.cwd === ctx.cwd && seen.home === ctx.home) return seen.forms;
  const content = contentKey(call, ctx);
  let forms = content === undefined ? undefined : byContent.get(content);
  if (!forms) {
    const args = canonicalArgs(call.name, call.input, ctx);
    forms = { args, key: digest(call.name + '\u0000' + args), short: shortForm(call.name, call.input, ctx.cwd) };
    if (content !== undefined) byContent.set(content, forms);
  }
  if (input) byInput.set(input, { name: call.name, cwd: ctx.cwd, home: ctx.home, forms });
  return forms;
}

/** What self-protection finds in a call: looked for once per distinct call of a replay. */
export function callGuard(call: ToolCall, ctx: GuardContext, forms: CallForms): GuardHit | undefined {
  if (forms.guard !== undefined && pure(ctx)) return forms.guard ?? undefined;
  const hit = guardCall(call, ctx);
  if (pure(ctx)) forms.guard = hit ?? null;
  return hit;
}
