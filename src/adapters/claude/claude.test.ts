import { describe, it } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describeEvent } from '../dialect.ts';
import { claudeDialect } from './dialect.ts';
import { parseClaude } from './parse.ts';
import { DEFAULT_CONFIG } from '../../config/defaults.ts';
import { stoppedDenyMessage } from '../../engine/messages.ts';
import { checkSpawn } from '../../engine/spawn-guard.ts';
import { selfProtectMessage } from '../../guard/message.ts';
import { SEED_RULE } from '../../../test/support/config.ts';
import { Session } from '../../../test/support/session.ts';

// Claude Code 2.1.197's PostToolBatch lists every call of the batch with the text of its result: the
// install registers no PostToolUse, and a call that succeeds is read from that list.

const batch = JSON.parse(readFileSync('test/fixtures/payloads/claude-PostToolBatch.json', 'utf8'));

function listed(...calls: Record<string, unknown>[]) {
  return { ...batch, tool_calls: calls };
}

/** One call as the batch's end lists it; `response` undefined for a call the list gives no result for. */
function call(tool: string, input: Record<string, unknown>, id: string, response?: string) {
  return { tool_name: tool, tool_input: input, tool_use_id: id, tool_response: response };
}

describe('Claude Code: outcomes at the end of a batch', () => {
  it('reads each listed call as an outcome, before the batch end itself', () => {
    const parsed = parseClaude(batch)!;
    assert.equal(parsed.event.kind, 'batch-end');
    assert.equal(parsed.outcomes!.length, 1);
    const failed = describeEvent(parsed.outcomes![0]!, claudeDialect);
    assert.ok(failed.kind === 'post-tool' && failed.late === true && failed.call.id === 'toolu_e2e000001');
    // the list gives no success flag: the result's own text says `npm test` exited 1
    assert.equal(failed.ok, false);
  });

  it('takes a result the harness wrapped as an error, or a refusal, for a failure, and any other text for none', () => {
    const [read, missing, refused] = parseClaude(
      listed(
        call('Read', { file_path: '/p/a.ts' }, 'a', '1\tx'),
        call('Read', { file_path: '/p/b.ts' }, 'b', '<tool_use_error>File does not exist.</tool_use_error>'),
        call('Bash', { command: 'rm -rf build' }, 'c', 'Permission to use Bash has been denied.'),
      ),
    )!.outcomes!.map((e) => describeEvent(e, claudeDialect));
    assert.deepEqual(
      [read, missing, refused].map((e) => e?.kind === 'post-tool' && [e.ok, !!e.facts?.refused]),
      [
        [null, false],
        [false, false],
        [false, true],
      ],
    );
  });

  it("leaves out calls that never ran as asked: each of stallguard's own refusals, the person's interrupt", () => {
    // the refusals as the engine and the guards word them, so that a change of their words shows here
    const s = new Session(SEED_RULE);
    s.prompt();
    for (let i = 0; i < 5; i++) s.bash('npm test', '1 failed', false);
    const denied = s.pre('Bash', { command: 'npm test' });
    assert.equal(denied.action, 'deny');
    const repeatDenied = denied.message!;
    const refusals = [
      repeatDenied,
      stoppedDenyMessage('stall: `Bash npm test` x10, twice in this task'),
      selfProtectMessage({ code: 'SELF_PROTECT', path: '~/.stallguard/config.json', kind: 'own' }),
      checkSpawn({ count: 0, tree: {} }, { id: 'a1', type: 'reviewer' }, DEFAULT_CONFIG).message!,
    ];
    assert.equal(refusals.length, new Set(refusals).size);
    const parsed = parseClaude(
      listed(
        ...refusals.map((text, i) => call('Bash', { command: 'npm test' }, `r${i}`, text)),
        call('Bash', { command: 'sleep 60' }, 'b', '[Request interrupted by user for tool use]'),
        call('Read', { file_path: '/p/a.ts' }, 'c'),
      ),
    )!;
    assert.equal(parsed.outcomes, undefined);
  });

  it("marks a call's own event as one its batch will list again", () => {
    const failure = JSON.parse(readFileSync('test/fixtures/payloads/claude-PostToolUseFailure-Bash.json', 'utf8'));
    const event = parseClaude(failure)!.event;
    assert.ok(event.kind === 'post-tool' && event.late === false);
  });
});

