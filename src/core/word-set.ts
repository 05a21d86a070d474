import { hinted } from './regex.ts';

// Lists of whole words (program names, subcommands), each asked about one word. An expression such as
// /^(?:rm|mv|cp)$/i answers the same, but V8 compiles it anew in every hook process, which asks it once or
// twice: a set costs next to nothing to build. `test` is the expression's, so either stands for the other.

export interface WordSet {
  test(word: string): boolean;
}

/**
 * The words, space-separated. With `anyCase` (the /i flag) they are given in lower case and match in any:
 * in ASCII only, as /i folds no other character into an ASCII letter, so a word with one never matches.
 */
export function wordSet(words: string, anyCase = false): WordSet {
  // built on the first question: a hook process asks few of the sets there are, or none (a Read)
  let set: Set<string> | undefined;
  const has = (word: string) => {
    set ??= new Set(words.split(' '));
    return set.has(word);
  };
  return anyCase ? { test: (word) => !/[\u0080-\uffff]/.test(word) && has(word.toLowerCase()) } : { test: has };
}

/**
 * A test for a name (a tool's) holding one of `words`, in any case, between the name's ends, underscores or other
 * non-word characters. Most names hold none of them at all, which is looked for first: a hook process that
 * meets one (Read, Grep) does not compile the expression.
 */
export function wordIn(words: string): WordSet {
  const list = words.split(' ');
  return hinted(new RegExp(`(?:^|[_\\W])(?:${list.join('|')})(?:[_\\W]|$)`, 'i'), list);
}
