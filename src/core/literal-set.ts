import { codeUnits } from './code-units.ts';

// Which of a fixed set of literals a text holds, found in one pass over it (an Aho-Corasick automaton,
// built once): redaction asks this of every text it is given, and a regular expression of the same
// alternatives costs several times as much, trying each of them at every position.

const ASCII = 128;
const KELVIN = 0x212a;
const DOTTED_I = 0x130;
const END = 1;
const REACHED = 2;
/** A state where one of the literals ends whose every place found() tells. */
const PLACED = 4;

export class LiteralSet {
  /**
   * The automaton's move from each state on each ASCII character, at `state * ASCII + c`. A state is held as
   * where its row begins (state * ASCII), so a move costs no multiplication, in the loop every character runs.
   */
  private readonly delta: Int32Array;
  /** The literals that end at each state, by state (none for most states). */
  private readonly ends: number[][];
  /**
   * By a state's row: END where literals end, REACHED where they do and one call of found() has been (reset
   * before it returns), PLACED where one of `placed` does.
   */
  private readonly mark: Uint8Array;
  private readonly placed: ReadonlySet<number>;

  /**
   * @param literals lower-case ASCII, matched against the text as its toLowerCase() has it.
   * @param placed the indexes of the literals whose every place found() tells, where asked to.
   */
  constructor(
    readonly literals: readonly string[],
    placed: readonly number[] = [],
  ) {
    this.placed = new Set(placed);
    const trie: Map<number, number>[] = [new Map()];
    const ends: number[][] = [[]];
    literals.forEach((literal, index) => {
      if (
        literal.length === 0 ||
        [...literal].some((ch) => ch.charCodeAt(0) >= ASCII) ||
        literal !== literal.toLowerCase()
      )
        throw new Error(`not a lower-case ASCII literal: ${literal}`);
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const c = literal.charCodeAt(i);
        let next = trie[state]!.get(c);
        if (next === undefined) {
          next = trie.length;
          trie.push(new Map());
          ends.push([]);
          trie[state]!.set(c, next);
        }
        state = next;
      }
      ends[state]!.push(index);
    });
    // breadth first: each state's fallback (the longest proper suffix that is a prefix of a literal) is
    // done before the states under it, which take its moves and its literals
    const delta = new Int32Array(trie.length * ASCII);
    const fallback = new Int32Array(trie.length);
    const queue: number[] = [];
    for (let c = 0; c < ASCII; c++) {
      const next = trie[0]!.get(c);
      if (next !== undefined) {
        delta[c] = next;
        queue.push(next);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[fallback[state]!]!);
      for (let c = 0; c < ASCII; c++) {
        const next = trie[state]!.get(c);
        const viaFallback = delta[fallback[state]! * ASCII + c]!;
        if (next === undefined) delta[state * ASCII + c] = viaFallback;
        else {
          fallback[next] = viaFallback;
          delta[state * ASCII + c] = next;
          queue.push(next);
        }
      }
    }
    // upper-case letters move as their lower case does
    for (let state = 0; state < trie.length; state++)
      for (let c = 0x41; c <= 0x5a; c++) delta[state * ASCII + c] = delta[state * ASCII + c + 0x20]!;
    // each move to the row where the next state's moves begin, which spares a multiplication a character
    for (let i = 0; i < delta.length; i++) delta[i] = delta[i]! * ASCII;
    this.delta = delta;
    this.ends = ends;
    this.mark = new Uint8Array(trie.length * ASCII);
    for (let state = 0; state < trie.length; state++) {
      const here = ends[state]!;
      if (here.length > 0) this.mark[state * ASCII] = END | (here.some((l) => this.placed.has(l)) ? PLACED : 0);
    }
  }

  /**
   * The indexes of the literals that occur in `text.toLowerCase()`, in no particular order. With `places`, the
   * index in `text` where each occurrence of a literal of `placed` starts is added to it, in no particular order.
   */
  found(text: string, places?: number[]): Set<number> {
    const { delta, mark } = this;
    const length = text.length;
    const codes = codeUnits(text);
    const hits: number[] = [];
    let state = 0;
    for (let i = 0; i < length; i++) {
      let c = codes[i]!;
      if (c >= ASCII) {
        // the two characters whose lower case holds an ASCII letter: the Kelvin sign (k), and İ (i and a
        // combining dot, after which no literal goes on); every other one ends all matches
        if (c !== KELVIN) {
          if (c === DOTTED_I) {
            state = delta[state + 0x69]!;
            if (mark[state] !== 0) this.hit(state, i, hits, places);
          }
          state = 0;
          continue;
        }
        c = 0x6b;
      }
      state = delta[state + c]!;
      if (mark[state] !== 0) this.hit(state, i, hits, places);
    }
    const out = new Set<number>();
    for (const end of hits) {
      mark[end] = mark[end]! & ~REACHED;
      for (const literal of this.ends[end / ASCII]!) out.add(literal);
    }
    return out;
  }

  /** A state where literals end, reached at text[at]: noted once a call, and told at each place where asked. */
  private hit(state: number, at: number, hits: number[], places: number[] | undefined): void {
    const m = this.mark[state]!;
    if ((m & REACHED) === 0) {
      this.mark[state] = m | REACHED;
      hits.push(state);
    }
    if (places !== undefined && (m & PLACED) !== 0)
      for (const literal of this.ends[state / ASCII]!)
        if (this.placed.has(literal)) places.push(at - this.literals[literal]!.length + 1);
  }
}
