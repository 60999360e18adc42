/**
 * Whether telemetry is on and where it goes, from the user's settings (`patchpilot.telemetry.*`) and
 * the standard OpenTelemetry environment variables, which win. Off unless asked for: the setting, or
 * PATCHPILOT_TELEMETRY=1 (the CLI's switch); OTEL_SDK_DISABLED=true turns it off whatever else says.
 */
import type { PatchPilotSettings } from '../config/settings';

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export const OTLP_PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];

export interface OtlpTarget {
  /** The full URL of the signal's path (`.../v1/traces`, `.../v1/metrics`). */
  url: string;
  protocol: OtlpProtocol;
}

export interface TelemetryConfig {
  serviceName: string;
  /** Where spans go; undefined: no traces (OTEL_TRACES_EXPORTER=none). */
  traces?: OtlpTarget;
  /** Where metrics are pushed; undefined: not pushed. */
  metrics?: OtlpTarget & { intervalMs: number };
  /** A `/metrics` endpoint a Prometheus server scrapes; undefined: none. */
  prometheus?: { host: string; port: number };
  /** Prompts, replies, tool arguments and results as span attributes (patchpilot.telemetry.includeContent). */
  includeContent: boolean;
}

export class TelemetryConfigError extends Error {}

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const DEFAULT_METRIC_INTERVAL_MS = 60_000;
const TRUE = /^(1|true|on|yes)$/i;

type Env = Readonly<Record<string, string | undefined>>;

/** The configuration in force, or undefined when telemetry is off. Throws TelemetryConfigError on a bad value. */
export function resolveTelemetryConfig(settings: PatchPilotSettings['telemetry'], env: Env): TelemetryConfig | undefined {
  const get = (name: string) => env[name]?.trim() || undefined;
  if (TRUE.test(get('OTEL_SDK_DISABLED') ?? '')) return undefined;
  const switched = get('PATCHPILOT_TELEMETRY');
  if (!(switched !== undefined ? TRUE.test(switched) : settings.enabled)) return undefined;

  const protocol = (signal: string): OtlpProtocol => {
    const [name, value] = pick(
      get,
      [`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
      settings.otlpProtocol,
      'patchpilot.telemetry.otlpProtocol',
    );
    const chosen = value ?? 'http/protobuf';
    if (!(OTLP_PROTOCOLS as readonly string[]).includes(chosen))
      throw new TelemetryConfigError(`${name}: "${chosen}" is not supported; use http/protobuf or http/json (grpc is not)`);
    return chosen as OtlpProtocol;
  };
  const target = (signal: 'TRACES' | 'METRICS'): OtlpTarget => {
    const own = get(`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`);
    const base = get('OTEL_EXPORTER_OTLP_ENDPOINT') ?? settings.otlpEndpoint ?? DEFAULT_ENDPOINT;
    const url = own ?? `${base.replace(/\/+$/, '')}/v1/${signal.toLowerCase()}`;
    checkUrl(url, own ? `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT` : 'the OTLP endpoint');
    return { url, protocol: protocol(signal) };
  };

  const traceExporters = exporters(get('OTEL_TRACES_EXPORTER'), 'OTEL_TRACES_EXPORTER', ['otlp']);
  const metricExporters = exporters(get('OTEL_METRICS_EXPORTER'), 'OTEL_METRICS_EXPORTER', ['otlp', 'prometheus']);
  const config: TelemetryConfig = { serviceName: get('OTEL_SERVICE_NAME') ?? 'patchpilot', includeContent: settings.includeContent };
  if (traceExporters.has('otlp')) config.traces = target('TRACES');
  if (metricExporters.has('otlp')) config.metrics = { ...target('METRICS'), intervalMs: interval(get('OTEL_METRIC_EXPORT_INTERVAL')) };
  const prometheus = prometheusEndpoint(get, settings.prometheusEndpoint, metricExporters.has('prometheus'));
  if (prometheus) config.prometheus = prometheus;
  return config;
}

/** OTEL_*_EXPORTER: a comma list; unset means otlp; `none` means nothing. */
function exporters(value: string | undefined, name: string, known: readonly string[]): Set<string> {
  const names = (value ?? 'otlp')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const n of names)
    if (n !== 'none' && !known.includes(n)) throw new TelemetryConfigError(`${name}: "${n}" is not supported; use ${[...known, 'none'].join(', ')}`);
  return new Set(names.filter((n) => n !== 'none'));
}

function pick(get: (n: string) => string | undefined, names: string[], setting: string | undefined, settingName: string): [string, string | undefined] {
  for (const name of names) {
    const value = get(name);
    if (value !== undefined) return [name, value];
  }
  return [settingName, setting?.trim() || undefined];
}

function checkUrl(url: string, origin: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TelemetryConfigError(`${origin}: "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TelemetryConfigError(`${origin}: "${url}" is not an http(s) URL`);
}

function interval(value: string | undefined): number {
  if (value === undefined) return DEFAULT_METRIC_INTERVAL_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0) throw new TelemetryConfigError(`OTEL_METRIC_EXPORT_INTERVAL: "${value}" is not a positive number of milliseconds`);
  return ms;
}

/** The setting's `host:port`, else OTEL_EXPORTER_PROMETHEUS_HOST/PORT when OTEL_METRICS_EXPORTER names prometheus. */
function prometheusEndpoint(get: (n: string) => string | undefined, setting: string | undefined, fromEnv: boolean): { host: string; port: number } | undefined {
  if (fromEnv)
    return {
      host: get('OTEL_EXPORTER_PROMETHEUS_HOST') ?? 'localhost',
      port: port(get('OTEL_EXPORTER_PROMETHEUS_PORT') ?? '9464', 'OTEL_EXPORTER_PROMETHEUS_PORT'),
    };
  const value = setting?.trim();
  if (!value) return undefined;
  const m = /^(.+):(\d+)$/.exec(value);
  if (!m) throw new TelemetryConfigError(`patchpilot.telemetry.prometheusEndpoint: "${value}" is not host:port`);
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port: port(m[2]!, 'patchpilot.telemetry.prometheusEndpoint') };
}

function port(value: string, origin: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new TelemetryConfigError(`${origin}: "${value}" is not a port`);
  return n;
}
