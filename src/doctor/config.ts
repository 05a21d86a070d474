import { loadConfig } from '../config/load.ts';
import { type Check, ok, warn } from './check.ts';

// The config files in force here, and every problem in them: a bad field falls back to its default,
// which is easy to miss until doctor says so.

export function checkConfig(cwd: string, env: NodeJS.ProcessEnv, home: string): Check[] {
  const { config, problems, sources } = loadConfig({ cwd, env, home });
  const from = env.STALLGUARD_MODE?.trim() ? 'STALLGUARD_MODE' : sources.length > 0 ? sources.join(', ') : 'the defaults';
  const out: Check[] = [ok('config', `mode ${config.mode} (from ${from})`)];
  for (const p of problems) {
    const fix = p.field === '(file)' ? `fix the file, or move it aside` : `edit ${p.source}: ${p.field} ${p.problem}`;
    out.push(warn('config', `${p.source}: ${p.field === '(file)' ? '' : p.field + ' '}${p.problem}; the default is used instead`, fix));
  }
  return out;
}
