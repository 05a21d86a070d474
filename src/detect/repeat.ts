import { describeOutcome, type Signal, sameCall, tailRun } from './signal.ts';

/** The same call with the same outcome, again and again. The seed rule stalls at five. */
export const repeat: Signal = (window) => {
  const run = tailRun(window, sameCall);
  return run >= 2 ? { code: 'REPEAT', value: run, calls: window.slice(-run), detail: describeOutcome(window.at(-1)!) } : undefined;
};
