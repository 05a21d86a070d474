// Reads a shell command the way the shell would split it, far enough to say which programs it runs, with
// which words, writing to which files: quotes and escapes removed, redirections taken out of the words,
// here-documents and here-strings attached to the command they feed, and the commands inside $(...),
// `...` and <(...) returned as commands of their own. It runs nothing and expands nothing but what it
// can know from the text itself: where a substitution's value goes, the word holds HOLE, and its command
// is marked dynamic. Self-protection and classification both read commands through it.

/** Stands in a word for the value of a substitution, known only at run time (a shell word cannot hold NUL). */
export const HOLE = '\u0000';

/** Characters that make an unquoted word a glob pattern (brace expansion included). */
const GLOB_CHARS = new Set(['*', '?', '[', '{']);
/** Characters a glob matcher reads as syntax: escaped in a pattern where they were quoted. */
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/g;

/** Literal text as a part of a glob pattern. */
export function escapeGlob(text: string): string {
  return text.replace(GLOB_SYNTAX, '\\$&');
}

export interface Simple {
  /** The words, unquoted, redirections left out. */
  words: string[];
  /** Files the output is redirected to (`>`, `>>`, `>|`, `&>`, `2>`, `<>`). */
  writes: string[];
  /** Text fed on stdin by a here-document or a here-string. */
  stdin: string[];
  /** Commands in one pipeline share this number; `a | b` feeds a's output to b. */
  pipeline: number;
  /** A word held a command substitution: what it names is known only at run time. */
  dynamic: boolean;
  /** The command runs inside a substitution (`$(pwd)`, `<(sort a)`): it computes a word of another command. */
  nested: boolean;
  /**
   * Words (and redirection targets) with unquoted glob characters, each mapped to its pattern: the word with
   * its quoted characters escaped, so that `"a[1]"*` matches names that start with `a[1]` literally.
   */
  globs: Map<string, string>;
}

/** Nested shells inside substitutions are read to this depth; deeper text is left dynamic. */
const MAX_DEPTH = 6;

const HEREDOC = /<<(-?)[ \t]*(['"]?)([A-Za-z_][\w.-]*)\2([^\n]*)\n([\s\S]*?)(?:\n[ \t]*\3[ \t]*(?=\n|$)|$)/g;

function ansiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x' || e[0] === 'u') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return (
      ({ n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' } as Record<string, string>)[e] ?? e
    );
  });
}

/** The index of the `)` that closes a `(` opened just before `from`, skipping quoted text. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === "'") i = text.indexOf("'", i + 1) === -1 ? text.length : text.indexOf("'", i + 1);
    else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return text.length;
}

/** `windows`: PowerShell and cmd, where a backslash separates folders and the backtick escapes. */
export function lexShell(command: string, windows = false): Simple[] {
  return lex(command, 0, { next: 0 }, windows ? '`' : '\\');
}

