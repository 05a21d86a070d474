import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { fleet } from '../export/fleet.ts';
import { loadCursor, saveCursor } from '../export/cursor.ts';
import { prometheusText } from '../export/prometheus.ts';
import { reach } from '../export/reach.ts';
import { Transcripts } from '../export/transcripts.ts';
import { readLedgerSession } from '../report/from-ledger.ts';
import { sessionFiles } from '../store/read-ledger.ts';
import { plural } from '../report/format.ts';
import { parseOptions } from './_args.ts';
import { UsageError } from './_errors.ts';
import { errnoText } from '../core/errno.ts';

export const summary = 'ship detections to OpenTelemetry or a Prometheus textfile';

const HELP = `usage: stallguard export [--otlp URL] [--prometheus FILE]

Ships the ledger's detections to a team's monitoring: by tool, signal and action, the steps to
detection, and the calls and tokens inside stalls (tokens where the agent's transcript of the session is
on this machine).

  --otlp URL          an OpenTelemetry collector's OTLP/HTTP endpoint (http://host:4318; default
                      OTEL_EXPORTER_OTLP_ENDPOINT): metrics and one log record per detection, only
                      what is new since the last export to that endpoint
  --prometheus FILE   node_exporter's textfile collector format, the totals over the whole ledger
                      (e.g. /var/lib/prometheus/node-exporter/stallguard.prom); written atomically`;

/** The textfile collector may read at any moment: write beside the file, then rename over it. */
function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions('export', argv, {
    otlp: { type: 'string' },
    prometheus: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const endpoint =
    values.otlp ??
    (values.prometheus === undefined ? process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined : undefined);
  if (endpoint === undefined && values.prometheus === undefined)
    throw new UsageError(
      `export: name a destination: --otlp URL (or OTEL_EXPORTER_OTLP_ENDPOINT) or --prometheus FILE\n${HELP}`,
    );
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+/.test(endpoint))
    throw new UsageError(`export: --otlp needs an http(s) URL such as http://localhost:4318 (got "${endpoint}")`);
  if (values.prometheus === '') throw new UsageError('export: --prometheus needs a file name');

  const home = stallguardHome();
  const ledger = sessionFiles(home).map(readLedgerSession);
  const transcripts = new Transcripts(loadConfig({ cwd: process.cwd() }).config);
  const shipped = fleet(ledger, (session) => transcripts.stalls(session));

  if (values.prometheus !== undefined) {
    try {
      writeAtomically(values.prometheus, prometheusText(shipped));
    } catch (e) {
      throw new UsageError(`export: cannot write ${values.prometheus}: ${errnoText(e)}`);
    }
    console.log(
      `Wrote ${values.prometheus}: ${plural(shipped.stalls.length, 'detection')} ` +
        `in ${plural(shipped.sessions, 'session')}.`,
    );
  }

  if (endpoint !== undefined) {
    const cursor = loadCursor(home, endpoint);
    // a session's detections come in ledger order: the first `sent` of them went out before
    const seen = new Map<string, number>();
    const fresh = shipped.stalls.filter((s) => {
      const n = seen.get(s.session) ?? 0;
      seen.set(s.session, n + 1);
      return n >= (cursor.sent[s.session] ?? 0);
    });
    if (fresh.length === 0) {
      console.log(`Nothing new for ${endpoint} since the last export.`);
      return 0;
    }
    try {
      await reach(endpoint);
      const { exportOtlp } = await import('../export/otlp.ts');
      await exportOtlp(endpoint, fresh);
    } catch (e) {
      console.error(
        `stallguard export: ${(e as Error).message}; nothing was marked as sent, the next export tries again`,
      );
      return 1;
    }
    for (const s of fresh) cursor.sent[s.session] = (cursor.sent[s.session] ?? 0) + 1;
    saveCursor(cursor, endpoint);
    console.log(`Sent ${plural(fresh.length, 'detection')} to ${endpoint}.`);
  }
  return 0;
}
