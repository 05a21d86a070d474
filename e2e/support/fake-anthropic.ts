import type { ServerResponse } from 'node:http';
import { type Block, type ModelScript, nextTurn } from './model-script.ts';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './recording-server.ts';

// A fake Anthropic Messages API that plays a ModelScript: POST /v1/messages as a stream of server-sent
// events (or one JSON message when the client does not ask for a stream), count_tokens and models for
// completeness, and an empty 200 for anything else (Claude Code sends HEAD / at start-up). A request that
// offers no tools is a side request of the client's, not the agent's turn: it gets a line of text.

export interface AnthropicMessage {
  role: string;
  content: string | AnthropicBlock[];
}

export type AnthropicBlock = {
  type: string;
  text?: string;
  content?: unknown;
  is_error?: boolean;
  tool_use_id?: string;
  name?: string;
  input?: unknown;
  id?: string;
};

export interface MessagesRequest {
  model?: string;
  messages?: AnthropicMessage[];
  stream?: boolean;
  tools?: unknown[];
}

/** What a side request with no tools gets (opencode asks for a session title that way): not a turn of the script. */
export const SIDE_ANSWER = 'Fixing the tests';

function textOf(content: string | AnthropicBlock[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n');
}

export function conversationOf(body: MessagesRequest): { assistantTurns: number; firstUserText: string } {
  const messages = body.messages ?? [];
  return {
    assistantTurns: messages.filter((m) => m.role === 'assistant').length,
    firstUserText: textOf(messages.find((m) => m.role === 'user')?.content),
  };
}

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function streamMessage(
  res: ServerResponse,
  message: Record<string, unknown>,
  content: ContentBlock[],
  stopReason: string,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, 'message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, stop_sequence: null },
  });
  sse(res, 'ping', { type: 'ping' });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function anthropicHandler(script: ModelScript): (request: RecordedRequest, res: ServerResponse) => void {
  let ids = 0;
  const toContent = (block: Block): ContentBlock =>
    'tool' in block
      ? { type: 'tool_use', id: `toolu_e2e${String(++ids).padStart(6, '0')}`, name: block.tool, input: block.input }
      : { type: 'text', text: block.text };

  return (request, res) => {
    const path = request.path.replace(/\?.*$/, '');
    if (request.method === 'POST' && path === '/v1/messages') {
      const body = (request.body ?? {}) as MessagesRequest;
      const content = body.tools?.length
        ? nextTurn(script, conversationOf(body)).map(toContent)
        : [toContent({ text: SIDE_ANSWER })];
      const stopReason = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const message = {
        id: `msg_e2e${String(++ids).padStart(6, '0')}`,
        type: 'message',
        role: 'assistant',
        model: body.model ?? 'claude-fake',
        usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      };
      if (body.stream) streamMessage(res, message, content, stopReason);
      else json(res, 200, { ...message, content, stop_reason: stopReason, stop_sequence: null });
      return;
    }
    if (request.method === 'POST' && path === '/v1/messages/count_tokens') return json(res, 200, { input_tokens: 100 });
    if (path.startsWith('/v1/models'))
      return json(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
    json(res, 200, {});
  };
}

export function startFakeAnthropic(script: ModelScript, log: string): Promise<RecordingServer> {
  return startRecordingServer(log, anthropicHandler(script));
}
