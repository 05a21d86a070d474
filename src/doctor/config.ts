import { loadConfig } from '../config/load.ts';
import { tunedLine } from '../config/tuned-text.ts';
import { describeProblem } from '../config/validate.ts';
import { type Check, ok, warn } from './check.ts';

// The config files in force here, and every problem in them: a bad field falls back to its default,
// which is easy to miss until doctor says so.

export function checkConfig(cwd: string, env: NodeJS.ProcessEnv, home: string): Check[] {
  const { config, problems, sources, tuned } = loadConfig({ cwd, env, home });
  const own = sources.filter((f) => !tuned.some((t) => t.file === f));
  const from = env.STALLGUARD_MODE?.trim() ? 'STALLGUARD_MODE' : own.length > 0 ? own.join(', ') : 'the defaults';
  const out: Check[] = [ok('config', `mode ${config.mode} (from ${from})`)];
  // learned settings are no problem, but a person wondering why stallguard flags less should see them
  for (const t of tuned)
    out.push(
      ok('config', `${tunedLine(t)}; undo: stallguard tune --reset${t.scope === 'project' ? ' --scope project' : ''}`),
    );
  for (const p of problems) {
    const fix =
      p.field === '(file)'
        ? `fix ${p.source} (or move it aside)`
        : p.source === 'the environment'
          ? `set ${p.field} to a valid value, or unset it`
          : 'value' in p
            ? `edit ${p.field} in ${p.source}: it ${p.problem}`
            : `correct the name of ${p.field} in ${p.source}, or remove it`;
    out.push(warn('config', describeProblem(p), fix));
  }
  return out;
}
