// Prints, for a session log, what a hook would fold from it: the state's call count through the last
// observation and its live agents, beside the call observations the log holds (across its segments) and
// its largest checkpoint. Run by run.mjs through tsx: node --import tsx bench/fold.ts FILE
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import { foldLatest, sessionLog } from '../src/store/segments.ts';

const file = process.argv[2]!;
const lines = [...sessionLog(file)];
const calls = lines.filter((l) => l?.t === 'o' && l.o.step.k === 'call').length;
const checkpoint = Math.max(0, ...lines.map((l) => (l?.t === 'c' ? JSON.stringify(l).length : 0)));
const state = foldLatest(file, DEFAULT_CONFIG).state;
console.log(
  JSON.stringify({
    lines: lines.length,
    unreadable: lines.filter((l) => !l).length,
    calls,
    folded: state.totals.calls,
    agents: Object.keys(state.agents).length,
    checkpoint,
  }),
);
