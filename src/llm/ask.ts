import type { LlmConfig } from '../types.ts';
import { parseVerdict, type Verdict } from './answer.ts';

// One request to an Anthropic- or OpenAI-compatible endpoint, bounded by a hard timeout. Any failure
// (no key, a refused connection, a timeout, an error status, a reply without a verdict) is an error the
// caller logs and treats as "no verdict": the call is allowed as if nothing had been asked.

export async function askModel(question: string, llm: LlmConfig, env: NodeJS.ProcessEnv): Promise<Verdict> {
  const key = env[llm.apiKeyEnv];
  if (!key) throw new Error(`llm judge: ${llm.apiKeyEnv} is not set`);
  const base = llm.baseUrl.replace(/\/+$/, '');
  const anthropic = llm.provider === 'anthropic';
  const response = await fetch(anthropic ? `${base}/v1/messages` : `${base}/v1/chat/completions`, {
    method: 'POST',
    signal: AbortSignal.timeout(llm.timeoutMs),
    headers: anthropic
      ? { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' }
      : { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: llm.model, max_tokens: 300, messages: [{ role: 'user', content: question }] }),
  });
  if (!response.ok) throw new Error(`llm judge: ${llm.provider} answered ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  const text = anthropic
    ? ((body.content as { type?: string; text?: string }[] | undefined) ?? []).filter((b) => b.type === 'text').map((b) => b.text ?? '').join('')
    : String(((body.choices as { message?: { content?: unknown } }[] | undefined) ?? [])[0]?.message?.content ?? '');
  const verdict = parseVerdict(text);
  if (!verdict) throw new Error('llm judge: the reply held no verdict');
  return verdict;
}
