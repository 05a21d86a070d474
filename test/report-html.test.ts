import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { claudeTranscript, codexRollout, geminiChat, tempHome, write } from './support/histories.ts';
import { SEED_CWD } from './support/histories.ts';
import { missing } from './support/needs.ts';

// The report page in a real headless Chromium (Debian's package): it renders, its charts have content,
// and it makes no network request.

const CHROMIUM = process.env.STALLGUARD_CHROMIUM ?? '/usr/bin/chromium';
const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const skip = missing(
  CHROMIUM,
  'apt-get install chromium (npm test does when it can: as root, or through sudo without a password), or STALLGUARD_CHROMIUM=<a chromium>',
);

describe('the report page in headless Chromium', { skip }, () => {
  let browser: Browser;
  let server: Server;
  let port: number;
  const hits: string[] = [];
  let page: string;

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium`);
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    port = (server.address() as AddressInfo).port;
    const history = tempHome();
    write(join(history, 'claude', 'p', 's1.jsonl'), claudeTranscript('s1', { repeats: 11 }));
    write(join(history, 'codex', 'rollout-a.jsonl'), codexRollout('a'));
    write(
      join(history, 'gemini', 'chats', 'session-2026-11-29T20-29-333faa51.jsonl'),
      geminiChat('333faa51-b528-40d3-b0b1-68d9db6bbb50'),
    );
    page = join(tempHome(), 'report.html');
    const r = spawnSync(process.execPath, [CLI, 'report', '--scan', history, '--html', page], {
      env: { PATH: process.env.PATH, HOME: history },
      encoding: 'utf8',
      cwd: SEED_CWD,
    });
    assert.equal(r.status, 0, r.stderr);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    });
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  /** Opens a file and returns every request the page made besides the file itself. */
  async function open(file: string) {
    const tab = await browser.newPage();
    const requests: string[] = [];
    tab.on('request', (r) => {
      if (r.url() !== `file://${file}`) requests.push(r.url());
    });
    const errors: string[] = [];
    tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await tab.goto(`file://${file}`, { waitUntil: 'load' });
    return { tab, requests, errors };
  }

  it('catches a request when a page makes one (the check below can fail)', async () => {
    const control = join(tempHome(), 'control.html');
    writeFileSync(control, `<!doctype html><img src="http://127.0.0.1:${port}/control.png">`);
    const { tab, requests } = await open(control);
    await tab.waitForLoadState('networkidle');
    assert.deepEqual(requests, [`http://127.0.0.1:${port}/control.png`]);
    assert.deepEqual(hits, ['/control.png']);
    await tab.close();
    hits.length = 0;
  });

  it('renders, with content in every chart, and requests nothing', async () => {
    const { tab, requests, errors } = await open(page);
    await tab.waitForLoadState('networkidle');
    assert.deepEqual(requests, []);
    assert.deepEqual(hits, []);
    assert.deepEqual(errors, []);
    assert.equal(await tab.title(), 'stallguard report');
    const chart = (selector: string) =>
      tab.$$eval(selector, (els) =>
        els
          .map((e) => (e as unknown as { getBBox(): { width: number; height: number } }).getBBox())
          .map((b) => ({ w: Math.round(b.width), h: Math.round(b.height) })),
      );
    const stretches = await chart('svg.timeline rect.stretch');
    const markers = await tab.$$eval('svg.timeline circle.marker', (els) => els.map((e) => e.getAttribute('class')));
    const tools = await chart('svg.bars.tools rect');
    const cost = await chart('svg.bars.cost rect.inside');
    assert.equal((await tab.$$('.timeline-row')).length, 3, 'one timeline per session with stalls');
    assert.ok(stretches.length >= 3 && stretches.every((b) => b.w > 0 && b.h > 0), JSON.stringify(stretches));
    assert.deepEqual(markers.sort(), ['marker nudge', 'marker nudge', 'marker nudge', 'marker stop']);
    assert.equal(tools.length, 2, 'Bash and run_shell_command');
    assert.ok(tools.every((b) => b.w > 0));
    assert.equal(cost.length, 3);
    assert.ok(cost.every((b) => b.w > 0));
    const cards = await tab.$eval('.cards', (e) => (e as unknown as { innerText: string }).innerText);
    assert.match(cards, /cost inside stalls/);
    assert.match(cards, /\$\d+\.\d\d/);
    await tab.close();
  });
});
