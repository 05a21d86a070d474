import type { TunedInfo } from './load.ts';

/** A tuned layer in one line, as status and doctor show it: when, from how many verdicts, what it changed. */
export function tunedLine(t: TunedInfo): string {
  const when = t.date ? ` on ${t.date.slice(0, 10)}` : '';
  const from = t.verdicts !== undefined ? ` from ${t.verdicts} verdict${t.verdicts === 1 ? '' : 's'}` : '';
  // what tune noted it changed, or else (a layer edited by hand, or without the note) what the layer sets
  const name = (k: string) => k.replace(/^judge\.levels\./, '');
  const noted = Object.entries(t.changed ?? {}).map(([k, [a, b]]) => `${name(k)} ${a} -> ${b}`);
  const said = noted.length > 0 ? noted : Object.entries(t.sets).map(([k, v]) => `${name(k)} ${v}`);
  return (
    `tuned (${t.scope} ` +
    `scope)${when}${from}: ${said.length > 0 ? said.join(', ') : 'no setting changed'} (${t.file})`
  );
}
