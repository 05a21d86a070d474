import type { ReportData, ReportSession, ReportStall, Row, Summary } from './model.ts';
import { compact, cost, int, percent, plural, usd } from './format.ts';
import { tokenTotal } from '../scan/spend.ts';
import { PRICES_AS_OF } from '../scan/prices.ts';

// The report as one self-contained page: inline CSS, hand-written inline SVG, no script, no font, no
// image, nothing fetched. The Content-Security-Policy forbids any request, so a page that tried would
// show it in the browser's console rather than leak the history's names to a server.

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const COLORS: Record<string, string> = { nudge: '#d98e04', stop: '#c62828', deny: '#6a3fb5' };

function bars(items: { label: string; value: number; text: string; title: string }[], cls: string): string {
  if (items.length === 0) return '<p class="empty">None.</p>';
  const max = Math.max(...items.map((i) => i.value), 1);
  const row = 26;
  const width = 760;
  const labelWidth = 230;
  const barMax = width - labelWidth - 130;
  const rows = items
    .map((it, i) => {
      const w = Math.max(2, Math.round((it.value / max) * barMax));
      const y = i * row;
      return (
        `<g class="bar"><title>${esc(it.title)}</title><text x="${labelWidth - 8}" y="${y + 17}" ` +
        `text-anchor="end">${esc(it.label.length > 34 ? it.label.slice(0, 33) + '…' : it.label)}</text><rect ` +
        `x="${labelWidth}" y="${y + 4}" width="${w}" height="${row - 8}" rx="2"/><text class="value" ` +
        `x="${labelWidth + w + 6}" y="${y + 17}">${esc(it.text)}</text></g>`
      );
    })
    .join('');
  return (
    `<svg class="bars ${cls}" viewBox="0 0 ${width} ${items.length * row}" ` +
    `width="${width}" height="${items.length * row}" role="img">${rows}</svg>`
  );
}

function stacked(sessions: ReportSession[], tokens: boolean): string {
  const key = (s: ReportSession) => (tokens ? (s.inside.spend?.usd ?? 0) : s.inside.calls);
  const top = sessions
    .filter((s) => key(s) > 0)
    .sort((a, b) => key(b) - key(a))
    .slice(0, 15);
  if (top.length === 0) return '<p class="empty">None.</p>';
  const whole = (s: ReportSession) => (tokens ? (s.spend?.usd ?? 0) : s.calls);
  const max = Math.max(...top.map(whole), 1e-9);
  const row = 26;
  const width = 760;
  const labelWidth = 230;
  const barMax = width - labelWidth - 170;
  const rows = top
    .map((s, i) => {
      const all = Math.max(2, Math.round((whole(s) / max) * barMax));
      const inside = Math.max(2, Math.round((key(s) / max) * barMax));
      const y = i * row;
      const label = `${s.project ?? s.agent} · ${s.id.slice(0, 8)}`;
      const text = tokens ? `${usd(key(s))} of ${usd(whole(s))}` : `${int(key(s))} of ${int(whole(s))} calls`;
      return (
        `<g class="session"><title>${esc(`${s.id} (${s.agent}): ${text} inside stalls`)}</title><text ` +
        `x="${labelWidth - 8}" y="${y + 17}" text-anchor="end">${esc(label)}</text><rect class="whole" ` +
        `x="${labelWidth}" y="${y + 4}" width="${all}" height="${row - 8}" rx="2"/><rect class="inside" ` +
        `x="${labelWidth}" y="${y + 4}" width="${inside}" height="${row - 8}" rx="2"/><text ` +
        `class="value" x="${labelWidth + all + 6}" y="${y + 17}">${esc(text)}</text></g>`
      );
    })
    .join('');
  return (
    `<svg class="bars cost" viewBox="0 0 ${width} ${top.length * row}" ` +
    `width="${width}" height="${top.length * row}" role="img">${rows}</svg>`
  );
}

