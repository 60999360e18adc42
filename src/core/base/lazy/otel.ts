// The dist/lazy/otel.js chunk: the OpenTelemetry API, SDK and exporters, loaded only when telemetry is on (core/telemetry/otelSdk.ts). Load it with lazyChunk.otel().
export * as api from '@opentelemetry/api';
export { resourceFromAttributes } from '@opentelemetry/resources';
export { TracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
export { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
export { OTLPTraceExporter as OTLPTraceExporterJson } from '@opentelemetry/exporter-trace-otlp-http';
export { OTLPTraceExporter as OTLPTraceExporterProto } from '@opentelemetry/exporter-trace-otlp-proto';
export { OTLPMetricExporter as OTLPMetricExporterJson } from '@opentelemetry/exporter-metrics-otlp-http';
export { OTLPMetricExporter as OTLPMetricExporterProto } from '@opentelemetry/exporter-metrics-otlp-proto';
export { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
