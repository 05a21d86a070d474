import { stableJson } from './stable-json.ts';

/**
 * The texts of structured outcomes seen, by object: an agent's dialect reads an outcome's text before the
 * step is made from it, and an outcome with no text field of its own (an edit's, with the file it changed)
 * is its whole structure as stable JSON, made once.
 */
const textOf = new WeakMap<object, string>();

/**
 * The text of a tool's outcome, from whatever shape the agent reports: a string, Claude's
 * {stdout, stderr}, Gemini's {llmContent, returnDisplay}, content blocks [{type:"text", text}], MCP results.
 */
export function outputText(output: unknown): string {
  if (output === undefined || output === null) return '';
  if (typeof output === 'string') return output;
  if (typeof output !== 'object') return textAt(output, 0);
  let text = textOf.get(output);
  if (text === undefined) {
    text = textAt(output, 0);
    textOf.set(output, text);
  }
  return text;
}

function textAt(output: unknown, depth: number): string {
  if (output === undefined || output === null) return '';
  if (typeof output === 'string') return output;
  // nesting no tool produces: the structure, cut where it gets absurd, stands for the text
  if (depth > 50) return stableJson(output);
  if (Array.isArray(output)) return output.map((o) => textAt(o, depth + 1)).join('\n');
  if (typeof output === 'object') {
    const o = output as Record<string, unknown>;
    if (typeof o.type === 'string' && o.type === 'text' && typeof o.text === 'string') return o.text;
    if ('stdout' in o || 'stderr' in o)
      return [o.stdout, o.stderr].filter((x) => typeof x === 'string' && x).join('\n');
    if ('llmContent' in o) return textAt(o.llmContent, depth + 1) + (o.error ? '\n' + textAt(o.error, depth + 1) : '');
    if (Array.isArray(o.content)) return textAt(o.content, depth + 1);
    if (o.file && typeof o.file === 'object' && typeof (o.file as Record<string, unknown>).content === 'string')
      return (o.file as Record<string, unknown>).content as string;
    if (typeof o.output === 'string') return o.output;
    if (typeof o.result === 'string') return o.result;
  }
  return stableJson(output);
}
