import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../../src/core/config';
import { TelemetryConfigError, resolveTelemetryConfig } from '../../../src/core/telemetry';

const off = DEFAULT_SETTINGS.telemetry;
const on = { ...off, enabled: true };

describe('telemetry configuration: settings and the OTEL_* variables', () => {
  test('off by default; the setting or PATCHPILOT_TELEMETRY turns it on; OTEL_SDK_DISABLED=true wins', () => {
    assert.equal(resolveTelemetryConfig(off, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), undefined);
    assert.ok(resolveTelemetryConfig(on, {}));
    assert.ok(resolveTelemetryConfig(off, { PATCHPILOT_TELEMETRY: '1' }));
    assert.equal(resolveTelemetryConfig(on, { PATCHPILOT_TELEMETRY: '0' }), undefined);
    assert.equal(resolveTelemetryConfig(on, { OTEL_SDK_DISABLED: 'true' }), undefined);
  });

  test('defaults: http/protobuf to localhost:4318, service patchpilot, no content, no Prometheus', () => {
    assert.deepEqual(resolveTelemetryConfig(on, {}), {
      serviceName: 'patchpilot',
      includeContent: false,
      traces: { url: 'http://localhost:4318/v1/traces', protocol: 'http/protobuf' },
      metrics: { url: 'http://localhost:4318/v1/metrics', protocol: 'http/protobuf', intervalMs: 60_000 },
    });
  });

  test('the variables win over the settings; per-signal endpoints are used as they are', () => {
    const settings = { ...on, otlpEndpoint: 'http://from-settings:4318', otlpProtocol: 'http/json', includeContent: true };
    const c = resolveTelemetryConfig(settings, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example/otlp/',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/ingest',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      OTEL_SERVICE_NAME: 'ci-agent',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
    })!;
    assert.equal(c.serviceName, 'ci-agent');
    assert.equal(c.includeContent, true);
    assert.deepEqual(c.traces, { url: 'https://collector.example/otlp/v1/traces', protocol: 'http/protobuf' });
    assert.deepEqual(c.metrics, { url: 'https://metrics.example/ingest', protocol: 'http/json', intervalMs: 5000 });
    assert.equal(resolveTelemetryConfig(settings, {})!.traces!.url, 'http://from-settings:4318/v1/traces');
  });

  test('Prometheus from the setting (host:port) or OTEL_METRICS_EXPORTER=prometheus; none turns a signal off', () => {
    assert.deepEqual(resolveTelemetryConfig({ ...on, prometheusEndpoint: '127.0.0.1:9464' }, {})!.prometheus, { host: '127.0.0.1', port: 9464 });
    assert.deepEqual(resolveTelemetryConfig({ ...on, prometheusEndpoint: '[::1]:9000' }, {})!.prometheus, { host: '::1', port: 9000 });
    const c = resolveTelemetryConfig(on, { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: '9500', OTEL_TRACES_EXPORTER: 'none' })!;
    assert.deepEqual([c.traces, c.metrics, c.prometheus], [undefined, undefined, { host: 'localhost', port: 9500 }]);
  });

  test('bad values are clear errors', () => {
    const cases: [Record<string, string>, Partial<typeof on>, RegExp][] = [
      [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, {}, /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; use http\/protobuf or http\/json/],
      [{}, { otlpProtocol: 'thrift' }, /patchpilot\.telemetry\.otlpProtocol: "thrift" is not supported/],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, {}, /the OTLP endpoint: "collector:4318\/v1\/traces" is not an http\(s\) URL/],
      [{ OTEL_TRACES_EXPORTER: 'zipkin' }, {}, /OTEL_TRACES_EXPORTER: "zipkin" is not supported; use otlp, none/],
      [{}, { prometheusEndpoint: '9464' }, /patchpilot\.telemetry\.prometheusEndpoint: "9464" is not host:port/],
      [{ OTEL_METRIC_EXPORT_INTERVAL: 'soon' }, {}, /OTEL_METRIC_EXPORT_INTERVAL: "soon" is not a positive number/],
    ];
    for (const [env, settings, message] of cases)
      assert.throws(
        () => resolveTelemetryConfig({ ...on, ...settings }, env),
        (err: Error) => err instanceof TelemetryConfigError && message.test(err.message),
      );
  });
});
