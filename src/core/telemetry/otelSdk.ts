/**
 * The OpenTelemetry SDK, loaded only when telemetry is on: the packages are a lazy chunk of their
 * own (dist/lazy/otel.js), so the bundles neither carry nor evaluate them for a user who has not turned it on.
 * A tracer provider with a batch processor and an OTLP/HTTP exporter (protobuf or JSON), a meter
 * provider with a periodic OTLP reader and, for long-lived processes, a Prometheus endpoint.
 */
import type { Meter, Tracer } from '@opentelemetry/api';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import { lazyChunk } from '../base/lazyChunks';
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
  const otel = lazyChunk.otel();
  const { api } = otel;
  const resource = otel.resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': version });
  const spanProcessors = config.traces ? [new otel.BatchSpanProcessor({ exporter: traceExporter(otel, config.traces) })] : [];
  const tracerProvider = new otel.TracerProvider({ resource, spanProcessors });
  const readers: MetricReader[] = [];
  if (config.metrics) readers.push(periodicReader(otel, config.metrics));
  if (config.prometheus) readers.push(prometheusReader(otel, config.prometheus, warn));
  const meterProvider = new otel.MeterProvider({ resource, readers });
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

type Otel = ReturnType<typeof lazyChunk.otel>;

function traceExporter(otel: Otel, target: OtlpTarget) {
  return target.protocol === 'http/json' ? new otel.OTLPTraceExporterJson({ url: target.url }) : new otel.OTLPTraceExporterProto({ url: target.url });
}

function periodicReader(otel: Otel, target: OtlpTarget & { intervalMs: number }): MetricReader {
  const exporter =
    target.protocol === 'http/json' ? new otel.OTLPMetricExporterJson({ url: target.url }) : new otel.OTLPMetricExporterProto({ url: target.url });
  return new otel.PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: target.intervalMs,
    exportTimeoutMillis: Math.min(30_000, target.intervalMs),
  });
}

function prometheusReader(otel: Otel, at: { host: string; port: number }, warn: (message: string) => void): MetricReader {
  return new otel.PrometheusExporter({ host: at.host, port: at.port }, (err) => {
    if (err) warn(`telemetry: the Prometheus endpoint could not listen on ${at.host}:${at.port}: ${err.message}`);
  });
}
