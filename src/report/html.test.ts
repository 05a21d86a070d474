import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reportHtml } from './html.ts';
import { summarize, type ReportData } from './model.ts';

describe('the report page', () => {
  it('escapes what came from the sessions: short forms, ids and projects are text, never markup', () => {
    const data: ReportData = {
      source: 'ledger',
      from: [],
      skippedLines: 0,
      sessions: [
        {
          id: '"><script>alert(1)</script>',
          agent: 'claude',
          project: '<b>proj</b>',
          calls: 10,
          stalls: [
            {
              step: 5,
              action: 'nudge',
              agent: 'main',
              signals: ['REPEAT'],
              loop: '`Bash echo "<img src=x onerror=alert(1)>"` x5',
              tools: ['Bash'],
              from: 1,
              to: 5,
              calls: 5,
            },
          ],
          inside: { calls: 5 },
          afterStop: { calls: 0 },
        },
      ],
    };
    const html = reportHtml(data, summarize(data), new Date('2026-11-29T12:00:00Z'));
    assert.doesNotMatch(html, /<script|<img|<b>proj/);
    assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
    assert.match(html, /Generated 2026-11-29 12:00 UTC/);
  });
});
