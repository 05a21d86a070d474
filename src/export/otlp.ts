import { hostname } from 'node:os';
import { ValueType } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { LoggerProvider, type LogRecordProcessor, type SdkLogRecord } from '@opentelemetry/sdk-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { type FleetStall, STEP_BUCKETS } from './fleet.ts';

// Ships detections to an OpenTelemetry collector over OTLP/HTTP with the official exporters: metrics
// (delta temporality: each export carries what is new since the last) and one log record per
// detection, timestamped when it was made. Loaded only by `stallguard export`: the SDK costs about
// 250 ms to load, far too much for the hook.

declare const __VERSION__: string;

/** Collects once, when asked: an export is one short process, not a periodic reader. */
class OnceReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** Keeps the log records, so they are sent with the exporter's own result checked. */
class Keep implements LogRecordProcessor {
  readonly records: SdkLogRecord[] = [];
  onEmit(record: SdkLogRecord): void {
    this.records.push(record);
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

interface Exporter<T> {
  export(items: T, done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

function send<T>(exporter: Exporter<T>, items: T, what: string, url: string): Promise<void> {
  return new Promise((resolve, reject) =>
    exporter.export(items, (r) =>
      r.code === 0 ? resolve() : reject(new Error(`${what} to ${url}: ${r.error?.message ?? 'export failed'}`)),
    ),
  );
}

/** The endpoint's signal paths, as OTEL_EXPORTER_OTLP_ENDPOINT defines them: <base>/v1/metrics, <base>/v1/logs. */
export function signalUrl(base: string, signal: 'metrics' | 'logs'): string {
  return `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

export async function exportOtlp(endpoint: string, stalls: FleetStall[], timeoutMillis = 10_000): Promise<void> {
  const resource = resourceFromAttributes({
    'service.name': 'stallguard',
    'service.version': typeof __VERSION__ === 'string' ? __VERSION__ : 'dev',
    'host.name': hostname(),
  });

  const reader = new OnceReader();
  const meters = new MeterProvider({ resource, readers: [reader] });
  const meter = meters.getMeter('stallguard');
  const detections = meter.createCounter('stallguard.detections', {
    description: 'Interventions stallguard decided (in shadow mode: would have made).',
    unit: '{detection}',
    valueType: ValueType.INT,
  });
  const steps = meter.createHistogram('stallguard.detection.steps', {
    description: 'Calls in the loop when stallguard detected it.',
    unit: '{call}',
    valueType: ValueType.INT,
    advice: { explicitBucketBoundaries: STEP_BUCKETS },
  });
  const calls = meter.createCounter('stallguard.stall.calls', {
    description: 'Tool calls inside stalls.',
    unit: '{call}',
    valueType: ValueType.INT,
  });
  const tokens = meter.createCounter('stallguard.stall.tokens', {
    description: "Model tokens spent inside stalls, from the agents' transcripts.",
    unit: '{token}',
    valueType: ValueType.INT,
  });
  for (const s of stalls) {
    const attrs = {
      'stallguard.tool': s.tool,
      'stallguard.signal': s.signal,
      'stallguard.action': s.action,
      'stallguard.mode': s.mode ?? '',
      'stallguard.agent': s.agent,
    };
    detections.add(1, attrs);
    if (s.span !== undefined) steps.record(s.span, { 'stallguard.action': s.action, 'stallguard.agent': s.agent });
    calls.add(s.calls, { 'stallguard.tool': s.tool, 'stallguard.agent': s.agent });
    if (s.tokens)
      for (const [type, n] of Object.entries(s.tokens))
        if (n > 0)
          tokens.add(n, { 'stallguard.tool': s.tool, 'stallguard.agent': s.agent, 'stallguard.token.type': type });
  }
  const { resourceMetrics } = await reader.collect();

  const kept = new Keep();
  const logs = new LoggerProvider({ resource, processors: [kept] });
  const logger = logs.getLogger('stallguard');
  for (const s of stalls)
    logger.emit({
      ...(s.time ? { timestamp: s.time } : {}),
      severityNumber: s.action === 'stop' ? SeverityNumber.WARN : SeverityNumber.INFO,
      severityText: s.action === 'stop' ? 'WARN' : 'INFO',
      body: `stallguard ${s.action}: ${s.loop}`,
      attributes: {
        'stallguard.session': s.session,
        'stallguard.agent': s.agent,
        ...(s.project ? { 'stallguard.project': s.project } : {}),
        'stallguard.actor': s.actor,
        'stallguard.action': s.action,
        'stallguard.mode': s.mode ?? '',
        'stallguard.step': s.step,
        'stallguard.signals': s.signals,
        'stallguard.tools': s.tools,
        'stallguard.loop': s.loop,
        ...(s.span !== undefined ? { 'stallguard.steps_to_detection': s.span } : {}),
        'stallguard.stall.calls': s.calls,
        ...(s.tokens
          ? { 'stallguard.stall.tokens': s.tokens.input + s.tokens.output + s.tokens.cacheWrite + s.tokens.cacheRead }
          : {}),
        ...(typeof s.cost === 'number' ? { 'stallguard.stall.cost_usd': s.cost } : {}),
      },
    });

  const metricUrl = signalUrl(endpoint, 'metrics');
  const logUrl = signalUrl(endpoint, 'logs');
  const metricExporter = new OTLPMetricExporter({ url: metricUrl, timeoutMillis });
  const logExporter = new OTLPLogExporter({ url: logUrl, timeoutMillis });
  try {
    await send(metricExporter as unknown as Exporter<typeof resourceMetrics>, resourceMetrics, 'metrics', metricUrl);
    await send(logExporter as unknown as Exporter<SdkLogRecord[]>, kept.records, 'logs', logUrl);
  } finally {
    await Promise.allSettled([metricExporter.shutdown(), logExporter.shutdown(), meters.shutdown(), logs.shutdown()]);
  }
}
