// Prints, for a session log, what a hook would fold from it: the state's call count through the last
// observation, beside the call observations the log holds (across its segments). Run by run.mjs through
// tsx: node --import tsx bench/fold.ts FILE
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import { foldLatest, sessionLog } from '../src/store/segments.ts';

const file = process.argv[2]!;
const lines = [...sessionLog(file)];
const calls = lines.filter((l) => l?.t === 'o' && l.o.step.k === 'call').length;
const folded = foldLatest(file, DEFAULT_CONFIG).state.totals.calls;
console.log(JSON.stringify({ lines: lines.length, unreadable: lines.filter((l) => !l).length, calls, folded }));
