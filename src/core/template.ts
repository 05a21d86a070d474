// What a call does, without what it does it to: the same command or tool call with every value it names put
// aside (a column, a key, a name, a payload), its programs, flags and operators kept. Two calls of one template
// that differ in their values are one job done to many things (`ALTER TABLE ... ADD COLUMN a`, then `b`); two
// that differ in the template are one thing tried in other ways (a wrapper, a flag, a pipe).

/** Characters that end a plain word: blanks and the operators' own. */
const ENDS = new Set([' ', '\t', '\n', '\r', '|', ';', '&', '(', ')']);
/** Words that join commands: after one of them, the next word is a program again. */
const JOINS = new Set(['|', '||', '&&', ';', '&', '(', ')', '{', '}', 'then', 'do', 'else']);
/** Redirections, kept as they are: where output goes is how the command is run. */
const REDIRECT = /^(?:\d?>>?|<<?|&>)$/;
const DUPLICATION = /^\d>&\d$/;

/**
 * The shell's words and operators, in one pass (an expression with a repeated group ran out of stack on a
 * 10 MB command): quoted parts and plain ones run together into one word, as the shell joins them; `2>&1`,
 * `&&`, `||` and each of `| ; & ( )` stand alone.
 */
function shellWords(script: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < script.length) {
    const c = script[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c >= '0' && c <= '9' && script.startsWith('>&', i + 1)) {
      out.push(script.slice(i, i + 4));
      i += 4;
    } else if ((c === '&' || c === '|') && script[i + 1] === c) {
      out.push(c + c);
      i += 2;
    } else if (ENDS.has(c)) {
      out.push(c);
      i++;
    } else {
      const start = i;
      while (i < script.length && !ENDS.has(script[i]!)) {
        const q = script[i]!;
        if (q === '"' || q === "'") {
          i++;
          while (i < script.length && script[i] !== q) i += q === '"' && script[i] === '\\' ? 2 : 1;
        }
        i++;
      }
      out.push(script.slice(start, i));
    }
  }
  return out;
}

/** A shell command's template: its programs, flags, operators and redirections; each other word a blank. */
export function shellTemplate(script: string): string {
  const out: string[] = [];
  let program = true;
  for (const word of shellWords(script)) {
    if (JOINS.has(word)) {
      out.push(word);
      program = true;
    } else if (REDIRECT.test(word) || DUPLICATION.test(word)) out.push(word);
    else if (program || word.startsWith('-')) {
      out.push(word);
      program = false;
    } else out.push('_');
  }
  return out.join(' ');
}

/** A tool call's template: its arguments' names and shape, each value a blank. */
export function argsTemplate(args: string): string {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return '_';
  }
  return JSON.stringify(blank(value));
}

function blank(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(blank);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, blank(v)]));
  return '_';
}
