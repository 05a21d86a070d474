import { AGENTS } from '../hook/run-hook.ts';
import {
  type Change,
  changes,
  describeChange,
  excludeOwner,
  uninstallChange,
  writeUninstall,
} from '../install/apply.ts';
import { removeExclude } from '../install/exclude.ts';
import { readText } from '../install/files.ts';
import { repoOf, repoPath } from '../install/git.ts';
import { fileAt, placesOf, type Where } from '../install/place.ts';
import { removeRules } from '../install/rules-block.ts';
import { ALL_TARGETS } from '../install/targets.ts';
import { stallguardHome } from '../config/load.ts';
import { resolveTarget, resolveWhere, scopeOf, show } from './install.ts';
import { parseOptions } from './_args.ts';

export const summary = 'remove exactly what install added';

const HELP = `usage: stallguard uninstall [--agent ${AGENTS.join('|')}] [--scope local|project|user] [--dry-run]

Removes stallguard's hooks, its rule block and its line in .git/info/exclude, and nothing else: a file
nobody changed since install is given back exactly as it was (or removed, when install created it, with
the folders install created for it if they are left empty). Without --scope: this project's installs,
local and project. For Codex, both forms: hooks.json and the config.toml block of --config-toml.`;

export function run(argv: string[]): number {
  const { values } = parseOptions('uninstall', argv, {
    agent: { type: 'string' },
    scope: { type: 'string' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const target = resolveTarget('uninstall', values.agent);
  const places: Where[] =
    values.scope !== undefined
      ? [resolveWhere('uninstall', target, values.scope)]
      : placesOf(target).filter((w) => w !== 'user');
  const project = process.cwd();
  const env = process.env;
  const home = stallguardHome(env);
  const repo = places.includes('local') ? repoOf(project) : undefined;

  const list: Change[] = [];
  const seen = new Set<string>();
  // one file may hold the parts of several installs (.git/info/exclude a line for each of Codex's two
  // forms): each change starts from what the one before it leaves
  const add = (file: string | undefined, takeOut: (text: string) => string, owner: string = target.agent) => {
    if (!file || seen.has(`${owner}\0${file}`)) return;
    seen.add(`${owner}\0${file}`);
    const earlier = list.findLast((c) => c.file === file);
    list.push(uninstallChange(home, owner, file, takeOut, earlier ? earlier.after : readText(file)));
  };
  // every form the agent may be registered in (Codex: hooks.json and config.toml)
  for (const form of ALL_TARGETS.filter((t) => t.agent === target.agent)) {
    for (const where of places) {
      const file = fileAt(form, where, project, env);
      add(file, (t) => form.remove(t, file));
      if (where === 'local' && repo)
        add(
          repo.exclude,
          (t) => removeExclude(t, repoPath(repo, file)),
          excludeOwner(target.agent, repoPath(repo, file)),
        );
    }
  }
  for (const where of places) add(target.rulesFile(scopeOf(where), project, env), removeRules);
  const todo = changes(list);

  if (values['dry-run']) {
    for (const c of todo) console.log(describeChange(c, show));
    if (todo.length === 0) console.log('stallguard uninstall: nothing to change');
    return 0;
  }
  if (todo.length === 0) {
    console.log(
      `stallguard: nothing to remove for ${target.label} ` +
        `(${places.map((w) => show(fileAt(target, w, project, env))).join(', ')})`,
    );
    return 0;
  }
  for (const c of todo) {
    const folders = writeUninstall(home, c);
    const what =
      c.after === undefined
        ? `removed ${show(c.file)}, which install had created`
        : `took stallguard out of ${show(c.file)}`;
    const empty = folders.length
      ? `, and the empty folder${folders.length > 1 ? 's' : ''} ${folders.map(show).join(', ')}`
      : '';
    console.log(`stallguard: ${what}${empty}.`);
  }
  return 0;
}
