import type { Entry, SignalCode } from '../types.ts';
import { common, type SignalResult } from '../detect/signal.ts';
import type { Stall } from './find-stall.ts';

// Wording is factual on purpose: Claude treats imperative "system" text as possible prompt injection,
// and a person reading the ledger should see exactly what was repeated, how often, and what decided.

function quote(short: string): string {
  return '`' + short + '`';
}

/** What each signal saw, as the reason a stall was declared. */
const DECIDED_BY: Record<SignalCode, string> = {
  REPEAT: 'the same call with the same result',
  CYCLE: 'a cycle of calls going round with the same results',
  NEAR_DUPLICATE: 'near-identical calls with the same result',
  SAME_FAILURE: 'the same failure across varied commands, nothing changed in between',
  FAILING_RETRY: 'the same command failing again, nothing changed in between',
  NO_TREE_CHANGE: 'failing runs with nothing changed in between',
  UNMOVED_FAILURE: 'the same failure after every edit',
  UNSEEN_EDIT: 'edits that never show in the file',
  TREE_OSCILLATION: 'edits that undo earlier edits',
  REREAD: 'reads that bring nothing new',
  EDIT_REJECTED: 'edits rejected again and again',
  REPEATED_EDIT: 'the same edit applied again',
  EMPTY_RESULT: 'the same lookup finding nothing',
  INTENT_RETRY: 'one thing tried in different ways, failing for the same cause or telling nothing new',
  FRUITLESS: 'lookups in a row that find nothing new',
  HUNT: 'one thing looked for in place after place (or page after page of one site), found nowhere',
  SAME_OUTCOME: 'varied calls that all give the same result',
  MALFORMED: 'calls the tool could not parse',
  REPEATED_TEXT: 'the same closing text again',
  LLM_JUDGE: "a language model's judgment of the recent calls",
  UNVERIFIED_STOP: 'edits no test has seen',
  SPAWN_DEPTH: 'subagents spawning subagents',
  SPAWN_CAP: 'too many subagents in one task',
  SELF_PROTECT: 'a change to stallguard itself',
  JUDGE: "the judge's score",
};

/**
 * The loop in short form: `Bash npm test` x5 (same failure); `Edit a.ts` → `Bash npm test` x5 (same failure
 * each round); `Grep "x"`, `Grep "y"`, `Grep "z"` (4 similar calls, nothing found). A single call is counted
 * over the whole task (`times`), not only since the last nudge.
 */
function describeLoop(lead: SignalResult, times?: number): string {
  if (lead.code === 'CYCLE')
    return `${lead.calls.map((c) => quote(c.short)).join(' → ')} x${lead.value} (${lead.detail})`;
  const shorts = [...new Set(lead.calls.map((c) => c.short))];
  const count = lead.calls.length;
  if (shorts.length === 1) return `${quote(shorts[0]!)} x${times ?? count} (${lead.detail})`;
  const named = shorts.slice(0, 3).map(quote).join(', ') + (shorts.length > 3 ? ` and ${shorts.length - 3} more` : '');
  return `${named} (${count} similar calls, ${lead.detail})`;
}

/**
 * An intent as the message names it, as the calls wrote it: intents are in lower case, to be one thing however
 * cased (`gradlew assembleDebug`, not `gradlew assembledebug`), and read a version as `#` (so that `nvm install
 * 24.12.0` and `nvm install v24.12.0` are one thing), named with the versions the latest call says, when it says
 * as many.
 */
function shownIntent(intent: string, calls: readonly Entry[]): string {
  const marks = intent.split('#').length - 1;
  const versions = marks > 0 ? (calls.at(-1)?.short.match(/\bv?\d+(?:\.\d+)+\b/g) ?? []) : [];
  let k = 0;
  const versioned = marks > 0 && versions.length >= marks ? intent.replace(/#/g, () => versions[k++]!) : intent;
  return versioned
    .split(' ')
    .map((word) => spelled(word, calls) ?? word)
    .join(' ');
}

/** A letter, a digit or an underscore: a word of an intent stands in a call where none is on either side of it. */
const WORD_CHAR = /\w/;

/** The word as the latest call holding it, case aside, wrote it. */
function spelled(word: string, calls: readonly Entry[]): string | undefined {
  for (let i = calls.length - 1; i >= 0; i--) {
    const short = calls[i]!.short;
    const lower = short.toLowerCase();
    // a character whose lower case is longer (İ) would shift every place after it
    if (lower.length !== short.length) continue;
    for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1))
      if (!WORD_CHAR.test(short[at - 1] ?? ' ') && !WORD_CHAR.test(short[at + word.length] ?? ' '))
        return short.slice(at, at + word.length);
  }
  return undefined;
}

