import { parseOptions } from './_args.ts';

export const summary = 'the rule for agent instruction files';

// The cheapest loop is the one the agent never starts: this rule, in CLAUDE.md or AGENTS.md, makes the
// agent stop and rethink on its own before the hook has to step in.
export const RULES_TEXT = `## When an approach keeps failing

After more than three failed attempts at the same failure, stop before trying again and:
1. restate the task in one sentence;
2. list the assumptions you are relying on, and which of them might be wrong;
3. propose a different approach, and say why it should behave differently.
Re-running the same command or re-applying the same edit without a change in between does not count as a new attempt.`;

export function run(argv: string[]): number {
  const { values } = parseOptions('rules', argv, { help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    console.log(
      'usage: stallguard rules\n\nPrints a rule for CLAUDE.md / ' +
        'AGENTS.md. `stallguard install --rules` adds it for you.',
    );
    return 0;
  }
  console.log(RULES_TEXT);
  return 0;
}
