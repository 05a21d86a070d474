import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { hookSession, grep, npmTest, read } from './support/ledger.ts';
import { claudeTranscript, tempHome, write } from './support/histories.ts';
import { SEED_CWD } from './support/histories.ts';
import { missing } from './support/needs.ts';
import { freePort } from './support/free-port.ts';

// The exports against real receivers on 127.0.0.1: Debian's prometheus-node-exporter reading the
// textfile, and an OTLP/HTTP receiver here that decodes what the official OpenTelemetry exporter sends.

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');
const NODE_EXPORTER = process.env.STALLGUARD_NODE_EXPORTER ?? '/usr/bin/prometheus-node-exporter';

/** Runs `stallguard export` without blocking this process, whose event loop serves the receiver. */
function exportCmd(
  args: string[],
  home: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [CLI, 'export', ...args], {
    env: { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: join(home, '.stallguard'), ...env },
    cwd: SEED_CWD,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const timer = setTimeout(() => child.kill(), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    }),
  );
}

/** A ledger of two sessions (one enforced, one in shadow), and the first one's Claude Code transcript. */
function fleetHome(): string {
  const home = tempHome();
  const ledger = join(home, '.stallguard');
  hookSession(ledger, 'sess-1', [read('/home/dev/proj/test/invoice.test.js'), ...Array.from({ length: 6 }, npmTest)], {
    mode: 'enforce',
  });
  hookSession(
    ledger,
    'sess-2',
    [...Array.from({ length: 5 }, () => grep('handleInvoice')), read('/home/dev/web/src/x.ts')],
    { cwd: '/home/dev/web' },
  );
  write(join(home, '.claude', 'projects', '-home-dev-proj', 'sess-1.jsonl'), claudeTranscript('sess-1'));
  return home;
}

const skipNodeExporter = missing(
  NODE_EXPORTER,
  'apt-get install prometheus-node-exporter (npm test does when it can: as root, or through sudo without a password), or STALLGUARD_NODE_EXPORTER=<a node_exporter>',
);

describe('export --prometheus, read by node_exporter', { skip: skipNodeExporter }, () => {
  let exporter: ChildProcess | undefined;
  after(() => {
    exporter?.kill();
  });

  it('writes a textfile node_exporter serves without a scrape error', async () => {
    assert.ok(existsSync(NODE_EXPORTER), `${NODE_EXPORTER} is missing: apt-get install prometheus-node-exporter`);
    const home = fleetHome();
    const dir = join(home, 'textfile');
    mkdirSync(dir);
    const r = await exportCmd(['--prometheus', join(dir, 'stallguard.prom')], home);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `Wrote ${join(dir, 'stallguard.prom')}: 2 detections in 2 sessions.\n`);
    const port = freePort();
    exporter = spawn(
      NODE_EXPORTER,
      [
        `--web.listen-address=127.0.0.1:${port}`,
        '--collector.disable-defaults',
        '--collector.textfile',
        `--collector.textfile.directory=${dir}`,
      ],
      { stdio: 'ignore' },
    );
    let body = '';
    for (let i = 0; i < 100 && !body; i++) {
      body = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (res) => res.text(),
        () => new Promise<string>((ok) => setTimeout(() => ok(''), 100)),
      );
    }
    assert.ok(body, 'node_exporter answered');
    assert.match(body, /^node_textfile_scrape_error 0$/m);
    assert.match(body, /^stallguard_detections_total\{action="nudge",mode="enforce",signal="REPEAT",tool="Bash"\} 1$/m);
    assert.match(body, /^stallguard_detections_total\{action="nudge",mode="shadow",signal="REPEAT",tool="Grep"\} 1$/m);
    assert.match(body, /^stallguard_stall_calls_total\{tool="Bash"\} 6$/m);
    assert.match(body, /^stallguard_stall_calls_total\{tool="Grep"\} 5$/m);
    assert.match(body, /^stallguard_sessions_total 2$/m);
    assert.match(body, /^stallguard_calls_total 13$/m);
    // tokens from sess-1's transcript: six responses of 10 input and 100 output tokens inside its stall
    assert.match(body, /^stallguard_stall_tokens_total\{type="output"\} 600$/m);
    assert.match(body, /^stallguard_detection_steps_bucket\{le="5"\} 2$/m);
    assert.match(body, /^stallguard_detection_steps_count 2$/m);
  });
});

interface Received {
  path: string;
  contentType: string;
  body: Record<string, unknown>;
}

