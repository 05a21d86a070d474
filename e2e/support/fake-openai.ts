import type { ServerResponse } from 'node:http';
import { type Block, type ModelScript, nextTurn } from './model-script.ts';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './recording-server.ts';

// A fake OpenAI Responses API that plays a ModelScript for Codex CLI: POST /v1/responses as a stream of
// server-sent events. A script's `shell` tool becomes whichever shell tool the client offers
// (exec_command {cmd} in Codex 0.171, shell {command: [...]} in older builds).

/** The script's name for "run this shell command": input {command: string}. */
export const SHELL = 'shell';

export interface ResponseItem {
  type: string;
  role?: string;
  name?: string;
  arguments?: string;
  call_id?: string;
  output?: unknown;
  content?: { type: string; text?: string }[];
}

export interface ResponsesRequest {
  model?: string;
  input?: ResponseItem[];
  tools?: { type?: string; name?: string }[];
}

const FROM_MODEL = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'reasoning']);

function fromModel(item: ResponseItem): boolean {
  return FROM_MODEL.has(item.type) || (item.type === 'message' && item.role === 'assistant');
}

/** In a script's tool input: the id of the agent the conversation spawned last (to wait for it). */
export const LAST_AGENT_ID = '$LAST_AGENT_ID';

/** The agent id in the latest tool output that names one (spawn_agent answers with it). */
function lastAgentId(body: ResponsesRequest): string | undefined {
  for (const item of [...(body.input ?? [])].reverse()) {
    if (item.type !== 'function_call_output') continue;
    const text = typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
    const id =
      /"agent_id"\s*:\s*"([^"]+)"/.exec(text)?.[1] ??
      /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/.exec(text)?.[0];
    if (id) return id;
  }
  return undefined;
}

export function textOf(item: ResponseItem): string {
  return (item.content ?? []).map((c) => c.text ?? '').join('\n');
}

/** Model turns so far (runs of items the model produced) and the text the user side sent. */
export function responsesConversation(body: ResponsesRequest): { assistantTurns: number; firstUserText: string } {
  let turns = 0;
  let inTurn = false;
  for (const item of body.input ?? []) {
    if (fromModel(item)) {
      if (!inTurn) turns++;
      inTurn = true;
    } else inTurn = false;
  }
  // the client puts its own context (instructions, environment) in user messages before the prompt
  const firstUserText = (body.input ?? [])
    .filter((i) => i.type === 'message' && i.role === 'user')
    .map(textOf)
    .join('\n');
  return { assistantTurns: turns, firstUserText };
}

function sse(res: ServerResponse, data: { type: string; [k: string]: unknown }): void {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function openaiHandler(script: ModelScript): (request: RecordedRequest, res: ServerResponse) => void {
  let ids = 0;
  const id = (p: string) => `${p}_e2e${String(++ids).padStart(6, '0')}`;

  function toItem(block: Block, body: ResponsesRequest): Record<string, unknown> {
    if (!('tool' in block))
      return {
        type: 'message',
        id: id('msg'),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: block.text, annotations: [] }],
      };
    let { tool: name, input } = block;
    if (name === SHELL) {
      const offered = new Set((body.tools ?? []).map((t) => t.name));
      const command = String(input.command);
      if (offered.has('exec_command')) [name, input] = ['exec_command', { cmd: command }];
      else [name, input] = ['shell', { command: ['bash', '-lc', command] }];
    }
    const args = JSON.stringify(input).replaceAll(LAST_AGENT_ID, lastAgentId(body) ?? LAST_AGENT_ID);
    return {
      type: 'function_call',
      id: id('fc'),
      call_id: id('call'),
      name,
      ...(block.namespace ? { namespace: block.namespace } : {}),
      arguments: args,
      status: 'completed',
    };
  }

  return (request, res) => {
    const path = request.path.replace(/\?.*$/, '');
    if (request.method !== 'POST' || !path.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no ${request.method} ${path} here` } }));
      return;
    }
    const body = (request.body ?? {}) as ResponsesRequest;
    const items = nextTurn(script, responsesConversation(body)).map((b) => toItem(b, body));
    const response = {
      id: id('resp'),
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      model: body.model ?? 'gpt-fake',
      status: 'in_progress',
      output: [] as unknown[],
    };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    sse(res, { type: 'response.created', response });
    items.forEach((item, output_index) => {
      sse(res, { type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress' } });
      if (item.type === 'message') {
        const text = (item.content as { text: string }[])[0]!.text;
        sse(res, { type: 'response.output_text.delta', item_id: item.id, output_index, content_index: 0, delta: text });
      } else
        sse(res, {
          type: 'response.function_call_arguments.delta',
          item_id: item.id,
          output_index,
          delta: item.arguments,
        });
      sse(res, { type: 'response.output_item.done', output_index, item });
    });
    const usage = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 120,
    };
    sse(res, { type: 'response.completed', response: { ...response, status: 'completed', output: items, usage } });
    res.end();
  };
}

export function startFakeOpenAI(script: ModelScript, log: string): Promise<RecordingServer> {
  return startRecordingServer(log, openaiHandler(script));
}
