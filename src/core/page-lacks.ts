import { either, hinted, regex } from './regex.ts';

// A fetch's answer is written by a model that read the page for the agent's prompt, so "the page does not mention
// a retry limit" is that model saying the page lacks what was asked: a lookup that found nothing, as a search
// without matches is. Fetching the same page again and again with the prompt reworded, and hearing each time that
// it is not there, is one lookup retried. The answer says so at its head; one that states a fact about the thing
// asked ("the API does not have a rate limit") found it, so the page, its content or the finder is the subject.
/** The expression whole; LACKS asks it only of answers holding one of its hints. */
export const LACKS_WHOLE = either(
  'i',
  regex(
    '',
    /\b(?:page|content|document|documentation|article|site|website|readme|repository|text|source)s? /,
    /(?:does|do|did)(?: not|n't) (?:appear to |seem to )?/,
    /(?:mention|contain|specify|include|say|provide|describe|list|cover|discuss|document|state|show|address)\b/,
  ),
  regex(
    '',
    /\bno (?:mention|information|details?|reference|documentation)s? /,
    /(?:available )?(?:of|about|on|regarding|for|is|was)\b/,
  ),
  /\b(?:could not|couldn't|cannot|can't|(?:was |am )?unable to) (?:find|locate|identify)\b/,
  /\b(?:is|are|was|were) not (?:mentioned|specified|documented|covered|described|listed)\b/,
);
const LACKS = hinted(LACKS_WHOLE, ['not ', "n't ", 'no ', 'unable ']);

/** Whether a fetched page's answer, as the model reading it wrote it, says the page lacks what was asked. */
export function saysPageLacks(answer: string): boolean {
  // models bold the point they make (`there is **no mention** of`)
  return LACKS.test(answer.slice(0, 300).replaceAll('**', ''));
}