function stallTitle(st: ReportStall, tokens: boolean): string {
  const spent =
    st.calls > 0
      ? ` — ${plural(st.calls, 'call')} inside (calls ${st.from}–${st.to})` +
        `${tokens && st.spend ? `, ${compact(tokenTotal(st.spend.tokens))} tokens, ${cost(st.spend)}` : ''}`
      : '';
  const next =
    st.after === 'repeated' ? '; then kept repeating' : st.after === 'changed' ? '; then changed approach' : '';
  const verdict = st.verdict ? `; you marked it ${st.verdict}` : '';
  return (
    `call ${st.step + 1}: ${st.action}${st.mode ? ` (${st.mode})` : ''} ${st.loop.replace(/`/g, '')} ` +
    `[${st.signals.join(', ')}]${spent}${next}${verdict}`
  );
}

function timeline(s: ReportSession, tokens: boolean): string {
  const width = 760;
  const height = 34;
  const total = Math.max(s.calls, 1);
  const x = (step: number) => Math.round((step / total) * (width - 20)) + 10;
  const own = s.stalls.filter((st) => !st.file);
  const stretches = own
    .filter((st) => st.calls > 0)
    .map(
      (st) =>
        `<rect class="stretch" x="${x(st.from)}" y="6" width="${Math.max(3, x(st.to + 1) - x(st.from))}" ` +
        `height="${height - 12}"><title>${esc(stallTitle(st, tokens))}</title></rect>`,
    )
    .join('');
  const markers = own
    .map((st) => {
      const ring = st.verdict
        ? `<circle class="verdict ${st.verdict}" cx="${x(st.step)}" cy="${height / 2}" r="9"/>`
        : '';
      return (
        `${ring}<circle class="marker ${esc(st.action)}${st.verdict ? ` verdict-${st.verdict}` : ''}" ` +
        `cx="${x(st.step)}" cy="${height / 2}" r="6" ` +
        `fill="${COLORS[st.action] ?? '#555'}"><title>${esc(stallTitle(st, tokens))}</title></circle>`
      );
    })
    .join('');
  const elsewhere = s.stalls.filter((st) => st.file);
  const items = elsewhere.map((st) => `<li>subagent ${esc(st.agent)}: ${esc(stallTitle(st, tokens))}</li>`);
  const sub = elsewhere.length ? `<ul class="sub">${items.join('')}</ul>` : '';
  const head =
    `${esc(s.project ?? '')} <span class="id">${esc(s.id)}</span> ` +
    `· ${esc(s.agent)} · ${plural(s.calls, 'call')} ` +
    `· ${plural(s.stalls.length, 'stall')} · ${plural(s.inside.calls, 'call')} ` +
    `inside${tokens && s.inside.spend ? `, ${esc(cost(s.inside.spend))}` : ''}`;
  return (
    `<div class="timeline-row"><div class="head">${head}</div><svg class="timeline" viewBox="0 ` +
    `0 ${width} ${height}" width="${width}" height="${height}" role="img"><rect class="calls" x="10" ` +
    `y="${height / 2 - 2}" width="${width - 20}" height="4"/>${stretches}${markers}<text class="end" ` +
    `x="${width - 10}" y="${height - 1}" text-anchor="end">${int(s.calls)}</text></svg>${sub}</div>`
  );
}

function rowsTable(title: string, first: string, rows: Row[], tokens: boolean, limit = 15): string {
  const head = [first, 'stalls', 'sessions', 'calls inside', ...(tokens ? ['tokens inside', 'cost inside'] : [])];
  const body = rows
    .slice(0, limit)
    .map(
      (r) =>
        `<tr><td>${esc(r.key)}</td><td>${int(r.stalls)}</td><td>${int(r.sessions.size)}</td><td>${int(r.calls)}</td>` +
        `${tokens ? `<td>${compact(tokenTotal(r.spend.tokens))}</td><td>${esc(cost(r.spend))}</td>` : ''}</tr>`,
    )
    .join('');
  return (
    `<h2>${esc(title)}</h2><table><thead><tr>` +
    `${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`
  );
}

const CSS = `

body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1d1f;
margin:0 auto;max-width:820px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}
.sub-title{color:#666;margin:0}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:18px 0}
.card{border:1px solid #ddd;border-radius:6px;padding:8px 12px;min-width:130px}.card b{display:block;font-size:20px}
svg text{font-size:12px;fill:#333}svg .value{fill:#555}
.bars rect{fill:#4a6fa5}.cost rect.whole{fill:#d7dce3}.cost rect.inside{fill:#c62828}
.timeline-row{margin:10px 0 14px}.timeline-row .head{font-size:12px;color:#333}
.id{color:#888;font-family:ui-monospace,monospace}
.timeline .calls{fill:#c9ced6}.timeline .stretch{fill:#c62828;fill-opacity:.28}.timeline .end{font-size:10px;fill:#888}
ul.sub{margin:2px 0 0;padding-left:18px;font-size:12px;color:#555}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee}
td:not(:first-child),th:not(:first-child){text-align:right}
.timeline .verdict{fill:none;stroke-width:2.5}.timeline .verdict.right{stroke:#2e7d32}
.timeline .verdict.wrong{stroke:#777;stroke-dasharray:3 2}.timeline .marker.verdict-wrong{fill-opacity:.45}

.ring{display:inline-block;width:10px;height:10px;border-radius:7px;margin-right:4px;vertical-align:-2px;
border:2px solid #2e7d32}
.ring.wrong{border:2px dashed #777}
.legend span{display:inline-block;margin-right:14px}
.dot{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:4px;vertical-align:-1px}
footer{margin-top:32px;color:#666;font-size:12px}.empty{color:#888}
`;

const TIMELINES_HEAD =
  '<h2>Sessions with stalls</h2><p class="sub-title">Each line is a session, its tool calls from left to right.</p>';
const INTERVENTIONS_HEAD =
  '<h2>Interventions and what the agent did next</h2><table>' +
  '<thead><tr><th>intervention</th><th>times</th><th>changed approach</th><th>kept repeating</th>' +
  '<th>no further call</th></tr></thead>';
