import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, type Scratch, scratchEnv } from './scratch.ts';

// The plugin and extension scenarios install stallguard the way a person does from the npm package: a copy
// of exactly the files package.json ships (its "files"), so a file the plugins need but npm would leave
// out fails here.

export function packageCopy(scratch: Scratch): string {
  const dest = join(scratch.root, 'package');
  mkdirSync(dest);
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { files: string[] };
  for (const f of [...pkg.files, 'package.json']) cpSync(join(REPO, f), join(dest, f), { recursive: true });
  return dest;
}

/** The environment of a plugin scenario: the scratch one without STALLGUARD_HOME, so the plugin picks its own folder. */
export function pluginEnv(scratch: Scratch, extra: Record<string, string>): NodeJS.ProcessEnv {
  const { STALLGUARD_HOME: _, ...env } = scratchEnv(scratch, extra);
  return env;
}

/** The session files under a folder's sessions/ subfolders, at any depth up to `depth`. */
export function sessionFilesUnder(dir: string, depth = 3): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory() && entry.name === 'sessions')
      out.push(
        ...readdirSync(p)
          .filter((n) => n.endsWith('.jsonl'))
          .map((n) => join(p, n)),
      );
    else if (entry.isDirectory() && depth > 0) out.push(...sessionFilesUnder(p, depth - 1));
  }
  return out;
}