function lex(command: string, depth: number, pipelines: { next: number }, escapeChar: string): Simple[] {
  const out: Simple[] = [];
  const bodies: string[] = [];
  const text = command.replace(HEREDOC, (_m, dash: string, q: string, tag: string, rest: string, body: string) => {
    bodies.push(dash ? body.replace(/^\t+/gm, '') : body);
    return `<<${q}${tag}${q}${rest}`;
  });
  const nested = (inner: string) => {
    if (depth < MAX_DEPTH) out.push(...lex(inner, depth + 1, pipelines, escapeChar));
  };

  let pipeline = pipelines.next++;
  const fresh = (): Simple => ({
    words: [],
    writes: [],
    stdin: [],
    pipeline,
    dynamic: false,
    nested: depth > 0,
    globs: new Map(),
  });
  let cur = fresh();
  let word = '';
  let inWord = false;
  // the word as a glob pattern, and whether an unquoted glob character made it one
  let pattern = '';
  let wild = false;
  const quoted = (t: string) => {
    word += t;
    pattern += escapeGlob(t);
    inWord = true;
  };
  const hole = () => {
    word += HOLE;
    pattern += HOLE;
    cur.dynamic = true;
    inWord = true;
  };
  let pending: 'out' | 'in' | 'here' | 'heredoc' | undefined;

  const flush = () => {
    if (!inWord) return;
    if (wild && pending !== 'heredoc' && pending !== 'here') cur.globs.set(word, pattern);
    if (pending === 'out') cur.writes.push(word);
    else if (pending === 'here') cur.stdin.push(word);
    else if (pending === 'heredoc') cur.stdin.push(bodies.shift() ?? '');
    else if (pending !== 'in') cur.words.push(word);
    pending = undefined;
    word = '';
    pattern = '';
    wild = false;
    inWord = false;
  };
  const end = (samePipeline: boolean) => {
    flush();
    if (cur.words.length + cur.writes.length + cur.stdin.length > 0) out.push(cur);
    if (!samePipeline) pipeline = pipelines.next++;
    cur = fresh();
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === escapeChar) {
      if (next === '\n') i++;
      else if (next !== undefined) quoted(next), i++;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      quoted(text.slice(i + 1, close === -1 ? text.length : close));
      i = close === -1 ? text.length : close;
    } else if (c === '$' && next === "'") {
      let j = i + 2;
      for (; j < text.length && text[j] !== "'"; j++) if (text[j] === '\\') j++;
      quoted(ansiC(text.slice(i + 2, j)));
      i = j;
    } else if (c === '"') {
      let j = i + 1;
      let run = '';
      for (; j < text.length && text[j] !== '"'; j++) {
        const d = text[j]!;
        if (d === escapeChar && /["\\$`\n]/.test(text[j + 1] ?? '')) {
          if (text[j + 1] !== '\n') run += text[j + 1];
          j++;
        } else if (d === '$' && text[j + 1] === '(') {
          const close = closingParen(text, j + 2);
          quoted(run), (run = '');
          nested(text.slice(j + 2, close));
          hole();
          j = close;
        } else if (d === '`' && escapeChar !== '`') {
          const close = text.indexOf('`', j + 1);
          quoted(run), (run = '');
          nested(text.slice(j + 1, close === -1 ? text.length : close));
          hole();
          j = close === -1 ? text.length : close;
        } else run += d;
      }
      quoted(run);
      i = j;
    } else if ((c === '$' || c === '<' || c === '>') && next === '(' && !(c === '>' && inWord)) {
      const close = closingParen(text, i + 2);
      nested(text.slice(i + 2, close));
      hole();
      i = close;
    } else if (c === '`' && escapeChar !== '`') {
      const close = text.indexOf('`', i + 1);
      nested(text.slice(i + 1, close === -1 ? text.length : close));
      hole();
      i = close === -1 ? text.length : close;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      flush();
    } else if (c === '#' && !inWord) {
      const nl = text.indexOf('\n', i);
      i = (nl === -1 ? text.length : nl) - 1;
    } else if (c === '\n' || c === ';' || c === '(' || c === ')') {
      end(false);
    } else if (c === '&') {
      if (next === '>') {
        flush();
        i += text[i + 2] === '>' ? 2 : 1;
        pending = 'out';
      } else {
        if (next === '&') i++;
        end(false);
      }
    } else if (c === '|') {
      if (next === '|') i++, end(false);
      else {
        if (next === '&') i++;
        end(true);
      }
    } else if (c === '>' || (c === '<' && next === '>')) {
      // a word made only of digits right before is the file descriptor, not an argument
      if (inWord && /^\d+$/.test(word)) (word = ''), (inWord = false);
      else flush();
      if (c === '<') i++;
      if (text[i + 1] === '>' || text[i + 1] === '|') i++;
      if (text[i + 1] === '&') {
        // >&2 duplicates a descriptor; only `>& file` names a file
        i++;
        const m = /^\s*(\d+|-)/.exec(text.slice(i + 1));
        if (m) i += m[0].length;
        else pending = 'out';
      } else pending = 'out';
    } else if (c === '<') {
      flush();
      if (next === '<' && text[i + 2] === '<') (i += 2), (pending = 'here');
      else if (next === '<') i++, (pending = 'heredoc');
      else pending = 'in';
    } else {
      word += c;
      pattern += c;
      if (GLOB_CHARS.has(c)) wild = true;
      inWord = true;
    }
  }
  end(false);
  return out;
}