describe("Claude Code: a result's head", () => {
  // the dialect asks each expression only of a head that holds one of its hints: that must change nothing, so
  // here is each expression asked of every head
  const plain = (tool: string, head: string, ok: boolean | null) => {
    const code = /^Exit code (\d+)/.exec(head);
    const refused = new RegExp(
      '^(?:Permission to use \\S+ has been denied|Permission for this tool use was denied|' +
        "The user doesn't want to (?:proceed with|take) this|\\[Request interrupted by user)",
    ).test(head);
    const known = ok ?? (code ? code[1] === '0' : /^\s*<tool_use_error>/.test(head) || refused ? false : null);
    return {
      known,
      skipped: /^\s*<tool_use_error>(?:Sibling tool call errored|Cancelled: parallel tool call)/.test(head),
      refused,
      malformed: /InputValidationError|<tool_use_error>Error: No such tool available/.test(head),
      empty:
        new RegExp(
          '^(?:No matches found|No files found|Found 0 (?:matches|files)|' +
            '\\(Bash completed with no output\\)|\\(no output\\))' +
            '(?:\\s*\\[Showing results with pagination = [^\\]\\n]*\\])?\\s*$',
        ).test(head.trim()) ||
        (code !== null && head.trim() === code[0]),
      unchanged:
        tool === 'Read' && /^(?:Wasted call\W+)?(?:File )?unchanged since (?:your )?last read\b/i.test(head.trim()),
    };
  };
  const PIECES = [
    'Exit code 1',
    'Exit code 0',
    'Exit code ',
    'exit code 2',
    ' ',
    '\n',
    '  <tool_use_error>',
    '<tool_use_error>Sibling tool call errored',
    '<tool_use_error>Cancelled: parallel tool call',
    '<tool_use_error>Error: No such tool available',
    'InputValidationError',
    'Permission to use Bash has been denied',
    'Permission for this tool use was denied',
    "The user doesn't want to proceed with this",
    "The user doesn't want to take this",
    '[Request interrupted by user',
    'No matches found',
    'No files found',
    'Found 0 matches',
    'Found 0 files',
    '(Bash completed with no output)',
    '(no output)',
    '\n\n[Showing results with pagination = limit: 30, offset: 0]',
    ']',
    'Wasted call \u2014 ',
    'File ',
    'UNCHANGED SINCE LAST READ',
    'unchanged since your last read',
    'Unchanged since last read.',
    'x',
  ];
  it('an empty answer is empty with the paging a head_limit adds to it', () => {
    const paged = 'No matches found\n\n[Showing results with pagination = limit: 30, offset: 0]';
    assert.equal(claudeDialect({ name: 'Grep', input: {} }, paged, true).facts.empty, true);
    const found = 'src/a.ts\n\n[Showing results with pagination = limit: 30, offset: 0]';
    assert.equal(claudeDialect({ name: 'Grep', input: {} }, found, true).facts.empty, undefined);
  });
  it('a web search that names no page found nothing, however its answer is worded around that', () => {
    const reminder =
      '\n\n\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.';
    const header = 'Web search results for query: "libfoo segfault site:github.com"\n\n';
    const web = (body: string) => claudeDialect({ name: 'WebSearch', input: {} }, header + body + reminder, true).facts;
    assert.equal(web('').empty, true);
    assert.equal(web('No links found.').empty, true);
    assert.equal(web("I'll perform that web search for you right away.").empty, true);
    assert.equal(web('API Error: Unable to connect to API (UND_ERR_SOCKET)').empty, true);
    assert.equal(web('Links: [{"title":"libfoo#12","url":"https://github.com/x/libfoo/issues/12"}]').empty, undefined);
    const results = '- libfoo 3.2 crashes on arm64\n'.repeat(12);
    const written = `Web search error: undefined\n\nHere are the search results:\n\n${results}`;
    assert.equal(web(written).empty, undefined);
  });
  it('a fetched page that its reader says lacks what was asked found nothing; one that told it found it', () => {
    const fetch = (answer: string) =>
      claudeDialect({ name: 'WebFetch', input: { url: 'https://docs.example.com' } }, answer, true).facts.empty;
    assert.equal(fetch('Based on the web page content provided, there is **no mention** of a retry limit.'), true);
    assert.equal(fetch('Deliveries are retried 5 times, with exponential backoff.'), undefined);
  });
  it('a read past the end of a file, or of an empty one, showed nothing of it', () => {
    const read = (answer: string) => claudeDialect({ name: 'Read', input: {} }, answer, true).facts.empty;
    const past = (offset: number, lines: number) =>
      `<system-reminder>Warning: the file exists but is shorter than the provided offset (${offset}). ` +
      `The file has ${lines} lines.</system-reminder>`;
    assert.equal(read(past(1800, 1524)), true);
    assert.equal(read(past(1, 0)), true);
    assert.equal(read(`${past(1800, 1524)}\n     1\tconst a = 1;`), undefined);
  });
  it('is read for each mark exactly as each expression asked of it whole would read it', () => {
    const head = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 })), { maxLength: 5 });
    fc.assert(
      fc.property(head, fc.constantFrom('Read', 'Bash'), fc.constantFrom(true, false, null), (parts, tool, ok) => {
        const text = parts.join('');
        const { ok: known, facts } = claudeDialect({ name: tool, input: {} }, text, ok);
        const want = plain(tool, text.slice(0, 400), ok);
        assert.deepEqual(
          {
            known,
            skipped: facts.skipped === true,
            refused: facts.refused === true,
            malformed: facts.malformed === true,
            empty: facts.empty === true,
            unchanged: facts.unchanged === true,
          },
          want,
        );
      }),
      { numRuns: 4000 },
    );
  });
});
