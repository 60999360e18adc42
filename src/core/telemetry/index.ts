/**
 * Telemetry for a host (the CLI's run and serve, the VS Code extension): off by default; when the
 * user turns it on (patchpilot.telemetry.enabled, PATCHPILOT_TELEMETRY=1) the OpenTelemetry SDK is
 * loaded and the agent's events become spans and metrics (agentEventTelemetry.ts). docs/telemetry.md.
 */
import type { PatchPilotSettings } from '../config/settings';
import type { AgentEvent } from '../../protocol/agentEvents';
import { resolveTelemetryConfig, type TelemetryConfig } from './telemetryConfig';

export { resolveTelemetryConfig, TelemetryConfigError, OTLP_PROTOCOLS, type TelemetryConfig, type OtlpProtocol } from './telemetryConfig';

export interface Telemetry {
  readonly config: TelemetryConfig;
  onEvent(e: AgentEvent): void;
  checkpointRestored(files: number): void;
  /** Sends what is pending and stops; call before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * The host's telemetry, or undefined when it is off (then nothing of OpenTelemetry is loaded).
 * Throws TelemetryConfigError on a bad setting or variable.
 */
export async function startTelemetry(
  settings: PatchPilotSettings['telemetry'],
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void,
): Promise<Telemetry | undefined> {
  const config = resolveTelemetryConfig(settings, env);
  if (!config) return undefined;
  const [{ startOtelPipeline }, { AgentEventTelemetry }] = await Promise.all([import('./otelSdk'), import('./agentEventTelemetry')]);
  const pipeline = await startOtelPipeline(config, VERSION, warn);
  const events = new AgentEventTelemetry(pipeline.tracer, pipeline.meter, pipeline.api, config.includeContent);
  let stopped: Promise<void> | undefined;
  return {
    config,
    onEvent: (e) => events.onEvent(e),
    checkpointRestored: (files) => events.checkpointRestored(files),
    shutdown: () => (stopped ??= pipeline.shutdown()),
  };
}

declare const PATCHPILOT_VERSION: string;
const VERSION = typeof PATCHPILOT_VERSION === 'string' ? PATCHPILOT_VERSION : '0.0.0';

/** An event sink that also feeds telemetry (when on). */
export function withTelemetry(onEvent: (e: AgentEvent) => void, telemetry: Telemetry | undefined): (e: AgentEvent) => void {
  if (!telemetry) return onEvent;
  return (e) => {
    telemetry.onEvent(e);
    onEvent(e);
  };
}
