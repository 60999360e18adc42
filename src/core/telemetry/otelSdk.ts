/**
 * The OpenTelemetry SDK, loaded only when telemetry is on: every package comes through a dynamic
 * import, so the bundles carry the code but never evaluate it for a user who has not turned it on.
 * A tracer provider with a batch processor and an OTLP/HTTP exporter (protobuf or JSON), a meter
 * provider with a periodic OTLP reader and, for long-lived processes, a Prometheus endpoint.
 */
import type { Meter, Tracer } from '@opentelemetry/api';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { OtelApi } from './agentEventTelemetry';
import type { OtlpTarget, TelemetryConfig } from './telemetryConfig';

export interface OtelPipeline {
  tracer: Tracer;
  meter: Meter;
  api: OtelApi;
  /** Exports what is pending (spans, metrics) and stops the exporters and the Prometheus endpoint. */
  shutdown(): Promise<void>;
}

const SCOPE = 'patchpilot';

export async function startOtelPipeline(config: TelemetryConfig, version: string, warn: (message: string) => void): Promise<OtelPipeline> {
  const [api, { resourceFromAttributes }, { TracerProvider, BatchSpanProcessor }, { MeterProvider }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/sdk-metrics'),
  ]);
  const resource = resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': version });
  const spanProcessors = config.traces ? [new BatchSpanProcessor({ exporter: await traceExporter(config.traces) })] : [];
  const tracerProvider = new TracerProvider({ resource, spanProcessors });
  const readers: MetricReader[] = [];
  if (config.metrics) readers.push(await periodicReader(config.metrics));
  if (config.prometheus) readers.push(await prometheusReader(config.prometheus, warn));
  const meterProvider = new MeterProvider({ resource, readers });
  return {
    tracer: tracerProvider.getTracer(SCOPE, version),
    meter: meterProvider.getMeter(SCOPE, version),
    api: {
      setSpan: (parent, span) => api.trace.setSpan(parent, span),
      rootContext: api.ROOT_CONTEXT,
      spanKindClient: api.SpanKind.CLIENT,
      spanKindInternal: api.SpanKind.INTERNAL,
      statusError: api.SpanStatusCode.ERROR,
    },
    shutdown: async () => {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

async function traceExporter(target: OtlpTarget) {
  if (target.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url: target.url });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url: target.url });
}

async function periodicReader(target: OtlpTarget & { intervalMs: number }): Promise<MetricReader> {
  const { PeriodicExportingMetricReader } = await import('@opentelemetry/sdk-metrics');
  const exporter =
    target.protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter({ url: target.url })
      : new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter({ url: target.url });
  return new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: target.intervalMs, exportTimeoutMillis: Math.min(30_000, target.intervalMs) });
}

async function prometheusReader(at: { host: string; port: number }, warn: (message: string) => void): Promise<MetricReader> {
  const { PrometheusExporter } = await import('@opentelemetry/exporter-prometheus');
  return new PrometheusExporter({ host: at.host, port: at.port }, (err) => {
    if (err) warn(`telemetry: the Prometheus endpoint could not listen on ${at.host}:${at.port}: ${err.message}`);
  });
}
