// Prints, for a session log, what a hook would fold from it: the state's call count through the last
// observation, beside the call observations the file holds. Run by run.mjs through tsx: node --import tsx bench/fold.ts FILE
import { readFileSync } from 'node:fs';
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import { foldThrough, parseLine } from '../src/store/session-log.ts';

const file = process.argv[2]!;
const text = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const lines = text.map(parseLine);
const observations = lines.filter((l) => l?.t === 'o');
const calls = observations.filter((l) => l?.t === 'o' && l.o.step.k === 'call').length;
const last = observations.at(-1);
const folded = last?.t === 'o' ? foldThrough(file, last.id, DEFAULT_CONFIG).state.totals.calls : 0;
console.log(JSON.stringify({ lines: text.length, unreadable: lines.filter((l) => !l).length, calls, folded }));