describe('export --otlp, to a receiver that decodes OTLP/HTTP', () => {
  let server: Server;
  let url: string;
  const received: Received[] = [];

  before(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          contentType: req.headers['content-type'] ?? '',
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => server.close());

  type Attr = { key: string; value: Record<string, unknown> };
  const attrs = (list: Attr[]): Record<string, unknown> =>
    Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));

  it('sends the detections as metrics and log records, then only what is new', async () => {
    const home = fleetHome();
    const r = await exportCmd(['--otlp', url], home);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `Sent 2 detections to ${url}.\n`);
    assert.deepEqual(
      received.map((x) => [x.path, x.contentType]),
      [
        ['/v1/metrics', 'application/json'],
        ['/v1/logs', 'application/json'],
      ],
    );
    const rm = (
      received[0]!.body.resourceMetrics as {
        resource: { attributes: Attr[] };
        scopeMetrics: { metrics: Record<string, unknown>[] }[];
      }[]
    )[0]!;
    assert.equal(attrs(rm.resource.attributes)['service.name'], 'stallguard');
    const metrics = Object.fromEntries(rm.scopeMetrics[0]!.metrics.map((m) => [m.name as string, m]));
    assert.deepEqual(Object.keys(metrics).sort(), [
      'stallguard.detection.steps',
      'stallguard.detections',
      'stallguard.stall.calls',
      'stallguard.stall.tokens',
    ]);
    const detections = metrics['stallguard.detections'] as {
      sum: {
        aggregationTemporality: number;
        isMonotonic: boolean;
        dataPoints: { asInt?: string | number; attributes: Attr[] }[];
      };
    };
    assert.equal(detections.sum.aggregationTemporality, 1, 'delta');
    const points: Record<string, unknown>[] = detections.sum.dataPoints.map((p) => ({
      ...attrs(p.attributes),
      n: Number(p.asInt),
    }));
    assert.deepEqual(
      points.sort((a, b) => String(a['stallguard.tool']).localeCompare(String(b['stallguard.tool']))),
      [
        {
          'stallguard.tool': 'Bash',
          'stallguard.signal': 'REPEAT',
          'stallguard.action': 'nudge',
          'stallguard.mode': 'enforce',
          'stallguard.agent': 'claude',
          n: 1,
        },
        {
          'stallguard.tool': 'Grep',
          'stallguard.signal': 'REPEAT',
          'stallguard.action': 'nudge',
          'stallguard.mode': 'shadow',
          'stallguard.agent': 'claude',
          n: 1,
        },
      ],
    );
    const steps = metrics['stallguard.detection.steps'] as {
      histogram: { dataPoints: { count: string | number; sum: number }[] };
    };
    assert.deepEqual(
      steps.histogram.dataPoints.map((p) => [Number(p.count), p.sum]),
      [[2, 10]],
    );
    const tokens = metrics['stallguard.stall.tokens'] as {
      sum: { dataPoints: { asInt?: string | number; attributes: Attr[] }[] };
    };
    const byType = Object.fromEntries(
      tokens.sum.dataPoints.map((p) => [attrs(p.attributes)['stallguard.token.type'], Number(p.asInt)]),
    );
    assert.deepEqual(byType, { input: 60, output: 600, cacheWrite: 6000, cacheRead: 120000 });

    const records = (
      received[1]!.body.resourceLogs as {
        scopeLogs: {
          logRecords: {
            body: { stringValue: string };
            attributes: Attr[];
            timeUnixNano: string;
            severityText: string;
          }[];
        }[];
      }[]
    )[0]!.scopeLogs[0]!.logRecords;
    assert.deepEqual(records.map((l) => l.body.stringValue).sort(), [
      'stallguard nudge: `Bash npm test` x5',
      'stallguard nudge: `Grep "handleInvoice" in src` x5',
    ]);
    const bash = attrs(records.find((l) => l.body.stringValue.includes('Bash'))!.attributes);
    assert.equal(bash['stallguard.session'], 'sess-1');
    assert.equal(Number(bash['stallguard.stall.calls']), 6);
    assert.ok(Number(records[0]!.timeUnixNano) > 0, 'stamped with the time of the decision');

    received.length = 0;
    const again = await exportCmd([], home, { OTEL_EXPORTER_OTLP_ENDPOINT: url });
    assert.equal(again.code, 0, again.err);
    assert.equal(again.out, `Nothing new for ${url} since the last export.\n`);
    assert.equal(received.length, 0);

    // a new stall in a session already exported: only it goes out
    hookSession(
      join(home, '.stallguard'),
      'sess-1',
      Array.from({ length: 5 }, () => grep('renderTotal')),
      { mode: 'enforce', prompt: 'now the totals' },
    );
    const more = await exportCmd(['--otlp', url], home);
    assert.equal(more.out, `Sent 1 detection to ${url}.\n`);
    const logs = (
      received[1]!.body.resourceLogs as { scopeLogs: { logRecords: { body: { stringValue: string } }[] }[] }[]
    )[0]!.scopeLogs[0]!.logRecords;
    assert.deepEqual(
      logs.map((l) => l.body.stringValue),
      ['stallguard nudge: `Grep "renderTotal" in /home/dev/web/src` x5'],
    );
  });

  it("says so in one line when nothing listens at the collector's port, at once, and sends it all next time", async () => {
    const home = fleetHome();
    const dead = `http://127.0.0.1:${freePort()}`;
    const r = await exportCmd(['--otlp', dead], home);
    assert.equal(r.code, 1);
    // refused before the exporters are started: their retries on a refused connection take about 9 s
    assert.equal(
      r.err,
      `stallguard export: cannot reach ${dead}: connection refused (nothing listens there); nothing was marked as sent, the next export tries again\n`,
    );
    received.length = 0;
    const ok = await exportCmd(['--otlp', url], home);
    assert.equal(ok.code, 0, ok.err);
    assert.equal(received.length, 2);
  });

  it('asks for a destination, and refuses what is not a URL', async () => {
    const home = tempHome();
    assert.equal((await exportCmd([], home)).code, 2);
    const r = await exportCmd(['--otlp', 'collector:4318'], home);
    assert.equal(r.code, 2);
    assert.equal(
      r.err.trim(),
      'stallguard export: --otlp needs an http(s) URL such as http://localhost:4318 (got "collector:4318")',
    );
  });
});
