// A settings file with this machine's paths, kept out of git in the clone's own ignore list
// (.git/info/exclude, which is never committed), under a comment that says whose lines they are.

const COMMENT = "# stallguard install: this machine's hook command (stallguard uninstall removes these two lines)";

function pattern(path: string): string {
  return `/${path}`;
}

/** The exclude file's text with `path` (relative to the top of the working tree) ignored. */
export function addExclude(text: string, path: string): string {
  if (text.split('\n').includes(pattern(path))) return text;
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return `${base}${COMMENT}\n${pattern(path)}\n`;
}

/** The exclude file's text without the two lines addExclude wrote for `path`. */
export function removeExclude(text: string, path: string): string {
  return text.replace(`${COMMENT}\n${pattern(path)}\n`, '');
}
