import { LiteralSet } from './literal-set.ts';

// Lists of hints, each list an expression's: literals of which a text must hold one for the expression to
// match at all, looked for in the text's case, or in its lower case for an expression with the i flag. A
// failure's output is asked about forty of them (failure.ts), each a pass over it and the lowered copy: once
// a process has looked at this many characters, one pass of an automaton finds them all instead, with the
// same answers. A hook process, which looks at a few short texts, looks for each the plain way, since the
// automaton costs a cold process milliseconds to build.

export interface HintList {
  /** None: the expression is asked whatever the text holds. */
  hints?: readonly string[];
  /** Whether the hints are looked for in the lowered text (the expression's i flag). */
  anyCase: boolean;
}

const AUTOMATON_AFTER = 256 * 1024;
const PLAIN_LOWER_ASCII = /^[\x20-\x40\x5b-\x7e]+$/;

/** Each list's hints by the automaton's index of the literal it finds first (-1: looked for the plain way). */
interface Automaton {
  literals: LiteralSet;
  at: number[][];
}

export class HintLists {
  private looked = 0;
  private automaton: Automaton | undefined;

  constructor(
    private readonly lists: readonly HintList[],
    private readonly after = AUTOMATON_AFTER,
  ) {}

  /** For each list, in order, whether the text holds one of its hints (a list of none: true). */
  held(text: string): boolean[] {
    if (!this.automaton) {
      this.looked += text.length;
      if (this.looked > this.after) this.automaton = this.build();
    }
    let lower: string | undefined;
    const plain = (hint: string, anyCase: boolean) => {
      if (!anyCase) return text.includes(hint);
      lower ??= text.toLowerCase();
      return lower.includes(hint);
    };
    const automaton = this.automaton;
    if (!automaton) return this.lists.map(({ hints, anyCase }) => !hints || hints.some((h) => plain(h, anyCase)));
    const found = automaton.literals.found(text);
    return this.lists.map(({ hints, anyCase }, list) => {
      if (!hints) return true;
      const at = automaton.at[list]!;
      for (let i = 0; i < hints.length; i++) {
        const literal = at[i]!;
        // a hint in the text's case stands in it only where its lower case stands in the lowered text
        if (literal === -1 ? plain(hints[i]!, anyCase) : found.has(literal) && (anyCase || text.includes(hints[i]!)))
          return true;
      }
      return false;
    });
  }

  /**
   * The automaton finds ASCII hints in the lowered text: an i list's as they are (one with a capital is never
   * in the lowered text, and is looked for the plain way), another's lowered, then in the text's case.
   */
  private build(): Automaton {
    const literals: string[] = [];
    const index = new Map<string, number>();
    const at = this.lists.map(({ hints, anyCase }) =>
      (hints ?? []).map((h) => {
        if (!PLAIN_LOWER_ASCII.test(anyCase ? h : h.toLowerCase())) return -1;
        const literal = anyCase ? h : h.toLowerCase();
        let i = index.get(literal);
        if (i === undefined) {
          i = literals.length;
          literals.push(literal);
          index.set(literal, i);
        }
        return i;
      }),
    );
    return { literals: new LiteralSet(literals), at };
  }
}
