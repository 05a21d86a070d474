import { type ConfigProblem, describeProblem } from '../config/validate.ts';

/** Config problems are reported, never fatal: the bad field falls back to its default. */
export function explainProblems(problems: ConfigProblem[]): void {
  for (const p of problems) console.error(`stallguard: config: ${describeProblem(p)}`);
}
