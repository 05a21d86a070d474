// One finding of `stallguard doctor`: what was looked at, what was found, and what to do about it.

export type Status = 'ok' | 'warn' | 'fail';

export interface Check {
  /** What was checked: `home`, `config`, `hooks`, `hook run`, `errors`, `node`, `git`. */
  area: string;
  status: Status;
  detail: string;
  /** What to do, when there is something to do. */
  fix?: string;
}

export const ok = (area: string, detail: string): Check => ({ area, status: 'ok', detail });
export const warn = (area: string, detail: string, fix?: string): Check => ({
  area,
  status: 'warn',
  detail,
  ...(fix ? { fix } : {}),
});
export const fail = (area: string, detail: string, fix?: string): Check => ({
  area,
  status: 'fail',
  detail,
  ...(fix ? { fix } : {}),
});