const INSIDE_A_STALL =
  'Inside a stall: from the first call of the loop stallguard detected through every following call of the same ' +
  "agent that repeated one of the loop's calls with the same outcome, until the agent did something else, a new " +
  "prompt, or the session's end. A model response's tokens count for the first tool call it made.";

export function reportHtml(data: ReportData, s: Summary, generated = new Date()): string {
  const tokens = s.tokens;
  const judged = { right: 0, wrong: 0 };
  for (const x of data.sessions) for (const st of x.stalls) if (st.verdict) judged[st.verdict]++;
  const cards = [
    ['sessions', int(s.sessions)],
    ['tool calls', int(s.calls)],
    ['stalls', int(s.stalls)],
    ['calls inside stalls', `${int(s.inside.calls)} (${percent(s.inside.calls, s.calls)})`],
    ...(tokens && s.inside.spend && s.spend
      ? [['cost inside stalls', `${cost(s.inside.spend)} (${percent(s.inside.spend.usd, s.spend.usd)})`]]
      : []),
    ...(s.afterStop.calls > 0
      ? [
          [
            'calls after a stop',
            int(s.afterStop.calls) + (tokens && s.afterStop.spend ? `, ${cost(s.afterStop.spend)}` : ''),
          ],
        ]
      : []),
    ...(judged.right + judged.wrong > 0
      ? [['your verdicts', `${int(judged.right)} right, ${int(judged.wrong)} wrong`]]
      : []),
  ]
    .map(([k, v]) => `<div class="card"><b>${esc(v!)}</b>${esc(k!)}</div>`)
    .join('');
  const toolBars = bars(
    s.byTool.slice(0, 15).map((r) => ({
      label: r.key,
      value: r.stalls,
      text: `${plural(r.stalls, 'stall')}${tokens ? `, ${cost(r.spend)}` : ''}`,
      title:
        `${r.key}: ${plural(r.stalls, 'stall')} ` +
        `in ${plural(r.sessions.size, 'session')}, ${plural(r.calls, 'call')} ` +
        `inside${tokens ? `, ${cost(r.spend)}` : ''}`,
    })),
    'tools',
  );
  const stalled = data.sessions
    .filter((x) => x.stalls.length > 0)
    .sort((a, b) => b.inside.calls - a.inside.calls)
    .slice(0, 50);
  const dots = Object.entries(COLORS).map(([a, c]) => `<span><i class="dot" style="background:${c}"></i>${a}</span>`);
  const rings =
    judged.right + judged.wrong > 0
      ? '<span><i class="ring"></i>you marked it right</span><span><i class="ring wrong"></i>you marked it wrong</span>'
      : '';
  const legend =
    `<p class="legend">${dots.join('')}` +
    `<span><i class="dot" style="background:#c62828;opacity:.3"></i>inside a stall</span>${rings}</p>`;
  const interventions = s.interventions
    .map(
      (i) =>
        `<tr><td>${esc(i.action)}${i.mode ? ` (${esc(i.mode)})` : ''}</td><td>${int(i.total)}</td><td>` +
        `${int(i.changed)}</td><td>${int(i.repeated)}</td><td>${int(i.ended)}</td></tr>`,
    )
    .join('');
  const source =
    data.source === 'scan'
      ? `What stallguard would have done in ${plural(s.sessions, 'past session')}, from the agents' own history`
      : `What stallguard decided, from its ledger (${plural(s.sessions, 'session')})`;
  const when = generated.toISOString().slice(0, 16).replace('T', ' ');
  const costTitle = tokens ? 'Cost inside stalls, per session' : 'Calls inside stalls, per session';
  const timelines = stalled.map((x) => timeline(x, tokens)).join('') || '<p class="empty">None.</p>';
  const unpriced =
    s.spend && s.spend.unpriced > 0
      ? `; ${compact(s.spend.unpriced)} tokens of models without a price are not in them`
      : '';
  const prices = tokens ? ` Costs at list prices as of ${PRICES_AS_OF}${unpriced}.` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>stallguard report</title><style>${CSS}</style></head>
<body>
<header><h1>stallguard report</h1><p class="sub-title">${esc(source)}. Generated ${esc(when)} UTC.</p></header>
<section class="cards">${cards}</section>
<section id="tools"><h2>Stalls per tool</h2>${toolBars}</section>
<section id="cost"><h2>${costTitle}</h2>${stacked(data.sessions, tokens)}</section>
<section id="timelines">${TIMELINES_HEAD}${legend}${timelines}</section>
<section id="loops">${rowsTable('Top loops', 'loop', s.byLoop, tokens, 10)}</section>
<section id="signals">${rowsTable('Stalls per signal', 'signal', s.bySignal, tokens)}</section>
<section id="projects">${rowsTable('Stalls per project', 'project', s.byProject, tokens)}</section>
<section id="interventions">${INTERVENTIONS_HEAD}<tbody>${interventions}</tbody></table></section>
<footer><p>${INSIDE_A_STALL}${prices}</p></footer>
</body></html>
`;
}
