import { attempts, sameTree } from './recent.ts';
import { describeOutcome, type Signal, sameCall, tailRun } from './signal.ts';

/** The same call with the same outcome, again and again. The seed rule stalls at five. */
export const repeat: Signal = (window) => {
  // a change the hook saw in the working tree (the person's, a shell's) between two runs ends the run
  const run = tailRun(window, (a, b) => sameCall(a, b) && sameTree(a, b));
  const calls = window.slice(-run);
  // the same call twice in one parallel batch is one step, not a retry
  const n = attempts(calls);
  return n >= 2 ? { code: 'REPEAT', value: n, calls, detail: describeOutcome(window.at(-1)!, calls) } : undefined;
};