/** How the attempts at one thing ended, as the message says it. */
function outcomeWords(detail: string): string {
  if (detail === 'not found') return 'is not found';
  if (detail === 'nothing new') return 'told nothing new';
  return `fails (${detail})`;
}

function what(stall: Stall): string {
  const { lead } = stall;
  const name = (intent: string) => quote(shownIntent(intent, lead.calls));
  if (lead.code === 'REPEAT')
    return `the same call ran ${stall.times ?? lead.calls.length} times and the result did not change`;
  if (lead.code === 'CYCLE')
    return (
      `the last ${lead.calls.length * lead.value} calls repeat one cycle ` +
      `of ${lead.calls.length} calls ${lead.value} times, and the results did not change`
    );
  // the thing and the shared cause: `adb` is not found: tried 5 ways
  if (lead.code === 'INTENT_RETRY' && lead.subject !== undefined)
    return `${name(lead.subject)} ${outcomeWords(lead.detail)}: tried ${lead.value} ways`;
  // the thing hunted: `update-export-files` is found nowhere: looked for it 5 ways
  if (lead.code === 'HUNT' && lead.subject !== undefined)
    return lead.detail === 'no such page'
      ? `no page asked of ${quote(lead.subject)} is there: tried ${lead.value}`
      : `${quote(lead.subject)} is found nowhere: looked for it ${lead.value} ways`;
  // the check and what the edits did to it: `eww reload` fails the same way after each of 3 edits
  if (lead.code === 'UNMOVED_FAILURE' && lead.subject !== undefined)
    return (
      `${name(lead.subject)} fails the same way after each of ${lead.value - 1} edits: ` +
      'they do not reach the failure'
    );
  // the file and what the edits did to it: `Read app.py` shows the same file after each of 3 edits
  if (lead.code === 'UNSEEN_EDIT')
    return (
      `${quote(lead.calls.at(-1)!.short)} shows the same file after each of ${lead.value} edits: ` +
      'they do not take effect'
    );
  const subject = sharedIntent(lead);
  const who = subject === undefined ? 'the last calls' : `the last calls, each at ${name(subject)},`;
  return `${who} repeat one approach without progress (${DECIDED_BY[stall.decider]})`;
}

/**
 * The one thing every looping shell call acts on (`git push`), where they all act on one, spelled otherwise (a
 * tool's own calls are named by their file already).
 */
function sharedIntent(lead: SignalResult): string | undefined {
  if (new Set(lead.calls.map((c) => c.short)).size < 2 || lead.calls.some((c) => c.prog === undefined))
    return undefined;
  return lead.calls.reduce((shared, c) => common(shared, c.intent), lead.calls[0]?.intent ?? [])[0];
}

export function nudgeMessage(stall: Stall): string {
  return (
    `stallguard: ${what(stall)}: ${describeLoop(stall.lead, stall.times)}. ` +
    'Another attempt of the same kind is unlikely to give a different result. ' +
    'Step back and check your progress: what you have learned, which assumptions may be wrong; then change approach ' +
    '(a different hypothesis, a different tool, or ask the user).'
  );
}

/** `stall: <the loop>, twice in this task`, and what decided when it is not the loop itself. */
export function stallStopReason(stall: Stall): string {
  const reason = `stall: ${describeLoop(stall.lead, stall.times)}, twice in this task`;
  return stall.decider === stall.lead.code ? reason : `${reason} (${DECIDED_BY[stall.decider]})`;
}

export function stoppedDenyMessage(reason: string): string {
  return `stallguard stopped this agent for the person (${reason}). No further tool calls run in this task.`;
}

export function deniedRepeatMessage(stall: Stall): string {
  return (
    'stallguard: this call repeats the loop flagged just before ' +
    `(${describeLoop(stall.lead, stall.times)}). It was not run. Try something different.`
  );
}
