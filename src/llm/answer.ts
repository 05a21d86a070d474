/** The typed answer of the LLM judge; anything else in the reply is ignored. */
export interface Verdict {
  stuck: boolean;
  repeating: boolean;
  progress: number;
  confidence: number;
  reason: string;
}

/** The verdict in a model's reply, or undefined when the reply holds no well-typed one (fail open). */
export function parseVerdict(reply: string): Verdict | undefined {
  const json = reply.slice(reply.indexOf('{'), reply.lastIndexOf('}') + 1);
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const num = (x: unknown, max: number) =>
    typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= max ? x : undefined;
  const progress = num(v.progress, 10);
  const confidence = num(v.confidence, 1);
  if (typeof v.stuck !== 'boolean' || progress === undefined || confidence === undefined) return undefined;
  return {
    stuck: v.stuck,
    repeating: v.repeating_failed_strategy === true,
    progress,
    confidence,
    reason: typeof v.reason === 'string' ? v.reason.slice(0, 300) : '',
  };
}
