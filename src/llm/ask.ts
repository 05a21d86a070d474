import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { LlmConfig } from '../types.ts';
import { parseVerdict, type Verdict } from './answer.ts';

// One request to an Anthropic- or OpenAI-compatible endpoint, bounded by a hard timeout. Any failure
// (no key, a refused connection, a timeout, an error status, a reply without a verdict) is an error the
// caller logs and treats as "no verdict": the call is allowed as if nothing had been asked.
//
// The installed command clears NODE_EXTRA_CA_CERTS on Node 20 (it triples node's start-up) and keeps its
// value in STALLGUARD_CA_CERTS; this is the one TLS connection a hook makes, so the certificates (a company
// proxy's) are loaded here, for it alone.

function extraCertificates(env: NodeJS.ProcessEnv): string[] | undefined {
  const file = env.STALLGUARD_CA_CERTS?.trim() || undefined;
  return file ? [...rootCertificates, readFileSync(file, 'utf8')] : undefined;
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const ca = url.protocol === 'https:' ? extraCertificates(env) : undefined;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, ...(ca ? { ca } : {}) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`llm judge: no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end(body);
  });
}

export async function askModel(question: string, llm: LlmConfig, env: NodeJS.ProcessEnv): Promise<Verdict> {
  const key = env[llm.apiKeyEnv];
  if (!key) throw new Error(`llm judge: ${llm.apiKeyEnv} is not set`);
  const base = llm.baseUrl.replace(/\/+$/, '');
  const anthropic = llm.provider === 'anthropic';
  const url = new URL(anthropic ? `${base}/v1/messages` : `${base}/v1/chat/completions`);
  const headers: Record<string, string> = anthropic
    ? { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' }
    : { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const { status, text } = await post(
    url,
    headers,
    JSON.stringify({ model: llm.model, max_tokens: 300, messages: [{ role: 'user', content: question }] }),
    llm.timeoutMs,
    env,
  );
  if (status < 200 || status >= 300) throw new Error(`llm judge: ${llm.provider} answered ${status}`);
  const body = JSON.parse(text) as Record<string, unknown>;
  const reply = anthropic
    ? ((body.content as { type?: string; text?: string }[] | undefined) ?? [])
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('')
    : String(((body.choices as { message?: { content?: unknown } }[] | undefined) ?? [])[0]?.message?.content ?? '');
  const verdict = parseVerdict(reply);
  if (!verdict) throw new Error('llm judge: the reply held no verdict');
  return verdict;
}
