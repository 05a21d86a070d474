// System errors in words a person can act on: node's own messages ("EISDIR: illegal operation on a
// directory, read") name a code and a syscall, not what is wrong.

const WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the filesystem is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a file stands where a folder should be',
  EISDIR: 'a folder stands where a file should be',
  ENOENT: 'it does not exist',
  EEXIST: 'something is already there',
  ENOTEMPTY: 'the folder is not empty',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EBUSY: 'it is in use',
  ECONNREFUSED: 'connection refused (nothing listens there)',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: 'the host name does not resolve',
  EADDRINUSE: 'the port is taken by another program',
};

/** What an errno error means, without its path; other errors keep their message. */
export function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  return (code && WORDS[code]) ?? (e instanceof Error ? e.message : String(e));
}

/**
 * An error as one line for a person: the path it is about, then
 * what is wrong ("x.json: a folder stands where a file should be").
 */
export function errorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const code = err?.code;
  if (!code || !WORDS[code]) return e instanceof Error ? e.message : String(e);
  return err.path ? `${err.path}: ${WORDS[code]}` : WORDS[code]!;
}
