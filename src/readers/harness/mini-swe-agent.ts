import type { CallFacts } from '../../types.ts';
import { commandOf, type Dialect, mark } from '../../adapters/dialect.ts';
import { outputText } from '../../core/output-text.ts';

// mini-swe-agent runs everything through bash: its traces name each call after the command's first
// word, wrap the result as `<returncode>1</returncode>\n<output>...</output>`, and record an answer
// without exactly one command as a `<format_error>` pseudo-step.

const RETURN_CODE = /<returncode>(-?\d+)<\/returncode>/;
const OUTPUT = /<output>\n?([\s\S]*?)\n?<\/output>/;
const FORMAT_ERROR = /Please always provide EXACTLY ONE action/;

export const miniSweAgentDialect: Dialect = (call, output, ok) => {
  const text = outputText(output);
  if (call.name === '<format_error>' || FORMAT_ERROR.test(text.slice(0, 2000)))
    return { ok: false, output, facts: { cls: 'other', malformed: true } };
  const command = commandOf(call.input);
  const facts: CallFacts =
    command !== undefined && call.name !== 'submit' ? { cls: 'exec', command } : { cls: 'other' };
  const code = RETURN_CODE.exec(text)?.[1];
  const body = OUTPUT.exec(text)?.[1] ?? (code !== undefined ? text.replace(RETURN_CODE, '') : output);
  mark(facts, 'empty', outputText(body).trim().length === 0);
  return { ok: ok ?? (code !== undefined ? code === '0' : null), output: body, facts };
};
