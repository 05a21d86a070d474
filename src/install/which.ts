import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where `name` is on the PATH the environment gives, as a shell would find it; undefined when it is not. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.CMD;.EXE').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const file = join(dir, name + ext);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        /* not here */
      }
    }
  }
  return undefined;
}
