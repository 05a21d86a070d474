import { Session } from '../support/session.ts';
import type { Case } from './cases.ts';

/** Runs one synthetic case; `timeline` is what stallguard did, `right` whether that is what the case expects. */
export function runCase(c: Case): { timeline: string; right: boolean } {
  const s = new Session(c.config);
  c.run(s);
  const timeline = s.timeline.join(' ');
  return { timeline, right: c.expect.test(timeline) };
}
