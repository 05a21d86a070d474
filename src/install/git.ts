import { spawnSync } from 'node:child_process';
import { relative, resolve } from 'node:path';

// What git makes of a file install writes: a settings file with this machine's paths must never be
// committed. No git, or a folder outside any repository, is a place where nothing gets committed.

export interface Repo {
  /** The working tree's top folder. */
  top: string;
  /** This clone's personal ignore list, never committed (.git/info/exclude; in a worktree, the main one's). */
  exclude: string;
}

function git(cwd: string, args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
  return { status: r.error ? null : r.status, stdout: r.stdout ?? '' };
}

export function repoOf(dir: string): Repo | undefined {
  const r = git(dir, ['rev-parse', '--show-toplevel', '--git-path', 'info/exclude']);
  if (r.status !== 0) return undefined;
  const [top, exclude] = r.stdout.trim().split('\n');
  if (!top || !exclude) return undefined;
  // --git-path answers relative to the folder git ran in
  return { top, exclude: resolve(dir, exclude) };
}

/** The file's path from the top of the working tree, with forward slashes, as git and its ignore files name it. */
export function repoPath(repo: Repo, file: string): string {
  return relative(repo.top, file).split(/[\\/]/).join('/');
}

export function isTracked(repo: Repo, file: string): boolean {
  return git(repo.top, ['ls-files', '--error-unmatch', '--', repoPath(repo, file)]).status === 0;
}

export function isIgnored(repo: Repo, file: string): boolean {
  return git(repo.top, ['check-ignore', '-q', '--', repoPath(repo, file)]).status === 0;
}
