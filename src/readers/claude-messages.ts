import type { Actor, Event } from '../types.ts';
import { SPAWN_TOOLS } from '../adapters/claude/parse.ts';
import { outputText } from '../core/output-text.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { claudeDialect } from '../adapters/claude/dialect.ts';
import type { ReplayItem } from './types.ts';

// Claude Code writes the same messages in two formats: its transcript (~/.claude/projects/...) and
// `-p --output-format stream-json`. Both carry assistant tool_use blocks and user tool_result blocks;
// this turns either into events, with each call's result matched to its call by tool_use id.

export interface ClaudeMessage {
  role: 'user' | 'assistant';
  content: unknown;
  agent: Actor;
  /** A message the person typed (a new task), as opposed to tool results or injected context. */
  prompt?: boolean;
  /** The structured result of the tool call this message answers (transcript `toolUseResult`). */
  toolUseResult?: unknown;
  /**
   * The model response an assistant message belongs to (its message id): the tool calls of one response are one batch.
   */
  response?: string;
  cwd?: string;
  time?: number;
}

export class ClaudeMessageReader {
  private step = 0;
  private readonly calls = new Map<string, { name: string; input: unknown; step: number; agent: Actor }>();
  private readonly spawnTypes = new Map<string, string>();
  /** Each agent's batch still open: the response its latest calls came from. */
  private readonly openBatch = new Map<string, { response: string; agent: Actor }>();

  constructor(private readonly session: string) {}

  /** The index the next tool call will get. */
  get nextStep(): number {
    return this.step;
  }

  /** The subagent type of a spawn call, for naming the subagent that call started. */
  typeOfSpawn(toolUseId: string): string | undefined {
    return this.spawnTypes.get(toolUseId);
  }

  /** Closes every open batch, as Claude Code's PostToolBatch does once a response's calls are done. */
  *finish(): Generator<ReplayItem> {
    for (const { agent } of this.openBatch.values())
      yield { event: { session: this.session, agent, kind: 'batch-end' }, step: this.step };
    this.openBatch.clear();
  }

  *events(m: ClaudeMessage): Generator<ReplayItem> {
    const base = {
      session: this.session,
      agent: m.agent,
      ...(m.cwd ? { cwd: m.cwd } : {}),
      ...(m.time ? { time: m.time } : {}),
    };
    if (m.role === 'user' && m.prompt) {
      yield* this.finish();
      const prompt = typeof m.content === 'string' ? m.content : outputText(m.content);
      yield { event: { ...base, kind: 'prompt', prompt } as Event, step: this.step };
      return;
    }
    if (!Array.isArray(m.content)) return;
    for (const block of m.content as Record<string, unknown>[]) {
      if (!block || typeof block !== 'object') continue;
      if (m.role === 'assistant' && block.type === 'tool_use' && typeof block.name === 'string') {
        if (m.response !== undefined && this.openBatch.get(m.agent.id)?.response !== m.response) {
          // a call of another response: the agent's previous batch is done
          // (before its first, it tells replay that batches are known)
          yield { event: { session: this.session, agent: m.agent, kind: 'batch-end' }, step: this.step };
          this.openBatch.set(m.agent.id, { response: m.response, agent: m.agent });
        }
        const id = typeof block.id === 'string' ? block.id : `call-${this.step}`;
        const call = { name: block.name, input: block.input ?? {}, id };
        this.calls.set(id, { name: block.name, input: call.input, step: this.step, agent: m.agent });
        if (SPAWN_TOOLS.has(block.name)) {
          const childType = String((call.input as Record<string, unknown>).subagent_type ?? 'general-purpose');
          this.spawnTypes.set(id, childType);
          yield { event: { ...base, kind: 'spawn', call, childType }, step: this.step };
        } else yield { event: { ...base, kind: 'pre-tool', call }, step: this.step };
        this.step++;
      } else if (m.role === 'user' && block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const call = this.calls.get(block.tool_use_id);
        if (!call) continue;
        this.calls.delete(block.tool_use_id);
        const failed = block.is_error === true;
        const output = failed ? outputText(block.content) : (m.toolUseResult ?? block.content);
        const event: Event = {
          ...base,
          agent: call.agent,
          kind: 'post-tool',
          call: { name: call.name, input: call.input, id: block.tool_use_id },
          output,
          ok: !failed,
        };
        yield { event: describeEvent(event, claudeDialect), step: call.step };
      }
    }
  }
}

/** Whether a user message's content is something the person typed rather than tool results or meta text. */
export function isTypedPrompt(content: unknown): boolean {
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content) && content.every((b) => b && (b as Record<string, unknown>).type === 'text')
        ? outputText(content)
        : undefined;
  if (text === undefined || text.trim().length === 0) return false;
  return !/^\s*(?:<command-|<local-command-|<system-reminder>|\[Request interrupted|Caveat: )/.test(text);
}
