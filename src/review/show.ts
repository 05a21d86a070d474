import type { ReviewItem } from './items.ts';
import type { Answer } from '../store/verdicts.ts';

// An intervention as text for the terminal: plain ASCII marks and no colour, so it reads the same in any
// terminal, in a pipe and in a log.

const WIDTH = 100;

function wrap(text: string, indent: string): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + line.length + 1 + word.length > WIDTH) {
        out.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) out.push(indent + line);
  }
  return out;
}

function when(time: number | undefined): string {
  return time ? new Date(time).toISOString().slice(0, 16).replace('T', ' ') : '';
}

const DONE: Record<string, string> = { nudge: 'nudged here', stop: 'stopped here', deny: 'denied here' };

export function itemText(item: ReviewItem, position: number, total: number, earlier?: Answer): string {
  const live = item.source === 'ledger';
  const mode = live ? (item.mode === 'enforce' ? 'enforce' : 'shadow') : 'scan';
  const who = item.agent === 'main' ? 'main agent' : `subagent ${item.agent}`;
  const head = [
    `[${position}/${total}] ${item.action} (${mode})`,
    item.agentName,
    item.project,
    when(item.time),
    `session ${item.session.slice(0, 12)} (${who})`,
  ]
    .filter(Boolean)
    .join(' · ');
  const out = [head];
  const width = Math.min(56, Math.max(...item.calls.map((c) => c.short.length)));
  const number = Math.max(...item.calls.map((c) => String(c.step + 1).length));
  const hidden = item.record.span - item.calls.filter((c) => c.part === 'loop').length;
  let loops = 0;
  for (const c of item.calls) {
    if (c.part === 'loop' && loops++ === 2 && hidden > 0)
      out.push(`  >   ... ${hidden} more call${hidden === 1 ? '' : 's'} of the loop ...`);
    const mark = c.part === 'loop' ? '>' : ' ';
    const short = c.short.length > width ? c.short.slice(0, width - 1) + '~' : c.short.padEnd(width);
    const notes = [
      c.outcome.padEnd(9),
      c.sameAs !== undefined ? `same as call ${c.sameAs + 1}` : '',
      c.flagged ? `<- ${DONE[item.action] ?? item.action}` : '',
      c.part === 'after' ? '(after)' : '',
    ]
      .filter(Boolean)
      .join('  ');
    out.push(`  ${mark} call ${String(c.step + 1).padStart(number)}  ${short}  ${notes}`.trimEnd());
  }
  if (item.then.next === 'calls')
    out.push(`    ... and ${item.then.calls} more call${item.then.calls === 1 ? '' : 's'} in this task`);
  else out.push(item.then.next === 'prompt' ? '    then a new prompt from the person' : '    then the session ends');
  const enforced = live && item.mode === 'enforce';
  const shadow = live ? ' (shadow mode)' : '';
  if (item.action === 'stop' && item.stopReason) {
    // the agent is told the same reason, as the refusal of its next call
    out.push(
      `  stallguard ${enforced ? 'stopped the agent for you:' : `would have stopped the agent for you${shadow}:`}`,
      ...wrap(item.stopReason, '    '),
    );
  } else if (item.message)
    out.push(
      `  stallguard ${enforced ? 'told the agent:' : `would have told the agent${shadow}:`}`,
      ...wrap(item.message, '    '),
    );
  const signals = item.signals
    .map((s) => (s.code === 'JUDGE' ? `judge ${s.value}` : `${s.code} ${s.value}`))
    .join(', ');
  out.push(`  signals: ${signals}`);
  if (earlier) out.push(`  (you said ${earlier} before)`);
  return out.join('\n');
}

export const QUESTION = 'Was stallguard right to step in here? [r]ight  [w]rong  [s]kip  [u]ndo  [q]uit  [?]help ';

export const HELP = `  r  right: the agent was stuck here, and stepping in was the right call
  w  wrong: the agent was not stuck (or not yet): this should not have been flagged
  s  skip: not sure, or not now (it is not asked again; review --again asks it)
  u  undo: back to the one before, to answer it again
  q  quit: the verdicts given so far are kept; review goes on from here next time`;
