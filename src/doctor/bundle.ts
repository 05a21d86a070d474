import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { type Check, fail, ok } from './check.ts';
import { errnoText } from '../core/errno.ts';

// The installed hook is two files: hook.cjs, which the agent runs, and hook-main.cjs beside it, the hook
// itself. With the second missing, cut short or edited, the hook fails open on every call, which looks
// like a healthy install that never catches anything: this says which file is wrong and how to mend it.

/** The hash of hook-main.cjs recorded in the first line of hook.cjs at build time (undefined for older builds). */
function expectedHash(hookText: string): string | undefined {
  return /^\/\/ stallguard hook; hook-main\.cjs sha256 ([0-9a-f]{16})/.exec(hookText)?.[1];
}

export function checkBundle(hook: string, fix: string): Check[] {
  let hookText: string;
  try {
    hookText = readFileSync(hook, 'utf8');
  } catch (e) {
    return [fail('install', `${hook} cannot be read: ${errnoText(e)}; every call is let through unchecked`, fix)];
  }
  const main = join(dirname(hook), 'hook-main.cjs');
  let source: string;
  try {
    source = readFileSync(main, 'utf8');
  } catch (e) {
    return [
      fail(
        'install',
        `${main}, the hook's code beside ${hook}, cannot be read: ${errnoText(e)}; every call is let through unchecked`,
        fix,
      ),
    ];
  }
  const want = expectedHash(hookText);
  if (want && createHash('sha256').update(source).digest('hex').slice(0, 16) !== want) {
    return [
      fail(
        'install',
        `${main} is not the file ${hook} was built with (cut short, edited, ` +
          'or from another version); every call is let through unchecked',
        fix,
      ),
    ];
  }
  try {
    new Script(source, { filename: main });
  } catch (e) {
    return [
      fail('install', `${main} does not compile (${(e as Error).message}); every call is let through unchecked`, fix),
    ];
  }
  return [ok('install', `${hook} and hook-main.cjs beside it are whole`)];
}
