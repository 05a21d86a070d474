import type { TunedInfo } from './load.ts';

/** A tuned layer in one line, as status and doctor show it: when, from how many verdicts, what it changed. */
export function tunedLine(t: TunedInfo): string {
  const when = t.date ? ` on ${t.date.slice(0, 10)}` : '';
  const from = t.verdicts !== undefined ? ` from ${t.verdicts} verdict${t.verdicts === 1 ? '' : 's'}` : '';
  const changed = Object.entries(t.changed ?? {}).map(([k, [a, b]]) => `${k.replace(/^judge\.levels\./, '')} ${a} -> ${b}`);
  return `tuned (${t.scope} scope)${when}${from}: ${changed.length > 0 ? changed.join(', ') : 'no setting changed'} (${t.file})`;
}
