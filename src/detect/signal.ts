import type { Entry, SignalCode } from '../types.ts';
import { CAUSE_WORDS } from '../core/failure.ts';

/** What one signal sees at the latest call: its strength, the calls it speaks of, and what stayed the same. */
export interface SignalResult {
  code: SignalCode;
  value: number;
  /** The calls it speaks of, for naming them in a message. */
  calls: readonly Entry[];
  detail: string;
  /** The thing the calls are all about (a program and what it acts on), where the signal knows it. */
  subject?: string;
}

/** A signal: a pure function of an agent's window (oldest first; the latest call is the last entry). */
export type Signal = (window: readonly Entry[]) => SignalResult | undefined;

/** The first thing both lists name (two calls' intents: what they act on). */
export function shares(a: readonly string[] | undefined, b: readonly string[] | undefined): string | undefined {
  return a && b ? a.find((x) => b.includes(x)) : undefined;
}

/** The things of `a` that `b` names too, in a's order: what a run of calls all act on, narrowed call by call. */
export function common(a: readonly string[], b: readonly string[] | undefined): string[] {
  return b ? a.filter((x) => b.includes(x)) : [];
}

/** How many entries at the end of the window, counted back from the latest, satisfy `linked(earlier, later)`. */
export function tailRun(window: readonly Entry[], linked: (earlier: Entry, later: Entry) => boolean): number {
  if (window.length === 0) return 0;
  let n = 1;
  for (let i = window.length - 2; i >= 0 && linked(window[i]!, window[i + 1]!); i--) n++;
  return n;
}

/**
 * Two calls that succeeded, of one template with other values (`redis-cli SET a on`, `SET b on`): one job done to
 * two things, however alike their answers (an acknowledgement says the same each time), not one thing tried twice.
 */
export function otherObjects(a: Entry, b: Entry): boolean {
  // only calls that do something have a template: lookups are alike by their place and term
  return a.ok !== false && b.ok !== false && a.form !== undefined && a.form === b.form && a.key !== b.key;
}

/** The same call with the same outcome: only then is a repeat a repeat; a changed outcome is progress. */
export function sameCall(a: Entry, b: Entry): boolean {
  return a.key === b.key && a.out === b.out;
}

/**
 * Whether two calls came back with the same kind of outcome: the same failure, or both empty, or the very
 * same result. A result that moved at all (a count, a room, a line found) is news.
 */
export function alikeOutcome(a: Entry, b: Entry): boolean {
  if ((a.ok === false) !== (b.ok === false) || !!a.empty !== !!b.empty) return false;
  return a.out === b.out || !!a.empty || (a.ok === false && a.fail === b.fail);
}

/** What the calls came back with, as the latest says: the same failure (and its cause), empty, the same result. */
export function describeOutcome(latest: Entry, calls: readonly Entry[]): string {
  return latest.ok === false ? sameFailureDetail(calls) : latest.empty ? 'same empty result' : 'same result';
}

/**
 * "same failure", and what `rest` adds, with the cause the failing calls all share where it has words:
 * `same failure: connection refused, nothing changed in between`.
 */
export function sameFailureDetail(calls: readonly Entry[], rest = ''): string {
  const causes = new Set(calls.filter((c) => c.ok === false).map((c) => c.cause));
  const [cause] = causes;
  const words = causes.size === 1 && cause !== undefined ? CAUSE_WORDS[cause] : undefined;
  return words === undefined ? `same failure${rest}` : `same failure: ${words}${rest}`;
}
