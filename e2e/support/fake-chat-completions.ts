import type { ServerResponse } from 'node:http';
import { type Block, type ModelScript, nextTurn } from './model-script.ts';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './recording-server.ts';

// A fake OpenAI Chat Completions API that plays a ModelScript, for the clients that speak it to a custom
// endpoint (Copilot CLI's BYOK provider, Qwen Code's OpenAI auth): POST .../chat/completions as a stream
// of `data:` chunks ending in [DONE], or one JSON completion when the client does not ask for a stream,
// and an empty model list for GET .../models. Tool names in the script are the client's own.

export interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatRequest {
  model?: string;
  messages?: ChatMessage[];
  tools?: { type?: string; function?: { name?: string } }[];
  stream?: boolean;
}

export function chatText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((c) => c.text ?? '').join('\n');
}

export function chatConversation(body: ChatRequest): { assistantTurns: number; firstUserText: string } {
  const messages = body.messages ?? [];
  return {
    assistantTurns: messages.filter((m) => m.role === 'assistant').length,
    // clients put their own context (environment, instructions) in user messages before the prompt
    firstUserText: messages
      .filter((m) => m.role === 'user')
      .map((m) => chatText(m.content))
      .join('\n'),
  };
}

function chunk(res: ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

export function chatHandler(script: ModelScript): (request: RecordedRequest, res: ServerResponse) => void {
  let ids = 0;
  const id = (p: string) => `${p}_e2e${String(++ids).padStart(6, '0')}`;
  const toolCall = (block: Extract<Block, { tool: string }>, index: number) => ({
    index,
    id: id('call'),
    type: 'function',
    function: { name: block.tool, arguments: JSON.stringify(block.input) },
  });

  return (request, res) => {
    const path = request.path.replace(/\?.*$/, '');
    if (request.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
      return;
    }
    if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no ${request.method} ${path} here` } }));
      return;
    }
    const body = (request.body ?? {}) as ChatRequest;
    const turn = nextTurn(script, chatConversation(body));
    const text = turn.flatMap((b) => ('text' in b ? [b.text] : [])).join('\n');
    const calls = turn.flatMap((b) => ('tool' in b ? [b] : [])).map(toolCall);
    const finish = calls.length > 0 ? 'tool_calls' : 'stop';
    const head = { id: id('chatcmpl'), created: Math.floor(Date.now() / 1000), model: body.model ?? 'gpt-fake' };
    const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
    if (!body.stream) {
      const message = {
        role: 'assistant',
        content: text || null,
        ...(calls.length ? { tool_calls: calls.map(({ index: _, ...c }) => c) } : {}),
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ...head,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
      );
      return;
    }
    const delta = (d: Record<string, unknown>, finish_reason: string | null = null) =>
      chunk(res, { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: d, finish_reason }] });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    delta({ role: 'assistant', content: '' });
    if (text) delta({ content: text });
    if (calls.length) delta({ tool_calls: calls });
    delta({}, finish);
    chunk(res, { ...head, object: 'chat.completion.chunk', choices: [], usage });
    res.write('data: [DONE]\n\n');
    res.end();
  };
}

export function startFakeChatCompletions(script: ModelScript, log: string): Promise<RecordingServer> {
  return startRecordingServer(log, chatHandler(script));
}

/** What the model read back for each of its tool calls, in order: the tool messages of a request. */
export function chatToolResults(body: ChatRequest | undefined): string[] {
  return (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => chatText(m.content));
}
