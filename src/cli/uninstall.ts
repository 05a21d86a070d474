import { readText } from '../install/files.ts';
import { removeRules } from '../install/rules-block.ts';
import { AGENTS } from '../hook/run-hook.ts';
import { ALL_TARGETS } from '../install/targets.ts';
import { apply, type Plan, resolveScope, resolveTarget, show } from './install.ts';
import { parse } from './_args.ts';

export const summary = 'remove exactly what install added';

export function run(argv: string[]): number {
  const { values } = parse('uninstall', argv, {
    agent: { type: 'string' },
    scope: { type: 'string' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(`usage: stallguard uninstall [--agent ${AGENTS.join('|')}] [--scope project|user] [--dry-run]\n\nRemoves stallguard's hooks and rule block, and nothing else.`);
    return 0;
  }
  const target = resolveTarget('uninstall', values.agent);
  const scope = resolveScope('uninstall', target, values.scope);
  const project = process.cwd();
  const plans: Plan[] = [];
  const file = target.settingsFile(scope, project, process.env);
  // every form the agent may be registered in (Codex: hooks.json and config.toml)
  for (const form of ALL_TARGETS.filter((t) => t.agent === target.agent)) {
    const at = form.settingsFile(scope, project, process.env);
    const before = readText(at);
    if (before === undefined) continue;
    const after = form.remove(before, at);
    // a settings file install created holds nothing else: remove it rather than leave an empty object
    plans.push({ target: form, file: at, before, after: after.replace(/\s/g, '') === '{}' && before.replace(/\s/g, '') !== '{}' ? '' : after });
  }
  const rulesFile = target.rulesFile(scope, project, process.env);
  const rules = rulesFile ? readText(rulesFile) : undefined;
  if (rulesFile && rules !== undefined) plans.push({ target, file: rulesFile, before: rules, after: removeRules(rules) });
  const dryRun = values['dry-run'] === true;
  const changed = apply(plans, dryRun);
  const touched = plans.filter((p) => p.before !== p.after && p.file !== rulesFile).map((p) => show(p.file));
  if (!dryRun) console.log(changed === 0 ? `stallguard: nothing to remove for ${target.label} (${show(file)})` : `stallguard: removed the hook for ${target.label} from ${touched.join(' and ') || show(file)}.`);
  return 0;
}
