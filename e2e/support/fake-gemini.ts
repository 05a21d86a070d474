import type { ServerResponse } from 'node:http';
import { type Block, type ModelScript, nextTurn } from './model-script.ts';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './recording-server.ts';

// A fake Gemini API that plays a ModelScript for Gemini CLI: POST .../models/<m>:streamGenerateContent
// (server-sent events) and :generateContent. A request that offers no tools is one of the client's side
// questions (the model router's complexity classifier), answered with the JSON it expects.

export interface GeminiPart {
  text?: string;
  functionCall?: { name: string; args?: Record<string, unknown> };
  functionResponse?: { name: string; response?: Record<string, unknown> };
}

export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

export interface GenerateRequest {
  contents?: GeminiContent[];
  tools?: unknown[];
}

export function geminiConversation(body: GenerateRequest): { assistantTurns: number; firstUserText: string } {
  const contents = body.contents ?? [];
  const first = contents.find((c) => c.role === 'user');
  return {
    assistantTurns: contents.filter((c) => c.role === 'model').length,
    firstUserText: (first?.parts ?? []).map((p) => p.text ?? '').join('\n'),
  };
}

const USAGE = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 };

function answer(parts: GeminiPart[]): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE,
    modelVersion: 'gemini-fake',
  };
}

function toPart(block: Block): GeminiPart {
  return 'tool' in block ? { functionCall: { name: block.tool, args: block.input } } : { text: block.text };
}

export function geminiHandler(script: ModelScript): (request: RecordedRequest, res: ServerResponse) => void {
  return (request, res) => {
    const path = request.path.replace(/\?.*$/, '');
    const body = (request.body ?? {}) as GenerateRequest;
    if (request.method === 'POST' && path.endsWith(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 100 }));
      return;
    }
    const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
    const parts = offersTools
      ? nextTurn(script, geminiConversation(body)).map(toPart)
      : [{ text: JSON.stringify({ complexity_reasoning: 'A scripted test session.', complexity_score: 10 }) }];
    if (request.method === 'POST' && path.endsWith(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`data: ${JSON.stringify(answer(parts))}\r\n\r\n`);
      res.end();
      return;
    }
    if (request.method === 'POST' && path.endsWith(':generateContent')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(parts)));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { code: 404, message: `no ${request.method} ${path} here`, status: 'NOT_FOUND' } }),
    );
  };
}

export function startFakeGemini(script: ModelScript, log: string): Promise<RecordingServer> {
  return startRecordingServer(log, geminiHandler(script));
}
