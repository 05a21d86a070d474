import type { CallFacts, Event, ToolCall, ToolClass } from '../types.ts';
import { callCommand, callFields } from '../core/call-fields.ts';

// Each agent speaks its own dialect: its tool names, the envelope around a shell command's output
// (`Exit code: 1\nWall time: ...\nOutput:`), its error texts for a rejected edit or a refused call. A
// Dialect turns one completed call into what every agent shares (src/types.ts CallFacts), so that the
// engine and the signals never name an agent. Adapters apply theirs to live payloads, readers to
// recorded sessions of the same agent.

/** A completed call in shared terms: whether it failed, the output without the agent's envelope, and the facts. */
export interface Described {
  ok: boolean | null;
  output: unknown;
  facts: CallFacts;
}

export type Dialect = (call: ToolCall, output: unknown, ok: boolean | null) => Described;

/** Tool name -> what it does. */
export interface ToolTable {
  get(name: string): ToolClass | undefined;
}

/**
 * The table from lists of names per class, made on its first use: every agent's table is in the hook's code,
 * and a hook process asks one of them.
 */
export function toolTable(spec: Partial<Record<ToolClass, string>>): ToolTable {
  let table: Map<string, ToolClass> | undefined;
  return {
    get(name) {
      if (!table) {
        table = new Map();
        for (const [cls, names] of Object.entries(spec) as [ToolClass, string][])
          for (const n of names.split(/\s+/).filter(Boolean)) table.set(n, cls);
      }
      return table.get(name);
    },
  };
}

/** The facts a tool table gives: the class, and for a shell tool the command it runs. */
export function tableFacts(table: ToolTable, shellTools: ReadonlySet<string>, call: ToolCall): CallFacts {
  const facts: CallFacts = {};
  if (shellTools.has(call.name)) {
    const command = commandOf(call.input);
    if (command !== undefined) facts.command = command;
    facts.cls = 'exec';
    return facts;
  }
  const cls = table.get(call.name);
  if (cls === 'bookkeeping') facts.bookkeeping = true;
  if (cls) facts.cls = cls;
  return facts;
}

/** The command a shell tool runs: a string, or an argv list quoted back into one. */
export function commandOf(input: unknown): string | undefined {
  return callCommand(callFields(input));
}

/** Sets a fact when `test` holds; keeps the facts object free of false flags. */
export function mark(
  facts: CallFacts,
  key: 'skipped' | 'refused' | 'rejected' | 'malformed' | 'empty' | 'unchanged' | 'hidden',
  test: boolean,
): void {
  if (test) facts[key] = true;
}

/** The event with the dialect's reading of a completed call; other events pass unchanged. */
export function describeEvent(event: Event, dialect: Dialect): Event {
  if (event.kind !== 'post-tool' || event.facts) return event;
  const d = dialect(event.call, event.output, event.ok);
  return { ...event, ok: d.ok, output: d.output, facts: d.facts };
}
