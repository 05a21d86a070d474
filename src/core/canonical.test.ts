import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { idsIn, normalizeOutputText, normalizeText, volatileField } from './canonical.ts';
import { either, regex } from './regex.ts';

// normalizeText skips the passes that cannot match (no escape character, no temp path, no run of 24 hex
// digits, no whitespace to fold) and folds whitespace in one pass, for speed on long outputs. That must
// change nothing: this is every pass, always run, one after the other.

function everyPass(text: string, cwd: string, home: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC and BEL open and close terminal codes
  let t = text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
  t = t.split(cwd + '/').join('./');
  t = t.split(cwd).join('.');
  t = t.split(home).join('~');
  return t
    .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<time>')
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
    .replace(/\b(?:req|request|msg|toolu|call|run|trace)_[A-Za-z0-9]{8,}\b/g, '<id>')
    .replace(/\b[0-9a-f]{24,}\b/gi, '<hex>')
    .replace(/(?:\/private)?\/(?:tmp|var\/tmp|var\/folders\/[^\s/]+\/[^\s/]+\/T)\/[^\s/'"`),;:]+/g, '<tmp>')
    .replace(/\b[A-Za-z]:\\(?:Users\\[^\\\s]+\\AppData\\Local\\Temp|Windows\\Temp)\\[^\s'"`),;:]+/gi, '<tmp>')
    .replace(/\b(pid|PID|PGID|process(?: group)?(?: pgid)?|Process Group PGID)([:= #]+)\d+\b/gi, '$1$2<pid>')
    .replace(/\b1[6-9]\d{11}\b/g, '<time>')
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\r?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function everyOutputPass(text: string, cwd: string, home: string): string {
  return everyPass(text, cwd, home)
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|msec|milliseconds?|s|secs?|seconds?|µs|us|ns|m|mins?|minutes?)\b(?!\w)/g, '<dur>')
    .replace(/\b0x[0-9a-f]{6,}\b/gi, '<addr>')
    .replace(/\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d{2,5}\b/g, '$1:<port>');
}

const PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\n\n\n',
  ' \n',
  '\n ',
  '\x1b[31m',
  '\x1b[0m',
  '/tmp/x1',
  '/var/tmp/a',
  '/private/var/folders/ab/cd/T/f',
  'C:\\Users\\ADMINI~1\\AppData\\Local\\Temp\\claude\\tasks\\b1x.output',
  'c:\\windows\\temp\\a',
  'C:\\Users\\dev\\proj\\a.ts',
  '/home/dev/proj',
  '/home/dev/proj/src/a.ts',
  '/home/dev',
  'pid 4242',
  'PGID: 7',
  '2026-11-29T10:00:00Z',
  '10:00:01',
  '1732874400000',
  'req_0123456789ab',
  'deadbeefdeadbeefdeadbeef00',
  '123e4567-e89b-12d3-a456-426614174000',
  '123E4567-E89B-12D3-A456-426614174000',
  'abcdefab-cdef-abcd-efab-cdefabcdefab',
  '9:41:07',
  '-abcd-',
  'call_',
  'toolu_01ABCDEFGH',
  'request_',
  'msg_',
  'run_',
  'trace_',
  'rec_',
  'ABCDEFGH1',
  '_',
  'error',
  'a',
  '.',
  ':',
  ' \t',
  '\t ',
  '   ',
  '0x1234567',
  '0XABCDEF12',
  'localhost:8080',
  '127.0.0.1:3000',
  '[::1]:99',
  '0.0.0.0:80',
  '12ms',
  '3.5 s',
  '_',
  '\r',
  ' \r\n ',
  '\t\n\t',
  '0123456789abcdef',
  '0123456',
  'ABCDEF012345',
  'g',
  'Process Group PGID 12',
  'PROCESS #5',
  'pgid=3',
  '7 µs',
  '5 mins',
  '2 ns',
  '9us',
  '12:5',
  '1-2',
  '2026-01-01 10:00',
  // PID's words in other cases, and the characters that lower or match under i to nearly theirs
  'PiD 9',
  'ProCess: 3',
  'p\u0130d 1',
  'p\u0131d 2',
  'pg\u0130d=4',
  'PROC\u0130SS 5',
  // line ends with and without the spaces and carriage returns around them
  '\r \n',
  '\n\r\n',
  '\r\n\t',
  ' \t\n',
];

describe('normalizeText', () => {
  it('gives exactly what every pass run in full gives', () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 40 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => {
        assert.equal(
          normalizeText(t, { cwd: '/home/dev/proj', home: '/home/dev' }),
          everyPass(t, '/home/dev/proj', '/home/dev'),
        );
        assert.equal(
          normalizeOutputText(t, { cwd: '/home/dev/proj', home: '/home/dev' }),
          everyOutputPass(t, '/home/dev/proj', '/home/dev'),
        );
      }),
      { numRuns: 5000 },
    );
  });

  it("takes a scratch file under Windows' temp folders out whole: its names may each be made afresh", () => {
    const unavailable = (name: string) =>
      '<bash output unavailable: output file C:\\Users\\ADMINI~1\\AppData\\Local\\Temp\\claude\\' +
      `tasks\\${name}.output could not be read (ENOENT)`;
    assert.equal(normalizeText(unavailable('brzpordyc')), normalizeText(unavailable('bm153v7ac')));
    assert.equal(normalizeText('C:\\Users\\dev\\proj\\a.ts'), 'C:\\Users\\dev\\proj\\a.ts');
  });

  it('folds whitespace and removes what varies', () => {
    assert.equal(
      normalizeOutputText('\x1b[32mok\x1b[0m  in 12ms\r\n\n\n\nat /tmp/abc/x.js pid 42 \n', { cwd: '/home/dev/proj' }),
      'ok in <dur>\n\nat <tmp>/x.js pid <pid>',
    );
  });
});

describe('ids', () => {
  const draft = '059C0828-5689-4427-8536-D2FD2A08F3F2';
  const commit = 'ffdd16295e2caf85e803170ec5c22f977f6057a9';

  it('an id the agent passes names what the call acts on, and stays; one an output holds is made afresh', () => {
    assert.equal(normalizeText(`git show ${commit} --stat`, {}, true), `git show ${commit} --stat`);
    assert.equal(normalizeOutputText(`Created job ${draft}`), 'Created job <uuid>');
    assert.deepEqual(idsIn(`{"uuid":"${draft}","base":"${commit}"}`), [draft, commit]);
  });
});

describe('volatileField', () => {
  it('is the expression of the names it replaced, for any name', () => {
    const old = regex(
      'i',
      '^(',
      either(
        '',
        /timestamp|time|ts|date|datetime|now|nonce|cursor|next_?cursor|page_?token|request_?id|trace_?id|span_?id/,
        /correlation_?id|idempotency_?key|tool_?use_?id|session_?id|run_?id|pid|duration(_?ms)?|elapsed(_?ms)?/,
        /task_?progress/,
      ),
      ')$',
    );
    const names = [
      'Timestamp',
      'next_cursor',
      'NEXTCURSOR',
      'tool_useId',
      'Duration_MS',
      'elapsedms',
      'idempotency_\u212aey',
    ];
    for (const n of names) assert.equal(volatileField(n), old.test(n), n);
    const name = fc
      .array(
        fc.oneof(fc.constantFrom('_', 'id', 'ID', 'ms', 'time', 'k', '\u212a', '\u0130', 'use', 'tool'), fc.string()),
        {
          maxLength: 4,
        },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(name, (n) => volatileField(n) === old.test(n)),
      { numRuns: 3000 },
    );
  });
});
